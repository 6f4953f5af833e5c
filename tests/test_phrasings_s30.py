"""Phrasings the session-30 probe round misread: "this sequence" (the footage, not an order),
a distortion that increases "over the course of" the video, German compounds and a split
"was stimmt ... nicht", Italian told from the supported languages, and a washed-out stretch
the twins measured beside a hue turn."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.language import detect, read
from tools.model import Event


def _noise(sevs: tuple[float, ...]) -> object:
    spans = ((23.0, 51.5), (80.5, 114.5), (155.5, 170.0))
    return make_index(180.0, [Event("noise", a, b, s, 2.0, "grain", {})
                              for (a, b), s in zip(spans, sevs, strict=True)])


def test_acceptable_for_distribution_is_a_release_verdict_not_an_order(tmp_path):
    idx = make_index(180.0, [Event("noise", 108.5, 146.0, 0.86, 3.0, "grain", {})])
    ans = ask(idx, "Is this sequence acceptable for distribution without remediation?",
              ("yes", "no"), tmp_path)
    assert ans.choice == "B", ans.answer
    clean = make_index(180.0, [])
    assert ask(clean, "Is this sequence acceptable for distribution without remediation?",
               ("yes", "no"), tmp_path).choice == "A"


@pytest.mark.parametrize("question,sevs,choice", [
    ("Does the noise level increase over the course of the sequence?", (0.89, 0.82, 0.72), "B"),
    ("Does the noise level increase over the course of the sequence?", (0.5, 0.7, 0.9), "A"),
    ("Does the noise severity increase over the course of the clip?", (0.5, 0.7, 0.9), "A"),
    ("Does the noise fade over the course of the video?", (0.89, 0.82, 0.72), "A"),
])
def test_a_distortion_growing_over_the_course_of_the_video_is_a_trend(question, sevs, choice,
                                                                      tmp_path):
    ans = ask(_noise(sevs), question, ("yes", "no"), tmp_path)
    assert ans.choice == choice, ans.answer
    assert "over the video" in ans.answer, ans.answer  # a trend's answer, not "is present"


def test_the_sequence_of_events_is_still_an_order(tmp_path):
    idx = make_index(180.0, [Event("blur", 20.0, 40.0, 0.7, 2.0, "softness", {}),
                             Event("noise", 100.0, 120.0, 0.7, 2.0, "grain", {})])
    ans = ask(idx, "In what sequence do the blur and the noise appear?",
              ("blur, then noise", "noise, then blur"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_german_compound_problem_words_and_a_split_verb(tmp_path):
    idx = make_index(180.0, [Event("exposure", 131.5, 138.5, 1.0, 3.0, "too bright", {})])
    ans = ask(idx, "Gibt es zwischen 2:10 und 2:20 ein Helligkeitsproblem?", ("ja", "nein"),
              tmp_path)
    assert ans.choice == "A" and "do not know" not in ans.answer, ans.answer
    ans = ask(idx, "Was stimmt mit diesem Video nicht?", (), tmp_path)
    assert "do not know" not in ans.answer and "exposure" in ans.answer, ans.answer


@pytest.mark.parametrize("question", ["Quando compare la sfocatura?",
                                      "C'è rumore in questo video?",
                                      "Onde começa a desfocagem?"])
def test_italian_and_portuguese_are_told_apart_from_the_supported_languages(question):
    assert detect(question) in ("it", "pt"), question
    assert not read(question).supported


def test_a_washed_out_stretch_measured_beside_a_hue_turn_answers_a_saturation_question(
        tmp_path):
    """The weak mean chroma of a desaturated cockatoo turned 38 degrees: the shot's detector
    named a hue shift, and the twins measured the saturation fall there too."""
    hue = Event("colour", 116.0, 124.0, 0.45, 1.0, "hue shift",
                {"twin_backed": True, "also_measured": ["desaturation"]})
    ans = ask(make_index(180.0, [hue]), "Do the colours look washed out anywhere between "
              "1:50 and 2:10?", ("Yes", "No"), tmp_path)
    assert ans.choice == "A", ans.answer
    alone = Event("colour", 116.0, 124.0, 0.45, 1.0, "hue shift", {})
    ans = ask(make_index(180.0, [alone]), "Do the colours look washed out anywhere between "
              "1:50 and 2:10?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer
