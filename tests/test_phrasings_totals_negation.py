"""Benchmark-style questions a second probe on the ffmpeg track found misread (session 24): a
1-5 rating over options "1".."5", "which does NOT appear?", "what percentage of the video is
degraded?", "which lasts longer, A or B?" and "how long until the next problem?"."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import parse_question
from tools.model import Event


def _blur_then_bright():
    return make_index(180.0, [Event("blur", 43.5, 68.0, 0.84, 5.0, "softness", {}),
                              Event("exposure", 112.4, 133.4, 0.4, 2.0, "too bright", {})])


def test_a_rating_over_number_options_picks_the_grade_said(tmp_path):
    ans = ask(_blur_then_bright(), "On a scale of 1-5, how would you rate the overall visual "
              "quality?", ("1", "2", "3", "4", "5"), tmp_path)
    said = ans.answer.split(" on a 1-5 scale")[0].split("(")[-1]
    assert ans.choice == "ABCDE"[int(round(float(said))) - 1], ans.answer
    assert "is a guess" not in ans.answer


@pytest.mark.parametrize("question", [
    "Which of the following distortions does NOT appear in the video?",
    "Which distortion is absent from this clip?",
    "Which of these problems doesn't occur?",
])
def test_which_does_not_appear_picks_the_type_not_found(tmp_path, question):
    ans = ask(_blur_then_bright(), question, ("Blur", "Overexposure", "Noise"), tmp_path)
    assert ans.choice == "C", ans.answer


@pytest.mark.parametrize("question", [
    "What percentage of the video is degraded?",
    "Roughly what share of the video has quality issues?",
    "How much of the clip shows problems?",
])
def test_the_share_degraded_picks_the_nearest_percentage(tmp_path, question):
    ans = ask(_blur_then_bright(), question, ("About 10%", "About 25%", "About 50%",
                                              "About 75%"), tmp_path)
    assert ans.choice == "B", ans.answer  # 45.5 s of 180 s


def test_which_lasts_longer_compares_plain_time(tmp_path):
    idx = make_index(180.0, [Event("blur", 40.0, 50.0, 0.9, 5.0, "softness", {}),
                             Event("exposure", 100.0, 130.0, 0.35, 2.0, "too bright", {})])
    ans = ask(idx, "Which distortion lasts longer, the blur or the overexposure?",
              ("The blur", "The overexposure"), tmp_path)
    assert ans.choice == "B", ans.answer  # the milder one, three times as long


@pytest.mark.parametrize("question", [
    "After the blur ends, how long until the next problem starts?",
    "How long after the blur ends does the next problem begin?",
])
def test_how_long_until_the_next_problem(tmp_path, question):
    ans = ask(_blur_then_bright(), question, ("About 10 s", "About 45 s", "About 90 s"),
              tmp_path)
    assert ans.choice == "B" and "44.4 s later" in ans.answer, ans.answer


@pytest.mark.parametrize(("question", "options"), [
    ("Welche Störung tritt NICHT auf?", ("Unschärfe", "Überbelichtung", "Rauschen")),
    ("Quelle dégradation n'apparaît pas dans la vidéo ?", ("Flou", "Surexposition", "Bruit")),
    ("¿Qué distorsión NO aparece en el vídeo?", ("Desenfoque", "Sobreexposición", "Ruido")),
    ("视频中没有出现哪种失真？", ("模糊", "过曝", "噪声")),
])
def test_which_does_not_appear_in_other_languages(tmp_path, question, options):
    ans = ask(_blur_then_bright(), question, options, tmp_path)
    assert ans.choice == "C" and "(" + options[2] + ": noise)" in ans.answer, ans.answer


def _far_apart():
    return make_index(180.0, [Event("exposure", 44.5, 72.5, 0.34, 2.0, "low contrast", {}),
                              Event("flicker", 149.2, 162.0, 0.95, 6.0,
                                    "brightness oscillation", {})])


def test_close_together_or_far_apart(tmp_path):
    question = "Do the two distortions occur close together or far apart?"
    ans = ask(_far_apart(), question, ("Close together", "Far apart", "They overlap"),
              tmp_path)
    assert ans.choice == "B", ans.answer


def test_acceptable_over_all_segments_is_the_overall_grade(tmp_path):
    ans = ask(_far_apart(), "Considering all segments, is the video acceptable for viewing?",
              ("Yes", "No"), tmp_path)
    assert ans.choice == "A" and "Overall quality is" in ans.answer, ans.answer


def test_the_effective_frame_rate_picks_the_nearest_fps(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 102.7, 129.5, 0.67, 4.0, "frame-rate drop",
                                   {"hold_frames": 3, "effective_fps": 8.0})])
    ans = ask(idx, "What is the effective frame rate during the choppy part?",
              ("About 4 fps", "About 8 fps", "About 25 fps"), tmp_path)
    assert ans.choice == "B" and "about 8 frames per second" in ans.answer, ans.answer


@pytest.mark.parametrize(("options", "levels"), [
    (("A little", "Most of it", "All of it"), [1.0, 3.0, 3.6]),
    (("A bit", "Quite a lot", "Entirely"), [1.0, 2.5, 3.6]),
    (("All of them", "None"), [None, 0.0]),
])
def test_amount_words_are_levels(options, levels):
    q = parse_question("How much colour is lost between 0:37 and 0:52?", options, 180.0)
    assert [o.level for o in q.options] == levels


def _blocks_then_noise():
    return make_index(180.0, [Event("compression", 37.0, 57.0, 0.64, 4.0, "blocking", {}),
                              Event("noise", 119.5, 135.5, 0.35, 2.0, "grain", {})])


@pytest.mark.parametrize(("question", "options", "choice"), [
    ("块效应比噪声更严重吗？", ("是", "否"), "A"),
    ("噪声比块效应更严重吗？", ("是", "否"), "B"),
    ("视频的整体质量如何？", ("很好", "好", "一般", "差"), "B"),
    ("Welcher Abschnitt ist stärker gestört: 0:37-0:57 oder 1:59-2:15?",
     ("0:37-0:57", "1:59-2:15"), "A"),
])
def test_chinese_and_german_comparisons(tmp_path, question, options, choice):
    q = parse_question(question, options, 180.0)
    assert q.unknown == [], q.unknown
    ans = ask(_blocks_then_noise(), question, options, tmp_path)
    assert ans.choice == choice, ans.answer


def test_a_proportion_in_chinese_is_no_comparison():
    q = parse_question("视频中噪声所占的比例是多少？", ("10%", "25%", "50%"), 180.0)
    assert (q.kind, q.type) == ("cumulative_effect", "noise")


def _blocks_then_heavier_noise():
    return make_index(180.0, [Event("compression", 48.5, 74.0, 0.45, 4.0, "blocking", {}),
                              Event("noise", 99.0, 133.5, 0.9, 6.0, "grain", {})])


@pytest.mark.parametrize(("question", "choice"), [
    ("Which of the two degraded segments is worse?", "B"),
    ("Which of the two problems is milder?", "A"),
])
def test_the_first_or_second_of_the_stretches_found(tmp_path, question, choice):
    ans = ask(_blocks_then_heavier_noise(), question, ("The first one", "The second one"),
              tmp_path)
    assert ans.choice == choice, ans.answer


def test_how_many_seconds_separate_the_two_problems(tmp_path):
    question = "How many seconds separate the two problems?"
    assert parse_question(question, (), 180.0).kind == "temporal_relation"
    ans = ask(_blocks_then_heavier_noise(), question,
              ("About 10 s", "About 25 s", "About 60 s"), tmp_path)
    assert ans.choice == "B" and "00:00:25.0 apart" in ans.answer, ans.answer


def _blur_then_dark():
    return make_index(180.0, [Event("blur", 46.5, 64.5, 0.41, 3.0, "softness", {}),
                              Event("exposure", 97.5, 118.5, 0.3, 2.0, "too dark", {})])


@pytest.mark.parametrize(("question", "choice"), [
    ("Is the second problem worse than the first?", "B"),
    ("Is the first problem worse than the second?", "A"),
    ("Is the second issue milder than the first?", "A"),
])
def test_problems_ranked_by_their_order(tmp_path, question, choice):
    ans = ask(_blur_then_dark(), question, ("Yes", "No"), tmp_path)
    assert ans.choice == choice, ans.answer


def test_how_long_after_one_defect_the_other_starts(tmp_path):
    question = "How long after the blur does the image get darker?"
    assert parse_question(question, (), 180.0).kind == "temporal_relation"
    ans = ask(_blur_then_dark(), question, ("About 10 s", "About 30 s", "About 60 s"), tmp_path)
    assert ans.choice == "B" and "00:00:33.0 after the blur ends" in ans.answer, ans.answer


def test_is_it_before_the_halfway_point(tmp_path):
    idx = make_index(1800.0, [Event("blur", 327.0, 361.5, 0.58, 3.0, "softness", {}),
                              Event("colour", 1218.5, 1244.0, 0.37, 2.0, "hue shift", {})])
    ans = ask(idx, "Is the blur before the halfway point?", ("Yes", "No"), tmp_path)
    assert ans.choice == "A" and ans.answer.startswith("Yes."), ans.answer
    ans = ask(idx, "Is the colour shift before the halfway point?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer


def _colour_then_blur():
    return make_index(180.0, [Event("colour", 69.0, 83.5, 0.31, 2.0, "hue shift", {}),
                              Event("blur", 130.5, 156.5, 0.66, 5.0, "softness", {})])


def test_which_is_longer_over_options_naming_types(tmp_path):
    ans = ask(_colour_then_blur(), "Which is longer, the colour shift or the blur?",
              ("The colour shift", "The blur"), tmp_path)
    assert ans.choice == "B" and "lasts longer" in ans.answer, ans.answer
    ans = ask(_colour_then_blur(), "Which is shorter, the colour shift or the blur?",
              ("The colour shift", "The blur"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_how_many_seconds_over_bare_numbers(tmp_path):
    ans = ask(_colour_then_blur(), "How many seconds does the blur last?",
              ("About 10", "About 27", "About 60"), tmp_path)
    assert ans.choice == "B" and "26.0 s" in ans.answer, ans.answer
