"""Questions a third probe on the ffmpeg track found misread (session 25): "at roughly what
minute ...?", "list all ...", "suffer more from A or from B?", "which combination of ...?",
"in the first or the second half?", "what fraction ... by the low frame rate?", counts with a
length bound, "which X is the strongest / weakest?" over "the first one .." options, and
"right after"."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import question_kind
from tools.model import Event


def _blur_then_hue(duration=1800.0, blur=(327.0, 361.5), hue=(1218.5, 1244.0)):
    return make_index(duration, [Event("blur", *blur, 0.7, 5.0, "softness", {}),
                                 Event("colour", *hue, 0.31, 2.0, "hue shift", {})], fps=5.0)


@pytest.mark.parametrize("question", [
    "At roughly what minute does the picture get blurry?",
    "Approximately when does the picture get blurry?",
    "What minute does the blur start in?",
])
def test_roughly_what_minute_is_a_localization(tmp_path, question):
    opts = ("Minute 2", "Minute 5-6", "Minute 15", "Minute 25")
    assert question_kind(question, opts) == "localization"
    ans = ask(_blur_then_hue(), question, opts, tmp_path)
    assert ans.choice == "B" and "Blur occurs from" in ans.answer, ans.answer


@pytest.mark.parametrize("question", [
    "List all distortions with start and end times.",
    "Give me the timestamps of every quality issue.",
    "Please list the problems you found.",
])
def test_a_list_names_every_lasting_event_alike(tmp_path, question):
    ans = ask(_blur_then_hue(180.0, (130.5, 156.5), (69.0, 83.5)), question, (), tmp_path)
    assert "00:01:09.0" in ans.answer and "00:02:10.5" in ans.answer, ans.answer
    assert "Weaker or brief" not in ans.answer, ans.answer


def test_a_plain_when_still_sets_weak_events_apart(tmp_path):
    ans = ask(_blur_then_hue(180.0, (130.5, 156.5), (69.0, 83.5)),
              "When does the quality drop?", (), tmp_path)
    assert "Weaker or brief candidates: colour" in ans.answer, ans.answer


def _noise_and_blocks(gap_s=25.0):
    return make_index(180.0, [Event("compression", 48.5, 74.0, 0.64, 5.0, "blocking", {}),
                              Event("noise", 74.0 + gap_s, 120.0 + gap_s, 0.35, 2.0, "grain",
                                    {})])


@pytest.mark.parametrize("question", [
    "Does the picture suffer more from noise or from compression?",
    "Is the video affected more by noise or by compression?",
])
def test_more_from_a_or_b_compares_the_two(tmp_path, question):
    assert question_kind(question, ("Noise", "Compression")) == "comparison"
    ans = ask(_noise_and_blocks(), question, ("Noise", "Compression"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("question", [
    "Which combination of problems does the video contain?",
    "What mix of distortions is present?",
])
def test_a_combination_is_a_set_of_types(tmp_path, question):
    opts = ("Noise and blocking", "Noise and blur", "Blocking and flicker", "Only noise")
    assert question_kind(question, opts) == "integration"
    ans = ask(_noise_and_blocks(), question, opts, tmp_path)
    assert ans.choice == "A", ans.answer


@pytest.mark.parametrize(("question", "options", "right"), [
    ("Does the blur happen in the first or the second half?", ("First half", "Second half"),
     "B"),
    ("Is the blur at the start or at the end?", ("At the start", "At the end"), "B"),
])
def test_in_the_first_or_the_second_half_asks_where(tmp_path, question, options, right):
    assert question_kind(question, options) == "localization"
    ans = ask(_blur_then_hue(180.0, (140.0, 156.0), (10.0, 12.0)), question, options, tmp_path)
    assert ans.choice == right, ans.answer


def test_a_share_of_the_low_frame_rate_is_no_rating(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 31.0, 44.2, 0.8, 4.0, "frame-rate drop",
                                   {"hold_frames": 5, "effective_fps": 6.0})])
    question = "What fraction of the video is affected by the low frame rate?"
    opts = ("About 7%", "About 25%", "About 50%", "About 75%")
    assert question_kind(question, opts) == "cumulative_effect"
    ans = ask(idx, question, opts, tmp_path)
    assert ans.choice == "A", ans.answer


def test_a_count_keeps_the_stretches_within_its_bounds(tmp_path):
    idx = make_index(180.0, [Event("freeze", 16.8, 18.8, 0.64, 2.0, "frozen picture", {}),
                             Event("freeze", 109.4, 113.4, 0.88, 4.0, "frozen picture", {}),
                             Event("freeze", 127.0, 135.0, 1.0, 8.0, "frozen picture", {})])
    ans = ask(idx, "How many freezes last longer than 3 seconds?", ("0", "1", "2", "3"),
              tmp_path)
    assert ans.choice == "C" and "lasting over 3 s" in ans.answer, ans.answer
    ans = ask(idx, "How many freezes are there?", ("0", "1", "2", "3"), tmp_path)
    assert ans.choice == "D", ans.answer


@pytest.mark.parametrize(("question", "right"), [
    ("Which contrast drop is the strongest?", "A"),
    ("Which of the contrast drops is the weakest?", "C"),
])
def test_strongest_and_weakest_over_back_references(tmp_path, question, right):
    idx = make_index(180.0, [
        Event("exposure", 32.5, 53.5, 0.76, 4.0, "low contrast", {}),
        Event("exposure", 82.4, 111.9, 0.5, 3.0, "low contrast", {}),
        Event("exposure", 133.4, 167.9, 0.33, 2.0, "low contrast", {})])
    ans = ask(idx, question, ("The first one", "The second one", "The third one"), tmp_path)
    assert ans.choice == right, ans.answer


@pytest.mark.parametrize(("gap_s", "right"), [(25.0, "B"), (1.0, "A")])
def test_right_after_needs_the_next_stretch_to_follow_at_once(tmp_path, gap_s, right):
    ans = ask(_noise_and_blocks(gap_s), "Does the noise start right after the blocking ends?",
              ("Yes", "No"), tmp_path)
    assert ans.choice == right, ans.answer
    plain = ask(_noise_and_blocks(gap_s), "Does the noise start after the blocking ends?",
                ("Yes", "No"), tmp_path)
    assert plain.choice == "A", plain.answer


def test_minute_before_a_clock_time_is_that_time():
    from agent.questions import parse_question
    for q in ("Is there blur after minute 1:30?", "Is there any blur after the minute 1:30?",
              "¿Hay desenfoque después del minuto 1:30?"):
        wins = parse_question(q, ("Yes", "No"), 180.0).windows
        assert wins and wins[0].start_s >= 88.0, (q, wins)
    wins = parse_question("Is there blur in minute 2?", ("Yes", "No"), 180.0).windows
    assert (wins[0].start_s, wins[0].end_s) == (60, 120)


def test_chinese_counts_over_numeral_options(tmp_path):
    idx = make_index(180.0, [Event("freeze", 56.0, 58.0, 0.64, 2.0, "frozen picture", {}),
                             Event("freeze", 66.5, 70.2, 0.84, 4.0, "frozen picture", {}),
                             Event("freeze", 125.7, 132.9, 1.0, 8.0, "frozen picture", {})])
    ans = ask(idx, "画面冻结了几次?", ("一次", "两次", "三次", "没有"), tmp_path)
    assert ans.choice == "C", ans.answer


def test_german_in_which_period_and_spanish_hue_words(tmp_path):
    assert question_kind("In welchem Zeitraum ist das Bild zu dunkel?",
                         ("0:10-0:30", "0:45-1:10")) == "localization"
    from agent.questions import parse_question
    p = parse_question("¿Qué problema es más grave, la sobreexposición o el cambio de tono?",
                       ("La sobreexposición", "El cambio de tono"), 180.0)
    assert [o.types[0].type for o in p.options] == ["exposure", "colour"]


def _soft_then_bright():
    return make_index(180.0, [Event("blur", 43.5, 68.0, 0.84, 5.0, "softness", {}),
                              Event("exposure", 112.4, 133.4, 0.4, 2.0, "too bright", {})])


@pytest.mark.parametrize(("question", "options", "right"), [
    ("How is the sharpness of the video between 0:45 and 1:05?", ("High", "Medium", "Low"),
     "C"),
    ("How is the sharpness of the video in the last 30 seconds?", ("High", "Medium", "Low"),
     "A"),
    ("How is the clarity of the video between 0:45 and 1:05?", ("High", "Medium", "Low"), "C"),
    ("How is the clarity of the video in the last 30 seconds?", ("High", "Medium", "Low"),
     "A"),
    ("How good is the focus between 0:45 and 1:05?", ("Good", "Fair", "Poor"), "C"),
    ("How severe is the blur between 0:45 and 1:05?", ("Low", "Medium", "High"), "C"),
])
def test_a_virtue_s_level_falls_as_its_defect_rises(tmp_path, question, options, right):
    ans = ask(_soft_then_bright(), question, options, tmp_path)
    assert ans.choice == right, ans.answer
    assert "None of the options says so" not in ans.answer


@pytest.mark.parametrize(("question", "right"), [
    ("Are the colours of the video accurate throughout?", "A"),
    ("Is the lighting of the video adequate throughout?", "B"),
    ("Is the focus of the video good throughout?", "B"),
])
def test_virtues_with_the_video_named_between(tmp_path, question, right):
    ans = ask(_soft_then_bright(), question, ("Yes", "No"), tmp_path)
    assert ans.choice == right, ans.answer


def test_the_segment_with_the_best_picture_quality_is_a_clean_one(tmp_path):
    ans = ask(_soft_then_bright(), "Which time segment has the best picture quality?",
              ("0:45-1:05", "1:55-2:10", "2:30-2:50"), tmp_path)
    assert ans.choice == "C", ans.answer


def _desaturated(a=97.0, b=125.0):
    return make_index(180.0, [Event("colour", a, b, 0.55, 3.0, "desaturation", {})])


def test_washed_out_or_faded_is_answered_by_a_desaturation_too(tmp_path):
    ans = ask(_desaturated(), "Is the image washed out or faded between 1:40 and 2:00?",
              ("Yes", "No"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_an_option_saying_they_fade_names_the_colours_draining(tmp_path):
    ans = ask(_desaturated(), "What happens to the colours after 1:30?",
              ("They fade", "They become too strong", "They turn green", "Nothing"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_darker_towards_the_end_with_yes_no_options_reads_the_end(tmp_path):
    idx = make_index(180.0, [Event("exposure", 133.5, 158.0, 0.38, 2.0, "too dark", {})])
    ans = ask(idx, "Does the video become darker towards the end?", ("Yes", "No"), tmp_path)
    assert ans.choice == "A" and ans.answer.startswith("Yes"), ans.answer
    early = make_index(180.0, [Event("exposure", 10.0, 40.0, 0.6, 2.0, "too dark", {})])
    ans = ask(early, "Does the video become darker towards the end?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("question", ["Does the flicker die down towards the end?",
                                      "Does the noise subside later on?",
                                      "Does the grain taper off as the video goes on?"])
def test_dying_down_is_a_trend_that_improves(question):
    from agent.questions import parse_question
    p = parse_question(question, ("Yes", "No"), 180.0)
    assert p.kind == "trend" and p.claim == "improving", p


def test_defect_level_words_over_a_virtue_still_grade_the_defect(tmp_path):
    ans = ask(_soft_then_bright(), "How is the sharpness between 0:45 and 1:05?",
              ("Mild", "Moderate", "Severe"), tmp_path)
    assert ans.choice == "C", ans.answer


@pytest.mark.parametrize(("question", "right"), [
    ("How far into the video does the colour problem start?", "C"),
    ("After how many minutes does the colour shift end?", "C"),
])
def test_offsets_over_duration_options_place_the_event(tmp_path, question, right):
    ans = ask(_blur_then_hue(), question, ("About 5 minutes", "About 12 minutes",
                                           "About 20 minutes", "About 28 minutes"), tmp_path)
    assert ans.choice == right, ans.answer


def test_how_much_of_the_30_minute_video_is_a_share(tmp_path):
    opts = ("Under 5%", "About 25%", "About 50%", "Over 75%")
    assert question_kind("How much of the 30-minute video is affected?", opts) \
        == "cumulative_effect"
    ans = ask(_blur_then_hue(), "How much of the 30-minute video is affected?", opts, tmp_path)
    assert ans.choice == "A", ans.answer


def _noise_only():
    return make_index(180.0, [Event("noise", 94.5, 118.5, 0.57, 3.0, "grain", {})])


@pytest.mark.parametrize(("question", "options", "right"), [
    ("Apart from noise, are there other problems?", ("Yes", "No"), "B"),
    ("Other than the grain, is anything wrong with the picture?", ("Yes", "No"), "B"),
    ("Besides the noise, which other problem is present?", ("Blur", "Flicker", "None"), "C"),
])
def test_a_type_set_aside_is_not_the_answer(tmp_path, question, options, right):
    ans = ask(_noise_only(), question, options, tmp_path)
    assert ans.choice == right and ans.answer.startswith("Setting aside the noise"), ans.answer


def test_set_aside_leaves_the_other_types():
    from agent.questions import parse_question
    p = parse_question("Apart from the blur, is there any noise?", ("Yes", "No"), 180.0)
    assert p.besides == ["blur"] and [m.type for m in p.types] == ["noise"]
    assert p.unknown == []


@pytest.mark.parametrize(("question", "options", "right"), [
    ("Would you say the video has no flicker?", ("Yes", "No"), "A"),
    ("Is the noise absent between 1:40 and 1:50?", ("Yes", "No"), "B"),
    ("The video is clean from start to finish. Correct?", ("Correct", "Incorrect"), "B"),
    ("The video has grain between 1:35 and 1:55.", ("Right", "Wrong"), "A"),
])
def test_negated_claims_and_verdict_words(tmp_path, question, options, right):
    ans = ask(_noise_only(), question, options, tmp_path)
    assert ans.choice == right, ans.answer


@pytest.mark.parametrize(("text", "etype"), [
    ("Where are white and black dots sprinkled over the image?", "noise"),
    ("Are there black dots all over the picture?", "noise"),
    ("Do horizontal lines appear on moving objects?", "interlace"),
])
def test_looks_described_in_plain_words(text, etype):
    from agent.questions import parse_question
    p = parse_question(text, ("Yes", "No"), 180.0)
    assert [m.type for m in p.types] == [etype] and p.unknown == [], p


@pytest.mark.parametrize(("options", "right"), [
    (("It intensifies", "It weakens", "It stays constant", "It comes and goes randomly"), "B"),
    (("It grows", "It diminishes", "It stays the same"), "B"),
])
def test_a_named_defect_that_weakens_is_an_improving_trend(tmp_path, options, right):
    idx = make_index(180.0, [Event("exposure", 24.0, 47.5, 0.85, 4.0, "low contrast", {}),
                             Event("exposure", 86.5, 112.0, 0.54, 3.0, "low contrast", {}),
                             Event("exposure", 145.0, 157.5, 0.31, 2.0, "low contrast", {})])
    ans = ask(idx, "How does the contrast problem evolve?", options, tmp_path)
    assert ans.choice == right, ans.answer


def test_which_problem_comes_second(tmp_path):
    idx = make_index(180.0, [Event("compression", 46.0, 65.5, 0.6, 4.0, "blocking", {}),
                             Event("exposure", 125.0, 141.0, 0.4, 2.0, "low contrast", {})])
    ans = ask(idx, "Which problem comes second?",
              ("Compression", "Contrast loss", "Blur", "Noise"), tmp_path)
    assert ans.choice == "B" and ans.answer.startswith("The second distortion"), ans.answer


def test_one_stretch_is_concentrated_in_one_part(tmp_path):
    idx = make_index(180.0, [Event("noise", 108.5, 146.0, 0.86, 4.0, "grain", {})])
    ans = ask(idx, "Is the quality problem concentrated in one part of the video or spread out?",
              ("Concentrated in one part", "Spread throughout"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_stronger_at_the_start_than_at_the_end_compares_thirds(tmp_path):
    idx = make_index(180.0, [Event("noise", 22.5, 51.0, 0.89, 4.0, "grain", {}),
                             Event("noise", 155.5, 170.0, 0.5, 2.0, "grain", {})])
    ans = ask(idx, "Is the noise stronger at the start than at the end?", ("Yes", "No"),
              tmp_path)
    assert ans.choice == "A", ans.answer


def test_minutes_into_the_video_over_bare_numbers(tmp_path):
    ans = ask(_blur_then_hue(), "How many minutes into the video does the colour shift start?",
              ("About 5", "About 11", "About 20", "About 28"), tmp_path)
    assert ans.choice == "C", ans.answer


def test_how_much_time_passes_between_two_problems(tmp_path):
    ans = ask(_blur_then_hue(), "Between the blur and the colour shift, how much time passes?",
              ("About 1 minute", "About 5 minutes", "About 14 minutes", "About 25 minutes"),
              tmp_path)
    assert ans.choice == "C", ans.answer


def test_less_smooth_in_the_second_half_reads_that_half(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 94.5, 125.0, 0.5, 2.0, "frame-rate drop",
                                   {"hold_frames": 2, "effective_fps": 15.0})])
    ans = ask(idx, "Does the motion become less smooth in the second half?", ("Yes", "No"),
              tmp_path)
    assert ans.choice == "A" and "the last 3 of 6 parts" in ans.answer, ans.answer
    from agent.questions import parse_question
    assert parse_question("Does the video get less noisy over time?", ("Yes", "No"),
                          180.0).claim == "improving"


def test_what_frame_rate_does_it_drop_to(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 102.7, 129.5, 0.67, 4.0, "frame-rate drop",
                                   {"hold_frames": 3, "effective_fps": 8.0})])
    ans = ask(idx, "Approximately what frame rate does the video drop to?",
              ("About 12 fps", "About 8 fps", "About 3 fps"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("text", ["Are edges artificially enhanced between 0:55 and 1:10?",
                                  "Do the outlines look overly accentuated?"])
def test_edges_artificially_enhanced_is_over_sharpening(text):
    from agent.questions import parse_question
    p = parse_question(text, ("Yes", "No"), 180.0)
    assert [m.type for m in p.types] == ["sharpening"] and p.unknown == [], p
