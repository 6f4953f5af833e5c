"""Question forms found wanting on real footage with injected defects (session-21 probes):
spelled-out times, words for a defect in other languages, "which is the bigger problem",
"the sharpest part", and yes/no questions that get a yes or a no."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import BLUR, FLICKER, make_index

from agent.questions import parse_question
from agent.time_units import digits_before_units
from tools.model import Event


@pytest.mark.parametrize(("text", "want"), [
    ("after the two-minute mark", "after the 2-minute mark"),
    ("in the last thirty seconds", "in the last 30 seconds"),
    ("the first forty five seconds", "the first 45 seconds"),
    ("after twenty-five secs", "after 25 secs"),
    ("one hour in", "1 hour in"),
    ("two of the scenes", "two of the scenes"),  # no unit follows: left as it is
    ("someone minutes", "someone minutes"),  # inside a word: left as it is
])
def test_number_words_before_time_units_become_digits(text, want):
    assert digits_before_units(text) == want


@pytest.mark.parametrize(("question", "window"), [
    ("What happens to the picture after the two-minute mark?", (120.0, 180.0)),
    ("What happens after two minutes?", (120.0, 180.0)),
    ("Is there noise in the last thirty seconds?", (150.0, 180.0)),
    ("Is it blurry in the first forty-five seconds?", (0.0, 45.0)),
])
def test_spelled_out_times_name_windows(question, window):
    q = parse_question(question, [], 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [window]


@pytest.mark.parametrize(("question", "etype", "subtype"), [
    ("Wann bleibt das Bild stehen?", "freeze", None),
    ("Wann bleibt der Film kurz stehen?", "freeze", None),
    ("Quand est-ce que l'image devient sombre ?", "exposure", "too dark"),
    ("L'image est-elle sombre ?", "exposure", "too dark"),
    ("Is there a stretch where the resolution looks low?", "blur", None),
    ("Is the picture dark anywhere?", "exposure", "too dark"),
    ("When does the footage look dark?", "exposure", "too dark"),
])
def test_more_words_for_a_defect(question, etype, subtype):
    q = parse_question(question, [], 180.0)
    assert q.type == etype and not q.unknown, q.text
    if subtype:
        assert q.types[0].subtype == subtype


@pytest.mark.parametrize(("question", "kind", "least"), [
    ("Which is the bigger problem, the flicker or the darkness?", "comparison", False),
    ("Is blur or noise the bigger problem here?", "comparison", False),
    ("What is the sharpest part of the video?", "localization", True),
    ("What is the best part of the video?", "localization", True),
    ("What's the noisiest section?", "localization", False),
    ("Would you say this recording is of good quality?", "overall", False),
    ("Is this clip in poor quality?", "overall", False),
])
def test_kinds_of_further_shapes(question, kind, least):
    q = parse_question(question, [], 180.0)
    assert (q.kind, q.least) == (kind, least), q.text


@pytest.fixture
def blur_noise():
    # blur 1:00-1:15 at 0.6; noise 2:00-2:20 at 0.3
    return make_index(events=[BLUR, Event("noise", 120.0, 140.0, 0.3, 3.0, "grain", {})])


@pytest.mark.parametrize(("question", "lead"), [
    ("Is the noise heavier than the blur?", "No: the most severe distortion is blur"),
    ("Is the blur worse than the noise?", "Yes: "),
    ("Is the noise milder than the blur?", "Yes: "),
    ("Which is worse, the noise or the blur?", "The most severe distortion is blur"),
])
def test_yes_no_comparison_of_two_named_types_leads_with_the_verdict(blur_noise, tmp_path,
                                                                      question, lead):
    ans = ask(blur_noise, question, tmp_path=tmp_path).answer
    assert ans.startswith(lead) and "The noise is mild at its worst (severity 0.30" in ans


def test_yes_no_comparison_of_two_windows_of_a_type(blur_noise, tmp_path):
    yes = ask(blur_noise, "Is the first half blurrier than the second half?",
              tmp_path=tmp_path)
    assert yes.answer.startswith("Yes: the blur at 00:00:00.0-00:01:40.0 is the more severe")
    no = ask(blur_noise, "Is the second half blurrier than the first half?", tmp_path=tmp_path)
    assert no.answer.startswith("No: the blur at 00:00:00.0-00:01:40.0")


def test_overall_claims_of_good_or_poor_quality_get_a_yes_or_no(tmp_path):
    clean = make_index(events=[])
    worst = make_index(events=[Event("blur", 0.0, 200.0, 1.0, 9.0, "softness", {}),
                               Event("noise", 0.0, 200.0, 1.0, 9.0, "grain", {})])
    good, poor = ("Would you say this recording is of good quality?",
                  "Is this clip in poor quality?")
    assert ask(clean, good, tmp_path=tmp_path).answer.startswith("Yes: ")
    assert ask(clean, poor, tmp_path=tmp_path).answer.startswith("No: ")
    assert ask(worst, good, tmp_path=tmp_path).answer.startswith("No: ")
    assert ask(worst, poor, tmp_path=tmp_path).answer.startswith("Yes: ")


def test_a_flicker_and_a_blur_stay_ordered_after_a_spelled_out_time(tmp_path):
    idx = make_index(events=[BLUR, FLICKER])  # blur 1:00-1:15, flicker 2:20-2:30 of 3:20
    ans = ask(idx, "What happens to the picture after the two-minute mark?", tmp_path=tmp_path)
    assert "flicker" in ans.answer and "blur" not in ans.answer.split(".")[0]


@pytest.fixture
def two(tmp_path):
    return make_index(events=[BLUR, FLICKER])  # blur 1:00-1:15, flicker 2:20-2:30 of 3:20


def test_before_or_after_an_instant_is_the_instant():
    q = parse_question("Does noise appear before or after the 1:30 mark?", [], 200.0)
    assert [w.point for w in q.windows] == [True]


@pytest.mark.parametrize(("question", "lead"), [
    ("Does the flicker appear before or after the 1:30 mark?",
     "After 00:01:30.0: the flicker starts at 00:02:20.0"),
    ("Is the blur before or after 2:00?", "Before 00:02:00.0: the blur ends at 00:01:15.0"),
    ("Does the blur come before or after 1:10?",
     "Across 00:01:10.0: the blur runs from 00:01:00.0"),
])
def test_before_or_after_an_instant_says_which_side(two, tmp_path, question, lead):
    assert ask(two, question, tmp_path=tmp_path).answer.startswith(lead)


def test_first_or_last_of_three_named_types(two, tmp_path):
    last = ask(two, "Which comes last, the blur, the flicker, or the grain?", tmp_path=tmp_path)
    assert last.answer.startswith("The flicker comes last (it ends at 00:02:30.0). "
                                  "No noise was found.")
    first = ask(two, "Which comes first: the flicker, the noise or the blur?", tmp_path=tmp_path)
    assert first.answer.startswith("The blur comes first (from 00:01:00.0).")


def test_shortly_before_an_instant_is_the_stretch_just_before_it():
    q = parse_question("What problem shows up shortly before the two-minute mark?", [], 150.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(105.0, 120.0)]
    q = parse_question("What happens just after 1:00?", [], 150.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(60.0, 75.0)]
    q = parse_question("Is there blur before 1:00?", [], 150.0)  # no "just": all of it
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 60.0)]


def test_getting_worse_near_the_end_is_the_end_against_the_rest(tmp_path):
    late = make_index(events=[Event("exposure", 165.0, 190.0, 0.7, 5.0, "too bright", {})])
    early = make_index(events=[Event("exposure", 20.0, 45.0, 0.7, 5.0, "too bright", {})])
    q = "Does the image get brighter near the end?"
    assert ask(late, q, tmp_path=tmp_path).answer.startswith("Yes: the last ")
    assert ask(early, q, tmp_path=tmp_path).answer.startswith("No: the last ")


def test_rank_the_problems_worst_or_mildest_first(two, tmp_path):
    worst = ask(two, "Rank the problems from worst to mildest.", tmp_path=tmp_path).answer
    mild = ask(two, "Rank the defects from least to most severe.", tmp_path=tmp_path).answer
    assert worst.startswith("Ranked, worst first: 1. ")
    assert mild.startswith("Ranked, mildest first: 1. ")
    names = [a.split("1. ")[1].split(" (")[0] for a in (worst, mild)]
    assert set(names) == {"blur", "flicker"} and names[0] != names[1]


def test_in_which_minute_asks_where_and_names_the_minute(two, tmp_path):
    assert parse_question("In which minute does the noise appear?", [], 480.0).kind == \
        "localization"
    assert parse_question("Which minute has the most noise?", [], 480.0).kind == "comparison"
    ans = ask(two, "In which minute does the blur appear?", tmp_path=tmp_path)
    assert ans.answer.startswith("Blur occurs from 00:01:00.0 to 00:01:15.0")
    assert "That is in minute 2 of the video" in ans.answer


@pytest.mark.parametrize(("question", "kind", "etype", "read"), [
    ("wen does it get blury?", "localization", "blur", [("wen", "when"), ("blury", "blurry")]),
    ("Is ther any flikker?", "detection", "flicker", [("ther", "there"), ("flikker", "flicker")]),
    ("Where is the vidoe pixelatted?", "localization", "compression",
     [("vidoe", "video"), ("pixelatted", "pixelated")]),
])
def test_typos_are_read_as_the_nearest_vocabulary_word(question, kind, etype, read):
    q = parse_question(question, [], 180.0)
    assert (q.kind, q.type, q.corrected, q.original) == (kind, etype, read, question)


def test_a_question_understood_as_written_is_not_corrected():
    q = parse_question("When does it get blurry?", [], 180.0)
    assert q.corrected == []
    # an unknown word with no near vocabulary word stays unknown
    q = parse_question("Is the rocket launch successful?", [], 180.0)
    assert q.corrected == [] and "launch" in q.unknown


def test_the_answer_says_how_a_typo_was_read(two, tmp_path):
    ans = ask(two, "wen does it get blury?", tmp_path=tmp_path)
    assert ans.answer.startswith("(Read 'wen' as 'when', 'blury' as 'blurry'.) Blur occurs "
                                 "from 00:01:00.0 to 00:01:15.0")


@pytest.mark.parametrize(("question", "kind", "etype"), [
    ("Give me a QC report.", "open", None),
    ("Does the luminance pump?", "detection", "flicker"),
    ("Are there any black frames?", "detection", "exposure"),
    ("Does the screen go black at some point?", "detection", "exposure"),
    ("Check for macroblocking.", "detection", "compression"),
    ("Please check this clip for freezes", "detection", "freeze"),
    ("Was ist mit der Bildqualität los?", "classification", None),
    ("画质怎么样？", "overall", None),
])
def test_qc_words_and_idioms(question, kind, etype):
    q = parse_question(question, [], 180.0)
    assert (q.kind, q.type, q.unknown) == (kind, etype, []), q.text


def test_a_clean_window_names_the_nearest_event_of_its_type(two, tmp_path):
    ans = ask(two, "Is there flicker in the first minute?", tmp_path=tmp_path)
    assert ans.answer.startswith("No: no flicker was detected between 00:00:00.0 and "
                                 "00:01:00.0")
    assert ans.answer.endswith("The nearest flicker is at 00:02:20.0-00:02:30.0 (severity "
                               "0.80), 00:01:20.0 after that window.")


@pytest.mark.parametrize(("question", "lead"), [
    ("Is the blur followed by flicker?", "Yes. The blur comes first"),
    ("Is the blur preceded by flicker?", "No. The blur comes first"),
    ("Is the flicker preceded by blur?", "Yes. "),
])
def test_followed_by_and_preceded_by_read_the_right_way_round(two, tmp_path, question, lead):
    assert ask(two, question, tmp_path=tmp_path).answer.startswith(lead)


def test_first_last_and_gaps_without_a_named_type(two, tmp_path):
    first = ask(two, "What is the very first problem in the video and when?", tmp_path=tmp_path)
    assert first.answer.startswith("The first problem is blur (softness), from 00:01:00.0 to "
                                   "00:01:15.0.")
    last = ask(two, "What is the last problem?", tmp_path=tmp_path)
    assert last.answer.startswith("The last problem is flicker")
    gap = ask(two, "How far apart are the two problems?", tmp_path=tmp_path)
    assert gap.answer.startswith("The blur ends at 00:01:15.0, the flicker starts at "
                                 "00:02:20.0: 00:01:05.0 apart.")


def test_which_third_compares_thirds_and_affects_more_compares_types(two, tmp_path):
    third = ask(two, "Which third of the video has the most problems?", tmp_path=tmp_path)
    assert third.answer.startswith("The most degraded window is 00:02:13.3-00:03:20.0")
    assert third.answer.count("worst severity") == 3
    q = parse_question("Which problem affects the viewer more, the freeze or the colour shift?",
                       [], 180.0)
    assert q.kind == "comparison" and [m.type for m in q.types] == ["freeze", "colour"]


@pytest.mark.parametrize("question", ["Is the quality good?", "Is the picture quality good?",
                                      "La qualité est-elle bonne ?", "¿La calidad es buena?",
                                      "Ist die Qualität gut?"])
def test_is_the_quality_good_is_the_overall_grade_with_a_yes_or_no(question, tmp_path):
    assert parse_question(question, [], 200.0).kind == "overall"
    assert ask(make_index(events=[]), question, tmp_path=tmp_path).answer.startswith("Yes: ")
    worst = make_index(events=[Event("blur", 0.0, 200.0, 1.0, 9.0, "softness", {}),
                               Event("noise", 0.0, 200.0, 1.0, 9.0, "grain", {})])
    assert ask(worst, question, tmp_path=tmp_path).answer.startswith("No: ")


def test_good_or_bad_gets_the_grade_without_a_yes_or_no(tmp_path):
    ans = ask(make_index(events=[]), "Is the video good or bad?", tmp_path=tmp_path)
    assert ans.answer.startswith("Overall quality is excellent")


def test_whether_and_a_question_mark_make_a_yes_no_question(two, tmp_path):
    told = ask(two, "Tell me whether the video is blurry.", tmp_path=tmp_path)
    assert told.answer.startswith("Yes: blur is present")
    plain = ask(two, "The video is noisy?", tmp_path=tmp_path)
    assert plain.answer.startswith("No: no noise was detected")
    assert parse_question("视频有几个问题？", [], 200.0).kind == "cumulative_effect"


def test_spread_or_clustered_without_a_named_type(tmp_path):
    apart = make_index(events=[Event("blur", 10.0, 20.0, 0.6, 8.0, "softness", {}),
                               Event("noise", 170.0, 185.0, 0.5, 5.0, "grain", {})])
    close = make_index(events=[Event("blur", 60.0, 70.0, 0.6, 8.0, "softness", {}),
                               Event("noise", 80.0, 90.0, 0.5, 5.0, "grain", {})])
    q = "Are the problems spread evenly or clustered?"
    assert ask(apart, q, tmp_path=tmp_path).answer.startswith(
        "Spread over the video: 2 degraded stretches from 00:00:10.0 to 00:03:05.0, gaps of "
        "00:02:30.0.")
    assert ask(close, q, tmp_path=tmp_path).answer.startswith("Clustered: 2 degraded stretches")


def test_a_claimed_level_gets_a_verdict_on_the_measured_level(two, tmp_path):
    mild = ask(two, "Is the flicker mild?", tmp_path=tmp_path).answer
    severe = ask(two, "Would you call the flicker severe?", tmp_path=tmp_path).answer
    level = severe.split("the flicker is ")[1].split(" ")[0]
    assert level in ("mild", "moderate", "severe")
    assert severe.startswith("Yes: " if level == "severe" else "No: ")
    assert mild.startswith("Yes: " if level == "mild" else "No: ")
    assert ask(two, "Is there flicker?", tmp_path=tmp_path).answer.startswith(
        "Yes: flicker is present")


def test_an_open_question_about_a_clean_window_stays_in_it(two, tmp_path):
    ans = ask(two, "What is the quality like in the first forty seconds?", tmp_path=tmp_path)
    assert ans.answer.startswith("No quality distortion was detected between 00:00:00.0 and "
                                 "00:00:40.0")


@pytest.mark.parametrize(("question", "kind", "etype"), [
    ("During which part of the clip is the render out of focus?", "localization", "blur"),
    ("In which part is the blur worst?", "comparison", "blur"),
    ("Is the frame rate lower in the second half?", "detection", "frame_drop"),
])
def test_which_part_asks_where_and_a_lower_frame_rate_is_a_frame_drop(question, kind, etype):
    q = parse_question(question, [], 480.0)
    assert (q.kind, q.type, q.unknown) == (kind, etype, [])


def test_a_real_word_is_no_typo_of_a_longer_vocabulary_word():
    q = parse_question("Is there a moment where the cartoon stops animating?", [], 180.0)
    assert q.corrected == [] and q.type == "freeze"


def test_the_n_minutes_is_a_length_not_an_instant():
    q = parse_question("How much of the eight minutes is degraded?", [], 480.0)
    assert q.windows == []
    q = parse_question("Is there blur at 2 minutes?", [], 480.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(118.0, 122.0)]


@pytest.mark.parametrize(("question", "kind", "etype"), [
    ("What goes wrong at 1:10?", "classification", None),
    ("Would this clip pass a broadcast QC check?", "overall", None),
    ("¿Hay saltos en el movimiento?", "detection", "frame_drop"),
])
def test_more_qc_and_spanish_words(question, kind, etype):
    q = parse_question(question, [], 180.0)
    assert (q.kind, q.type, q.unknown) == (kind, etype, [])


def test_which_stretch_of_one_type_lasts_longer(tmp_path):
    idx = make_index(events=[Event("blur", 10.0, 25.0, 0.6, 8.0, "softness", {}),
                             Event("blur", 100.0, 140.0, 0.5, 8.0, "softness", {})])
    ans = ask(idx, "Which blurred stretch lasts longer?", tmp_path=tmp_path)
    assert ans.answer.startswith("The blur from 00:01:40.0 to 00:02:20.0 lasts longer: "
                                 "00:01:40.0-00:02:20.0: 40.0 s; 00:00:10.0-00:00:25.0: 15.0 s.")


def test_low_said_of_the_resolution_is_no_level_claim(tmp_path):
    idx = make_index(events=[Event("blur", 40.0, 70.0, 0.94, 9.0, "softness", {})])
    ans = ask(idx, "Is there a stretch where the resolution looks low?", tmp_path=tmp_path)
    assert ans.answer.startswith("Yes: blur is present")


@pytest.mark.parametrize(("question", "clean", "hit"), [
    ("Is the quality consistent across the video?", "Yes: ", "No: "),
    ("Does the quality fluctuate?", "No: ", "Yes: "),
])
def test_a_yes_no_stability_question_gets_its_yes_or_no(question, clean, hit, two, tmp_path):
    assert parse_question(question, [], 200.0).kind == "stability"
    assert ask(make_index(events=[]), question, tmp_path=tmp_path).answer.startswith(
        clean + "the viewing quality is stable")
    assert ask(two, question, tmp_path=tmp_path).answer.startswith(hit)
