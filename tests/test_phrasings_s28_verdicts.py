"""Phrasings the session-28 probes found misread (part 2): release verdicts, option words,
severity words, comparisons and other languages' picture words."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from tools.model import Event


def _noise_fading():
    return make_index(180.0, [Event("noise", 22.5, 51.0, 0.89, 3.0, "grain", {}),
                              Event("noise", 80.0, 114.0, 0.57, 3.0, "grain", {}),
                              Event("noise", 155.0, 170.0, 0.5, 3.0, "grain", {})], fps=5.0)


def _flicker_and_gamma():
    return make_index(180.0, [Event("flicker", 60.6, 85.8, 1.0, 3.0, "brightness oscillation",
                                    {}),
                              Event("exposure", 134.0, 156.0, 0.52, 3.0, "too bright", {})],
                      fps=5.0)


@pytest.mark.parametrize("question,options,choice", [
    ("Can I publish this as-is, or does it need fixing first?",
     ("publish as-is", "needs fixing"), "B"),
    ("Quick QC verdict for the whole clip: pass or fail?", ("pass", "fail"), "B"),
    ("Is this good enough to ship to the client?", ("yes, ship it", "no, it needs rework"),
     "B"),
    ("La vidéo est-elle prête à être diffusée telle quelle ?", ("oui", "non"), "B"),
    ("Est-ce que cette vidéo passe le contrôle qualité ?", ("oui", "non"), "B"),
    ("这个视频可以直接发布吗？", ("可以", "不可以"), "B"),
])
def test_release_verdicts_with_a_severe_defect(question, options, choice, tmp_path):
    ans = ask(_flicker_and_gamma(), question, options, tmp_path)
    assert ans.choice == choice, ans.answer


def test_release_verdict_on_a_clean_clip(tmp_path):
    idx = make_index(180.0, [], fps=5.0)
    ans = ask(idx, "Can I publish this as-is, or does it need fixing first?",
              ("publish as-is", "needs fixing"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_a_qc_summary_and_anything_to_flag_are_understood(tmp_path):
    from agent.questions import parse_question
    assert parse_question("Give me a short QC summary of this file.", (), 180.0).kind == "open"
    ans = ask(_flicker_and_gamma(), "Would you sign off on this clip for broadcast? Anything "
              "to flag?", (), tmp_path)
    assert "lag" not in ans.answer.split("flicker")[0] and "00:01:00.6" in ans.answer, ans.answer


@pytest.mark.parametrize("question,options,expected", [
    ("Grade the focus problem: A (clean), B (slight), C (noticeable), D (bad), F (unusable).",
     ("A", "B", "C", "D", "F"), ["clean", "slight", "noticeable", "bad", "unusable"]),
    ("Letter grade for the softness around 2:20 (A best, E worst)?", ("A", "B", "C", "D", "E"),
     ["excellent", "good", "fair", "poor", "bad"]),
    ("Overall grade for this clip, A to F.", ("A", "B", "C", "D", "F"),
     ["A", "B", "C", "D", "F"]),
])
def test_letters_take_the_words_the_question_gives_them(question, options, expected):
    from agent.options import lettered
    assert lettered(question, options) == expected


def test_a_focus_problem_is_blur():
    from agent.questions import parse_question
    assert parse_question("Grade the focus problem.", (), 180.0).type == "blur"


@pytest.mark.parametrize("question,options,choice", [
    ("Rate the noise: how bad is it?", ("barely noticeable", "noticeable but ok", "really bad"),
     "C"),
    ("Wie schlimm ist das Rauschen?", ("kaum sichtbar", "deutlich", "extrem"), "C"),
    ("How bad is the noise?", ("hardly visible", "clearly visible", "very bad"), "C"),
])
def test_severity_words_of_ones_own(question, options, choice, tmp_path):
    idx = make_index(180.0, [Event("noise", 99.0, 133.5, 0.95, 3.0, "grain", {})], fps=5.0)
    assert ask(idx, question, options, tmp_path).choice == choice


@pytest.mark.parametrize("question,options", [
    ("Wie oft bleibt das Bild stehen?", ("einmal", "zweimal", "dreimal", "gar nicht")),
    ("¿Cuántas veces se congela la imagen?", ("una vez", "dos veces", "tres veces", "nunca")),
    ("Combien de fois l'image se fige-t-elle ?", ("une fois", "deux fois", "trois fois",
                                                  "jamais")),
])
def test_counts_said_as_once_twice_thrice(question, options, tmp_path):
    idx = make_index(180.0, [Event("freeze", a, a + 3.0, 0.8, 3.0, "frozen picture", {})
                             for a in (40.0, 90.0, 140.0)], fps=5.0)
    assert ask(idx, question, options, tmp_path).choice == "C"


def test_breaking_up_into_blocks_is_compression():
    from agent.questions import parse_question
    q = parse_question("Between 0:30 and 0:50, does the image break up into blocks?", (), 180.0)
    assert q.type == "compression"


def test_the_stutter_or_low_frame_rate_takes_the_one_found(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 141.7, 164.5, 0.67, 3.0, "frame-rate drop",
                                   {})], fps=5.0)
    ans = ask(idx, "How long (in seconds) does the stutter / low frame rate last?", (), tmp_path)
    assert "22.8 s" in ans.answer, ans.answer


def test_drained_or_greyish_colours_between_two_times(tmp_path):
    idx = make_index(180.0, [Event("colour", 98.0, 131.0, 0.52, 3.0, "desaturation", {})],
                     fps=5.0)
    ans = ask(idx, "Between 1:40 and 2:10 do the colours look drained / greyish?", (), tmp_path)
    assert ans.answer.startswith("Yes"), ans.answer


def test_stable_or_wobbly_in_a_window_is_the_shake(tmp_path):
    idx = make_index(180.0, [Event("jitter", 16.6, 31.6, 0.81, 3.0, "camera shake", {})],
                     fps=5.0)
    q = "Between 0:15 and 0:35 is the footage stable or does the camera wobble?"
    assert ask(idx, q, ("stable", "wobbly"), tmp_path).choice == "B"
    q2 = "Between 1:15 and 1:35 is the footage stable or does the camera wobble?"
    assert ask(idx, q2, ("stable", "wobbly"), tmp_path).choice == "A"


def test_options_repeating_the_questions_window_claim_which_way(tmp_path):
    idx = make_index(180.0, [Event("blur", 95.0, 127.0, 1.0, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "Is the segment 1:40-2:00 sharper or softer than 0:30-0:45?",
              ("1:40-2:00 is softer", "1:40-2:00 is sharper", "no difference"), tmp_path)
    assert ans.choice == "A", ans.answer
    ans = ask(idx, "Is the second half better than the first half?",
              ("yes, second half is better", "no, second half is worse"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_two_moments_joined_by_and_are_two_moments():
    from agent.questions import parse_question
    q = parse_question("Compare 0:50 and 2:20: which is worse?", (), 180.0)
    assert [(w.start_s, w.end_s, w.point) for w in q.windows] == [(48.0, 52.0, True),
                                                                  (138.0, 142.0, True)]
    assert [(w.start_s, w.end_s) for w in parse_question(
        "Is there blur between 0:50 and 2:20?", (), 180.0).windows] == [(50.0, 140.0)]


def test_chinese_points_of_a_score_are_no_minutes():
    from agent.questions import parse_question
    q = parse_question("用1到5分给噪点的严重程度打分（5分最严重）。", ("1", "2", "3", "4", "5"),
                       180.0)
    assert q.windows == [] and q.type == "noise"


def test_chinese_first_and_last_thirty_seconds():
    from agent.questions import parse_question
    q = parse_question("开头30秒和结尾30秒，哪一段画质更差？", ("开头30秒", "结尾30秒", "一样"),
                       180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 30.0), (150.0, 180.0)]


def test_german_between_which_times_is_when():
    from agent.questions import parse_question
    q = parse_question("Im Clip wirkt die Helligkeit irgendwann falsch (Gamma). Zwischen welchen "
                       "Zeitpunkten?", ("0:49-1:11", "1:36-2:01", "2:30-3:00", "nirgends"), 180.0)
    assert q.kind == "localization"


@pytest.mark.parametrize("question,options", [
    ("Does the noise appear in the first or in the second half?",
     ("first half", "second half", "there is no noise")),
    ("¿El ruido aparece en la primera o en la segunda mitad del programa?",
     ("primera mitad", "segunda mitad", "no hay ruido")),
])
def test_which_of_the_halves_offered(question, options, tmp_path):
    idx = make_index(1800.0, [Event("noise", 1364.5, 1388.5, 0.31, 3.0, "grain", {})], fps=1.0)
    assert ask(idx, question, options, tmp_path).choice == "B"


def test_a_named_defects_drops_stepping_milder_say_it_gets_better(tmp_path):
    idx = make_index(180.0, [Event("corruption", 67.2, 75.0, 0.98, 3.0, "decoder errors", {}),
                             Event("corruption", 139.6, 150.0, 0.6, 3.0, "decoder errors", {})],
                     fps=5.0)
    ans = ask(idx, "Is the corruption getting worse or better over the course of the clip?",
              ("getting worse", "getting better", "stays the same"), tmp_path)
    assert ans.choice == "B" and "fading" in ans.answer, ans.answer


@pytest.mark.parametrize("question,options", [
    ("There's a colour cast somewhere in the middle - is it before or after the 1-minute "
     "mark?", ("before 1:00", "after 1:00", "no colour cast")),
    ("Is the colour cast before or after 1:00?", ("before", "after")),
])
def test_a_defect_across_an_instant_lies_mostly_on_one_side(question, options, tmp_path):
    idx = make_index(180.0, [Event("colour", 47.0, 65.0, 0.32, 3.0, "colour cast", {})],
                     fps=5.0)
    ans = ask(idx, question, options, tmp_path)
    assert ans.choice == "A", ans.answer


def test_a_window_clean_but_for_an_events_edge_says_so(tmp_path):
    idx = make_index(180.0, [Event("compression", 116.0, 146.0, 0.6, 3.0, "macroblocking", {})],
                     fps=5.0)
    ans = ask(idx, "any macroblocking artifacts in the 2nd minute?", (), tmp_path)
    assert ans.answer.startswith("No") and "Only 4.0 s of a 30.0-s stretch" in ans.answer, \
        ans.answer


def test_the_worst_problem_rated_on_the_scale_asked(tmp_path):
    idx = make_index(180.0, [Event("noise", 108.5, 146.0, 0.95, 3.0, "grain", {})], fps=5.0)
    ans = ask(idx, "Noise severity on a 0-10 scale during its worst stretch?", (), tmp_path)
    assert "On the 0-10 scale asked for: 10 (severe)" in ans.answer, ans.answer


def test_compared_moments_say_what_is_there_and_why(tmp_path):
    idx = make_index(180.0, [Event("blur", 39.0, 69.0, 0.8, 3.0, "softness", {}),
                             Event("exposure", 133.0, 153.0, 0.4, 3.0, "low contrast", {})],
                     fps=5.0)
    ans = ask(idx, "Compare 0:50 and 2:20: which frame would a viewer consider worse, and why?",
              (), tmp_path)
    assert "00:00:48.0-00:00:52.0: blur" in ans.answer and "exposure problems" in ans.answer
    assert "Blur: fine detail" in ans.answer, ans.answer


def test_ranked_from_the_mildest_up_to_the_worst(tmp_path):
    idx = make_index(180.0, [Event("blur", 39.0, 69.0, 1.0, 3.0, "softness", {}),
                             Event("noise", 100.0, 120.0, 0.5, 3.0, "grain", {})], fps=5.0)
    ans = ask(idx, "Rank the problems, going up to the worst.", (), tmp_path)
    assert ans.answer.index("noise") < ans.answer.index("blur"), ans.answer
