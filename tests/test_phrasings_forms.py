"""Option and statement forms a session-26 probe found misread: options carrying their own
letters ("A. Yes"), yes options that each name a time ("Yes, around 2:00"), "the noise
lasts for approximately ...", statements that deny a distortion or place it in a part
("there is no interlacing", "it appears in the first minute"), and rating scales whose top is
the best end ("1 = very jerky, 5 = perfectly smooth"), the stretches of one type ranked,
each of two types in its own window, and a frame rate that "halves"."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.options import unlabelled
from tools.model import Event


@pytest.mark.parametrize("options,expected", [
    (["A. Yes", "B. No"], ["Yes", "No"]),
    (["(A) Blur", "(B) Noise"], ["Blur", "Noise"]),
    (["A) 0:10-0:30", "B) 0:43-1:08"], ["0:10-0:30", "0:43-1:08"]),
    (["a: yes", "b: no"], ["yes", "no"]),
    (["Corrupted blocks", "A clean picture", "A black screen"],
     ["Corrupted blocks", "A clean picture", "A black screen"]),  # no labels: as given
    (["B. Yes", "A. No"], ["B. Yes", "A. No"]),  # letters not their own
])
def test_option_letters_are_read_off(options, expected):
    assert unlabelled(options) == expected


def _blur():
    return make_index(180.0, [Event("blur", 43.5, 68.0, 0.8, 3.0, "softness", {})], fps=5.0)


def test_labelled_yes_is_a_yes(tmp_path):
    ans = ask(_blur(), "Is the picture blurry between 00:00:45 and 00:01:05?",
              ("A. Yes", "B. No"), tmp_path)
    assert ans.choice == "A" and "guess" not in ans.answer, ans.answer


def test_the_yes_at_the_event_time(tmp_path):
    idx = make_index(180.0, [Event("exposure", 112.4, 133.4, 0.4, 2.0, "too bright", {})],
                     fps=5.0)
    ans = ask(idx, "Does the video get brighter at some point?",
              ("Yes, around 0:50", "Yes, around 2:00", "No"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_lasts_for_approximately_picks_the_duration(tmp_path):
    idx = make_index(180.0, [Event("noise", 119.5, 135.5, 0.35, 2.0, "grain", {})], fps=5.0)
    ans = ask(idx, "The noise lasts for approximately",
              ("5 seconds", "16 seconds", "45 seconds"), tmp_path)
    assert ans.choice == "B", ans.answer


def _combing():
    return make_index(180.0, [Event("interlace", 14.5, 35.0, 0.4, 3.0, "combing", {})],
                      fps=5.0)


def test_a_statement_placing_it_in_a_part_and_one_denying_it(tmp_path):
    opts = ("Interlacing appears in the first minute", "Interlacing appears in the last minute",
            "There is no interlacing")
    ans = ask(_combing(), "Select the correct statement.", opts, tmp_path)
    assert ans.choice == "A", ans.answer
    clean = make_index(180.0, [Event("blur", 100.0, 130.0, 0.8, 3.0, "softness", {})], fps=5.0)
    assert ask(clean, "Select the correct statement.", opts, tmp_path).choice == "C"


def _rate_drop():
    return make_index(180.0, [Event("frame_drop", 31.0, 44.2, 0.8, 3.0, "frame-rate drop",
                                    {})], fps=5.0)


@pytest.mark.parametrize("question,low", [
    ("Rate the smoothness of motion from 0:30 to 0:45 (1 = very jerky, 5 = perfectly "
     "smooth).", True),
    ("On a scale of 1 to 5, where 5 is perfectly smooth, how choppy is the motion?", True),
    ("Rate the choppiness from 1 (none) to 5 (very heavy).", False),
    ("Rate the motion from 1 (very jerky) to 5 (perfectly smooth).", True),
    ("Rate the frame drops from 1 to 5.", False),
    ("Rate the choppiness from 1 (very little) to 5 (very strong).", False),
])
def test_a_scale_whose_top_is_the_best_end(tmp_path, question, low):
    ans = ask(_rate_drop(), question, ("1", "2", "3", "4", "5"), tmp_path)
    assert (ans.choice in "AB") == low, ans.answer


@pytest.mark.parametrize("question,low", [
    ("Rate the sharpness of the segment 0:40-1:10 on a scale of 1 (very blurry) to 5 (very "
     "sharp).", True),
    ("Rate the blur from 0:40 to 1:10 from 1 (very slight) to 5 (very heavy).", False),
])
def test_a_very_good_top_is_still_the_best_end(tmp_path, question, low):
    idx = make_index(180.0, [Event("blur", 40.0, 72.0, 1.0, 3.0, "softness", {})], fps=5.0)
    assert (ask(idx, question, ("1", "2", "3", "4", "5"), tmp_path).choice in "AB") == low


def test_mild_or_severe_of_a_moderate_one_near_the_severe_cut(tmp_path):
    # noise cuts (0.49, 0.87): 0.86 is moderate, next to severe
    idx = make_index(180.0, [Event("noise", 108.0, 146.0, 0.86, 4.0, "grain", {})], fps=5.0)
    assert ask(idx, "Is the noise mild or severe?", ("Mild", "Severe"), tmp_path).choice == "B"
    assert ask(idx, "How severe is the noise?", ("Mild", "Moderate", "Severe"),
               tmp_path).choice == "B"


@pytest.mark.parametrize("question,options,letter", [
    ("How many seconds of the video are degraded in total?",
     ("About 20", "About 50", "About 100"), "B"),
    ("How many minutes of the video are degraded in total?",
     ("About 1", "About 3", "About 5"), "A"),
])
def test_a_total_time_asked_in_a_unit_over_bare_numbers(tmp_path, question, options, letter):
    idx = make_index(180.0, [Event("blur", 35.5, 58.0, 0.3, 2.0, "softness", {}),
                             Event("flicker", 132.5, 160.4, 1.0, 5.0, "brightness oscillation",
                                   {})], fps=5.0)
    assert ask(idx, question, options, tmp_path).choice == letter


@pytest.mark.parametrize("question,letter", [
    ("Is the contrast problem worst at the start?", "A"),
    ("Is the contrast problem worst at the end?", "B"),
])
def test_worst_at_one_end(tmp_path, question, letter):
    idx = make_index(180.0, [Event("exposure", 24.0, 47.5, 0.85, 4.0, "low contrast", {}),
                             Event("exposure", 86.0, 112.0, 0.54, 3.0, "low contrast", {}),
                             Event("exposure", 145.0, 157.0, 0.45, 2.0, "low contrast", {})],
                     fps=5.0)
    assert ask(idx, question, ("Yes", "No"), tmp_path).choice == letter


def test_stay_the_same_is_a_known_phrase():
    from agent.questions import parse_question
    q = parse_question("Does the quality stay the same from the first half to the second "
                       "half?", ["Yes", "No"], 180.0)
    assert q.kind == "stability" and not q.unknown


@pytest.mark.parametrize("question,kind", [
    ("Does the brightness fluctuate rapidly anywhere?", "detection"),
    ("When does the brightness fluctuate?", "localization"),
    ("Does the quality fluctuate?", "stability"),
    ("Is the picture quality stable?", "stability"),
])
def test_fluctuate_said_of_the_brightness_is_flicker(question, kind):
    from agent.questions import parse_question
    q = parse_question(question, ["Yes", "No"] if question.startswith(("Does", "Is")) else [],
                       180.0)
    assert q.kind == kind


@pytest.mark.parametrize("question", [
    "哪个问题持续时间更长：模糊还是过饱和？",
    "Welches Problem dauert länger: Unschärfe oder Übersättigung?",
    "Quel problème dure plus longtemps : le flou ou la sursaturation ?",
    "¿Qué problema dura más: el desenfoque o la sobresaturación?",
    "What problem lasts longer: the blur or the oversaturation?",
])
def test_which_lasts_longer_in_five_languages(tmp_path, question):
    idx = make_index(180.0, [Event("colour", 23.5, 48.0, 0.9, 4.0, "oversaturation", {}),
                             Event("blur", 95.0, 127.0, 0.4, 2.0, "softness", {})], fps=5.0)
    ans = ask(idx, question, (), tmp_path)
    assert ans.answer.startswith("The blur lasts longer"), ans.answer


def test_the_stretches_of_one_type_ranked(tmp_path):
    idx = make_index(180.0, [Event("blur", 28.0, 60.0, 0.65, 3.0, "softness", {}),
                             Event("blur", 77.0, 102.0, 0.81, 3.0, "softness", {}),
                             Event("blur", 132.0, 147.0, 0.92, 3.0, "softness", {})], fps=5.0)
    mild = ask(idx, "Rank the three blurry segments from mildest to strongest.", (), tmp_path)
    assert "mildest first: 1. blur (softness) from 00:00:28.0" in mild.answer, mild.answer
    worst = ask(idx, "Rank the blurry segments from worst to mildest.", (), tmp_path)
    assert "worst first: 1. blur (softness) from 00:02:12.0" in worst.answer, worst.answer


@pytest.mark.parametrize("question,letter", [
    ("Is the blur in the first half and the contrast problem in the second half?", "A"),
    ("Is the blur in the second half and the contrast problem in the first half?", "B"),
])
def test_each_type_in_its_own_window(tmp_path, question, letter):
    idx = make_index(180.0, [Event("blur", 39.5, 72.5, 1.0, 5.0, "softness", {}),
                             Event("exposure", 129.5, 147.0, 0.52, 2.0, "low contrast", {})],
                     fps=5.0)
    ans = ask(idx, question, ("Yes", "No"), tmp_path)
    assert ans.choice == letter, ans.answer


@pytest.mark.parametrize("hold,letter", [(2, "A"), (3, "B"), (5, "C")])
def test_the_frame_rate_as_a_fraction(tmp_path, hold, letter):
    idx = make_index(180.0, [Event("frame_drop", 116.0, 129.5, 0.5, 2.0, "frame-rate drop",
                                   {"hold_frames": hold, "effective_fps": 25.0 / hold})],
                     fps=5.0)
    ans = ask(idx, "By how much does the frame rate drop?",
              ("It halves", "It drops to a third", "It drops to a fifth"), tmp_path)
    assert ans.choice == letter, ans.answer


def test_a_type_named_twice_keeps_its_own_window(tmp_path):
    # "colours ... oversaturated" names colour twice before its window: both words are the
    # first half's (the colour lies in the second half, so the claim fails)
    idx = make_index(180.0, [Event("colour", 120.0, 150.0, 0.8, 4.0, "oversaturation", {}),
                             Event("blur", 130.0, 160.0, 0.8, 4.0, "softness", {})], fps=5.0)
    ans = ask(idx, "Are the colours oversaturated in the first half and the picture blurry in "
              "the second half?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer
