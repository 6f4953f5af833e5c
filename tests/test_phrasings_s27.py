"""Phrasings a session-27 probe found misread: "for how long is the picture unstable?" (the
shake, not the stability of the quality)."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.kinds import question_kind
from agent.questions import parse_question
from tools.model import Event


@pytest.mark.parametrize("question", [
    "For how long is the picture unstable?",
    "When does the image become unstable?",
    "Is the footage not steady between 0:50 and 1:20?",
])
def test_an_unstable_picture_is_shake(question):
    assert parse_question(question, (), 180.0).type == "jitter"


def test_the_stability_of_the_quality_is_still_a_trend_question():
    assert parse_question("Is the quality unstable over the video?", (), 180.0).type is None


def test_how_long_the_picture_is_unstable(tmp_path):
    idx = make_index(180.0, [Event("jitter", 50.0, 77.0, 1.0, 2.4, "camera shake", {}),
                             Event("flicker", 130.0, 154.0, 0.5, 3.0, "luma", {})], fps=5.0)
    ans = ask(idx, "For how long is the picture unstable?",
              ("About 10 seconds", "About 25 seconds", "About 60 seconds"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("question,kind", [
    ("What is the resolution and frame rate of this video?", "facts"),
    ("How long is the video?", "facts"),
    ("Which codec is the clip encoded with?", "facts"),
    ("How many frames are in the video?", "facts"),
    ("How long is the video degraded?", "severity"),  # a quality question
    ("What is the length of the freeze?", "severity"),
    ("What is the frame rate during the choppy part?", "severity"),
])
def test_the_files_own_facts_are_a_kind_of_their_own(question, kind):
    assert question_kind(question) == kind


def test_facts_are_read_from_the_video_not_from_events(tmp_path):
    idx = make_index(180.0, [Event("blur", 40.0, 72.0, 1.0, 3.0, "softness", {})], fps=25.0)
    ans = ask(idx, "What is the resolution and frame rate of this video?", (), tmp_path)
    assert "640x360" in ans.answer and "25 fps" in ans.answer and "blur" not in ans.answer
    assert ask(idx, "What frame rate does the video have?", ("24 fps", "25 fps", "30 fps"),
               tmp_path).choice == "B"
    assert ask(idx, "What is the resolution?", ("1280x720", "640x360", "1920x1080"),
               tmp_path).choice == "B"
    assert ask(idx, "Which codec is used?", ("VP9", "H.264", "MPEG-2"), tmp_path).choice == "B"


def _interlace_and_sharpening():
    return make_index(180.0, [Event("interlace", 14.5, 35.0, 0.9, 3.0, "combing", {}),
                              Event("sharpening", 121.5, 136.5, 0.35, 3.0, "halo", {})],
                      fps=5.0)


def test_the_worst_part_is_one_stretch_not_the_halves(tmp_path):
    ans = ask(_interlace_and_sharpening(), "Where's the worst part of the video?", (), tmp_path)
    assert ans.answer.startswith("The worst moment is 00:00:14.5-00:00:35.0"), ans.answer


def test_the_first_and_the_last_minute_are_two_windows():
    q = parse_question("Compare the first and the last minute.", (), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 60.0), (120.0, 180.0)]


def test_whats_wrong_places_every_problem(tmp_path):
    ans = ask(_interlace_and_sharpening(), "What's wrong with this video?", (), tmp_path)
    assert "00:00:14.5" in ans.answer and "00:02:01.5" in ans.answer, ans.answer


@pytest.mark.parametrize("options,letter", [
    (("Half", "A sixth", "A third"), "B"),
    (("All of it", "Two thirds", "A tenth"), "C"),
])
def test_a_share_said_in_words(tmp_path, options, letter):
    idx = make_index(180.0, [Event("exposure", 44.5, 72.5, 0.34, 3.0, "too dark", {})],
                     fps=5.0)
    ans = ask(idx, "Roughly what fraction of the video is too dark?", options, tmp_path)
    assert ans.choice == letter, ans.answer


def test_more_than_two_separate_problems_counts_cofiring_detectors_once(tmp_path):
    idx = make_index(180.0, [Event("exposure", 22.0, 44.5, 0.48, 3.0, "too bright", {}),
                             Event("interlace", 111.0, 145.5, 1.0, 3.0, "combing", {}),
                             Event("noise", 111.0, 145.0, 0.35, 3.0, "impulse", {}),
                             Event("sharpening", 114.0, 144.5, 0.58, 3.0, "halo", {})],
                     fps=5.0)
    ans = ask(idx, "Are there more than two separate problems?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_which_lasts_longer_of_two_options(tmp_path):
    idx = make_index(180.0, [Event("colour", 37.0, 52.5, 1.0, 3.0, "desaturation", {}),
                             Event("frame_drop", 102.7, 129.5, 0.67, 3.0, "frame-rate drop",
                                   {})], fps=5.0)
    ans = ask(idx, "Which problem lasts longer?", ("The loss of colour", "The choppy motion"),
              tmp_path)
    assert ans.choice == "B", ans.answer


def _blocky_start():
    return make_index(180.0, [Event("compression", 10.5, 33.5, 0.37, 3.0, "macroblocking", {}),
                              Event("colour", 151.5, 171.5, 0.78, 3.0, "oversaturation", {})],
                      fps=5.0)


@pytest.mark.parametrize("question,letter", [
    ("Does the video start with good quality?", "B"),
    ("Is the quality good at the start?", "B"),
    ("Is the quality bad at the start?", "A"),
    ("Is the picture quality good between 1:10 and 1:40?", "A"),
    ("Does the clip end on a clean picture?", "B"),
])
def test_good_quality_in_a_window_asks_for_none(tmp_path, question, letter):
    assert ask(_blocky_start(), question, ("Yes", "No"), tmp_path).choice == letter


def test_a_video_starting_or_ending_with_names_its_edge():
    assert parse_question("Does the video begin cleanly?", (), 180.0).window.end_s == 18.0
    assert parse_question("Does the clip end on a clean picture?", (),
                          180.0).window.start_s == 162.0
    assert parse_question("When does the blur start?", (), 180.0).window is None


def test_do_all_the_freezes_last_as_long(tmp_path):
    idx = make_index(180.0, [Event("freeze", a, b, 0.8, 3.0, "frozen picture", {})
                             for a, b in ((39.4, 41.4), (77.2, 81.0), (160.7, 168.6))], fps=5.0)
    ans = ask(idx, "Do all the freezes have the same length?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B" and "2.0 s, 3.8 s, 7.9 s" in ans.answer, ans.answer


def test_seconds_between_two_types_over_bare_numbers(tmp_path):
    idx = make_index(180.0, [Event("colour", 23.5, 48.0, 0.35, 3.0, "oversaturation", {}),
                             Event("blur", 95.0, 127.0, 0.6, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "How many seconds after the colour problem ends does the blur start?",
              ("About 10", "About 47", "About 90"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_severe_is_answered_by_the_option_said_severe(tmp_path):
    # the blur's cuts put 0.60 at the lower edge of severe
    idx = make_index(180.0, [Event("blur", 46.0, 65.5, 0.60, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "How strong is the blur?",
              ("Barely visible", "Clearly visible", "Severe"), tmp_path)
    assert "severe" in ans.answer and ans.choice == "C", ans.answer


@pytest.mark.parametrize("question,options,letter", [
    ("Is the video HD?", ("Yes", "No"), "B"),  # 640x360
    ("Is this clip in standard definition?", ("Yes", "No"), "A"),
])
def test_a_picture_class_is_a_fact(tmp_path, question, options, letter):
    assert question_kind(question, list(options)) == "facts"
    ans = ask(make_index(180.0, [], fps=25.0), question, options, tmp_path)
    assert ans.choice == letter, ans.answer


@pytest.mark.parametrize("question", [
    "Welche Auflösung hat das Video?",
    "Quelle est la fréquence d'images de cette vidéo ?",
    "¿Cuál es la resolución del vídeo?",
    "视频的帧率是多少？",
])
def test_facts_asked_in_four_languages(tmp_path, question):
    ans = ask(make_index(180.0, [Event("blur", 40.0, 72.0, 1.0, 3.0, "softness", {})]),
              question, (), tmp_path)
    assert ans.answer.startswith("The video is 640x360 at 25 fps"), ans.answer


def test_same_length_worst_part_and_longer_in_other_languages(tmp_path):
    freezes = make_index(180.0, [Event("freeze", a, b, 0.8, 3.0, "frozen picture", {})
                                 for a, b in ((16.8, 18.8), (109.4, 113.4), (127.0, 135.0))],
                         fps=5.0)
    assert ask(freezes, "Sind alle Standbilder gleich lang?", ("Ja", "Nein"),
               tmp_path).choice == "B"
    worst = ask(_interlace_and_sharpening(), "视频中最糟糕的部分在哪里？", (), tmp_path)
    assert worst.answer.startswith("The worst moment is 00:00:14.5"), worst.answer
    idx = make_index(180.0, [Event("colour", 37.0, 52.5, 1.0, 3.0, "desaturation", {}),
                             Event("frame_drop", 102.7, 129.5, 0.67, 3.0, "frame-rate drop",
                                   {})], fps=5.0)
    longer = ask(idx, "Welches Problem dauert länger?",
                 ("Der Farbverlust", "Die ruckelnde Bewegung"), tmp_path)
    assert longer.choice == "B" and "26.8 s" in longer.answer, longer.answer
    start = ask(_blocky_start(), "La vidéo commence-t-elle avec une bonne qualité ?",
                ("Oui", "Non"), tmp_path)
    assert start.choice == "B", start.answer


def _shake_then_flicker():
    return make_index(180.0, [Event("flicker", 122.5, 143.8, 0.72, 3.0, "luma", {}),
                              Event("jitter", 16.6, 31.6, 0.81, 2.0, "camera shake", {})],
                      fps=5.0)


def test_the_first_problem_is_the_first_in_time(tmp_path):
    ans = ask(_shake_then_flicker(), "Describe the first problem.", (), tmp_path)
    assert ans.answer.startswith("Jitter"), ans.answer
    assert "02:02" not in ans.answer, ans.answer
    second = ask(_shake_then_flicker(), "What is the second problem?",
                 ("Camera shake", "Flicker", "Blur"), tmp_path)
    assert second.choice == "B", second.answer


def test_comes_and_goes_is_part_of_the_video(tmp_path):
    idx = make_index(180.0, [Event("blur", a, b, 0.8, 3.0, "softness", {})
                             for a, b in ((28.0, 60.0), (77.0, 102.0), (132.0, 147.0))], fps=5.0)
    ans = ask(idx, "Is the blur constant or does it come and go?",
              ("It is constant", "It comes and goes"), tmp_path)
    assert ans.choice == "B" and ans.answer.startswith("Only part of it"), ans.answer


def test_a_gap_in_minutes_over_bare_numbers(tmp_path):
    idx = make_index(1800.0, [Event("exposure", 701.0, 729.0, 0.77, 3.0, "too bright", {}),
                              Event("noise", 1364.5, 1388.5, 0.31, 3.0, "grain", {})], fps=2.0)
    ans = ask(idx, "What's the gap between the two problems, in minutes?",
              ("About 4", "About 11", "About 20"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("options,letter", [
    (("More severe", "Less severe", "The same"), "B"),
    (("Less severe", "More severe", "About the same"), "A"),
])
def test_more_or_less_severe_than_another_moment(tmp_path, options, letter):
    idx = make_index(180.0, [Event("noise", 16.0, 41.0, 0.55, 3.0, "grain", {}),
                             Event("sharpening", 102.0, 130.0, 0.41, 3.0, "halo", {})],
                     fps=5.0)
    q = "Is the degradation at 2:00 more or less severe than at 0:30?"
    assert question_kind(q, list(options)) == "comparison"
    assert ask(idx, q, options, tmp_path).choice == letter


@pytest.mark.parametrize("exposure,letter", [((135.0, 156.0), "B"), ((70.0, 95.0), "A")])
def test_one_defect_happening_during_another_is_an_overlap(tmp_path, exposure, letter):
    idx = make_index(180.0, [Event("flicker", 61.0, 86.0, 1.0, 3.0, "luma", {}),
                             Event("exposure", *exposure, 0.5, 3.0, "too bright", {})], fps=5.0)
    q = "Does the flicker happen during the exposure problem?"
    assert question_kind(q, ["Yes", "No"]) == "temporal_relation"
    assert ask(idx, q, ("Yes", "No"), tmp_path).choice == letter


def test_y_and_n_are_yes_and_no(tmp_path):
    ans = ask(_blocky_start(), "Any macroblocking?", ("Y", "N"), tmp_path)
    assert ans.choice == "A" and "guess" not in ans.answer, ans.answer
    assert ask(_blocky_start(), "Any flicker?", ("Y", "N"), tmp_path).choice == "B"


def test_ghosting_is_a_fault_without_a_measure():
    assert question_kind("Is there any ghosting?", ["Yes", "No"]) == "out_of_scope"
    assert question_kind("Any tearing or bitstream errors?", ["Yes", "No"]) == "detection"


def test_which_minute_over_ordinal_options(tmp_path):
    idx = make_index(180.0, [Event("exposure", 48.5, 66.0, 0.34, 3.0, "too dark", {}),
                             Event("frame_drop", 141.7, 164.5, 0.67, 3.0, "frame-rate drop",
                                   {})], fps=5.0)
    ans = ask(idx, "Which minute has the worst quality?", ("First", "Second", "Third"), tmp_path)
    assert ans.choice == "C", ans.answer


def test_how_much_of_the_video_in_seconds(tmp_path):
    idx = make_index(180.0, [Event("exposure", 110.0, 139.0, 0.3, 3.0, "too dark", {})], fps=5.0)
    ans = ask(idx, "How much of the video is too dark, in seconds?",
              ("About 10", "About 30", "About 60"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_an_open_answer_counts_cofiring_spans_once(tmp_path):
    idx = make_index(180.0, [Event("exposure", 18.0, 30.5, 0.84, 3.0, "low contrast", {}),
                             Event("exposure", 18.0, 30.5, 0.5, 3.0, "too bright", {})], fps=5.0)
    ans = ask(idx, "Describe what happens between 0:15 and 0:35.", (), tmp_path)
    assert "from 00:00:18.0 to 00:00:30.5." in ans.answer, ans.answer
    assert "1 degraded span(s) cover 12.5 s" in ans.answer, ans.answer


def test_common_words_are_not_reported_unknown(tmp_path):
    ans = ask(_blocky_start(), "Tell me everything that's wrong with the picture, with times.",
              (), tmp_path)
    assert "do not know" not in ans.answer, ans.answer


def test_a_french_inverted_question_is_french():
    from agent.language import read
    assert read("La caméra tremble-t-elle à un moment donné ?").code == "fr"
    assert question_kind("La caméra tremble-t-elle à un moment donné ?", ["Oui", "Non"]) == \
        "detection"


def test_chinese_counts_and_trends(tmp_path):
    idx = make_index(180.0, [Event("compression", 10.0, 22.5, 0.58, 3.0, "blocking", {}),
                             Event("exposure", 96.0, 126.0, 0.68, 3.0, "too bright", {})],
                     fps=5.0)
    assert ask(idx, "视频中有几个不同的问题？", ("一个", "两个", "三个"), tmp_path).choice == "B"
    fading = make_index(180.0, [Event("noise", a, b, s, 3.0, "grain", {}) for a, b, s in
                                ((23.0, 51.5, 0.89), (80.5, 114.0, 0.6), (155.0, 170.0, 0.3))],
                        fps=5.0)
    ans = ask(fading, "噪点是越来越多还是越来越少？", ("越来越多", "越来越少"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_comfort_options_are_grades_not_levels(tmp_path):
    from agent.options import parse_option
    assert parse_option("A", "Very comfortable", 180.0).level is None
    assert parse_option("A", "Very comfortable", 180.0).grade == 5.0
    assert parse_option("B", "Moderate", 180.0).level is not None  # a level word on its own
    idx = make_index(180.0, [Event("flicker", 132.6, 151.7, 1.0, 3.0, "luma", {})], fps=5.0)
    ans = ask(idx, "How comfortable is the flicker to watch?",
              ("Very comfortable", "Somewhat comfortable", "Uncomfortable"), tmp_path)
    assert ans.choice == "C", ans.answer


@pytest.mark.parametrize("question,kind", [
    ("Before we publish: any part with blocking?", "detection"),
    ("After uploading, is there any flicker?", "detection"),
    ("Does the blur come before the noise?", "temporal_relation"),
])
def test_the_users_own_steps_are_no_order_of_defects(question, kind):
    assert question_kind(question, ["Yes", "No"]) == kind


def test_open_answers_say_why_for_the_subtype_and_grade_the_whole(tmp_path):
    idx = make_index(180.0, [Event("noise", 135.4, 150.2, 0.41, 3.0, "impulse", {})], fps=5.0)
    ans = ask(idx, "Describe the distortion in the interval 2:15-2:30 and explain how it "
                   "affects the viewing experience.", (), tmp_path)
    assert "black and white pixels" in ans.answer, ans.answer
    whole = ask(idx, "Describe the overall picture quality of the video and how it develops "
                     "over time.", (), tmp_path)
    assert whole.answer.startswith("Overall quality is"), whole.answer
    assert "black and white pixels" in whole.answer, whole.answer


def test_a_statement_before_a_question_is_its_context():
    from agent.clauses import split_question
    whole = parse_question("Someone bumped the tripod. When did the picture shake?", (), 180.0)
    assert len(split_question(whole, (), 180.0)) == 1
    two = parse_question("When does it flicker? Is there any blockiness?", (), 180.0)
    assert len(split_question(two, (), 180.0)) == 2


@pytest.mark.parametrize("question,window", [
    ("Is there blur at 1 min 30?", (88.0, 92.0)),
    ("Is there blur at minute 1.5?", (88.0, 92.0)),
    ("Is there blur between 1 min 30 and 2 min?", (90.0, 120.0)),
    ("Is there blur after 2 minutes and 5 seconds?", (125.0, 180.0)),
])
def test_minutes_and_seconds_in_words(question, window):
    assert [(w.start_s, w.end_s) for w in parse_question(question, (), 180.0).windows] == \
        [window]


def test_frame_numbers_are_moments_at_the_videos_rate(tmp_path):
    from agent.time_phrases import frames_as_times
    assert frames_as_times("at frame 3000", 25.0) == "at 2:00.0"
    assert frames_as_times("between frames 250 and 500", 25.0) == "between 0:10.0 and 0:20.0"
    assert frames_as_times("in frames 250-500", 25.0) == "in from 0:10.0 to 0:20.0"
    assert frames_as_times("what is the frame rate?", 25.0) == "what is the frame rate?"
    idx = make_index(180.0, [Event("blur", 40.0, 72.0, 0.8, 3.0, "softness", {})], fps=5.0)
    assert ask(idx, "Is the picture blurry at frame 250?", ("Yes", "No"), tmp_path).choice == "A"
    assert ask(idx, "Is the picture blurry at frame 700?", ("Yes", "No"), tmp_path).choice == "B"


def test_is_the_blur_always_equally_strong(tmp_path):
    idx = make_index(180.0, [Event("blur", a, b, s, 3.0, "softness", {}) for a, b, s in
                             ((25.0, 40.5, 0.35), (87.0, 100.0, 0.56), (131.5, 155.5, 0.9))],
                     fps=5.0)
    ans = ask(idx, "Is the blur always equally strong?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B" and "not equally strong" in ans.answer, ans.answer


def test_horizontal_tearing_lines_on_moving_objects_are_combing():
    assert parse_question("Do you see horizontal tearing lines on moving objects?", (),
                          180.0).type == "interlace"


def test_two_problems_in_the_same_part(tmp_path):
    idx = make_index(180.0, [Event("blur", 21.5, 41.5, 0.56, 3.0, "softness", {}),
                             Event("exposure", 136.0, 151.5, 0.9, 3.0, "low contrast", {})],
                     fps=5.0)
    q = "Do the two problems occur in the same part of the video?"
    assert question_kind(q, ["Yes", "No"]) == "temporal_relation"
    assert ask(idx, q, ("Yes", "No"), tmp_path).choice == "B"


def test_list_ordered_by_severity_with_times(tmp_path):
    idx = make_index(180.0, [Event("sharpening", 30.0, 54.0, 0.51, 3.0, "halo", {}),
                             Event("compression", 111.5, 143.5, 0.57, 3.0, "blocking", {})],
                     fps=5.0)
    q = "List all distortions with start and end times, ordered by severity."
    assert question_kind(q) == "comparison"
    ans = ask(idx, q, (), tmp_path)
    assert ans.answer.startswith("Ranked, worst first: 1. compression"), ans.answer
    assert "00:01:51.5-00:02:23.5" in ans.answer, ans.answer


@pytest.mark.parametrize("events,letter", [([], "A"), (
    [Event("blur", 10.0, 100.0, 1.0, 3.0, "softness", {}),
     Event("noise", 100.0, 170.0, 0.9, 3.0, "grain", {})], "C")])  # fair: C
def test_school_grades_as_options(tmp_path, events, letter):
    idx = make_index(180.0, events, fps=5.0)
    ans = ask(idx, "Overall, how would you grade this clip: A, B, C or D?",
              ("A", "B", "C", "D"), tmp_path)
    assert ans.choice == letter, ans.answer
