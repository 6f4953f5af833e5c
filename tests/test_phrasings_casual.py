"""Casual phrasings from the last session-26 probe: "does the contrast drop or the sharpness
drop first?" (a virtue as an option), "blockiness then blur, or blur then blockiness?", and
"does the blur keep getting worse?"."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.kinds import question_kind
from tools.model import Event


def _blur_then_contrast():
    return make_index(180.0, [Event("blur", 39.5, 69.5, 0.55, 3.0, "softness", {}),
                              Event("exposure", 133.5, 153.5, 0.55, 3.0, "low contrast", {})],
                      fps=5.0)


@pytest.mark.parametrize("options,letter", [(("contrast", "sharpness"), "B"),
                                            (("sharpness", "contrast"), "A")])
def test_which_drops_first_with_a_virtue_option(tmp_path, options, letter):
    q = "does the contrast drop or the sharpness drop first?"
    assert question_kind(q, list(options)) == "temporal_relation"
    ans = ask(_blur_then_contrast(), q, options, tmp_path)
    assert ans.choice == letter, ans.answer


def test_then_or_then_is_an_order(tmp_path):
    q = "blur then low contrast, or low contrast then blur?"
    assert question_kind(q, ["blur then low contrast", "low contrast then blur"]) == \
        "temporal_relation"
    ans = ask(_blur_then_contrast(), q, ("blur then low contrast", "low contrast then blur"),
              tmp_path)
    assert "The blur comes first" in ans.answer, ans.answer


def test_keep_getting_worse_reads_the_drops_in_turn(tmp_path):
    idx = make_index(180.0, [Event("blur", a, b, s, 3.0, "softness", {}) for a, b, s in
                             [(25.0, 40.5, 0.351), (87.0, 100.0, 0.565), (131.5, 155.5, 0.564)]],
                     fps=5.0)
    ans = ask(idx, "does the blur keep getting worse?", ("yes", "no"), tmp_path)
    assert ans.choice == "A", ans.answer


@pytest.mark.parametrize("question,etype", [
    ("Does the picture turn grey?", "colour"),
    ("Is there a haze over the image at some point?", "blur"),
    ("Does the frame judder from side to side?", "jitter"),
])
def test_looks_described_in_passing(question, etype):
    from agent.distortions import distortions
    assert [m.type for m in distortions(question)] == [etype]


def test_smeary_and_blocky_holds_for_the_coders_softness(tmp_path):
    e = Event("compression", 46.0, 65.5, 0.6, 1.9, "macroblocking",
              {"signal": "detail", "median_in_event": 0.35, "scene_baseline": 0.65,
               "deviation": 0.6, "recoded_from": "blur/softness"})
    ans = ask(make_index(180.0, [e], fps=5.0),
              "Does the video look smeary and blocky in the first minute?", ("Yes", "No"),
              tmp_path)
    assert ans.choice == "A", ans.answer


def _dark_and_noise():
    return make_index(180.0, [Event("exposure", 13.5, 46.5, 0.3, 2.0, "too dark", {}),
                              Event("noise", 141.0, 169.0, 0.86, 4.0, "grain", {})], fps=5.0)


@pytest.mark.parametrize("question,letter", [
    ("Is the darkness more of a problem than the noise?", "B"),
    ("Is the noise more of a problem than the darkness?", "A"),
    ("Is the darkness as strong as the noise?", "B"),
    ("Is the noise the same strength throughout?", "B"),
])
def test_more_of_a_problem_as_strong_as_and_same_strength(tmp_path, question, letter):
    ans = ask(_dark_and_noise(), question, ("Yes", "No"), tmp_path)
    assert ans.choice == letter, ans.answer


def test_time_before_the_first_problem(tmp_path):
    idx = make_index(180.0, [Event("colour", 23.5, 48.0, 0.35, 2.0, "oversaturation", {}),
                             Event("blur", 95.0, 127.0, 1.0, 5.0, "softness", {})], fps=5.0)
    ans = ask(idx, "How many seconds pass before the first problem appears?",
              ("About 10", "About 23", "About 60"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("sev,letter", [(0.3, "A"), (1.0, "B")])
def test_ok_to_publish_is_judged_by_the_grade(tmp_path, sev, letter):
    idx = make_index(180.0, [Event("noise", 11.5, 37.0 if sev < 0.5 else 170.0, sev, 2.0,
                                   "grain", {})], fps=5.0)
    ans = ask(idx, "Is the video OK to publish as is?", ("Yes", "No"), tmp_path)
    assert ans.choice == letter and "Overall quality" in ans.answer, ans.answer
