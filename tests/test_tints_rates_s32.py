"""Session 32 (an independent round of questions on videos its helper made with ffmpeg): the
colour a cast pushes toward, the rate a choppy stretch leaves, a quality that "starts to
drop", and drops to black asked about."""

from __future__ import annotations

import numpy as np
import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.kinds import question_kind, unrecognised
from tools.detectors.tint import hue_name, named_tints
from tools.model import Event


def _samples(vec_in: tuple[float, float], vec_out: tuple[float, float]) -> dict:
    t = np.arange(0, 180, 0.5)
    inside = (t >= 60) & (t < 90)
    hx = np.where(inside, vec_in[0], vec_out[0])
    hy = np.where(inside, vec_in[1], vec_out[1])
    return {"t": t, "hue_x": hx, "hue_y": hy}


@pytest.mark.parametrize("vec_in,subtype,tint", [
    ((0.30, 0.20), "hue shift", "red"),          # a cast adding red (Lab a+, some b+)
    ((0.35, 0.67), "oversaturation", "orange"),  # colorbalance warm on warm footage
    ((0.04, -0.30), "hue shift", "blue"),        # a cool cast (Lab b-)
    ((-0.20, 0.25), "hue shift", "green"),
])
def test_a_colour_event_names_the_colour_it_pushes_toward(vec_in, subtype, tint):
    ev = Event("colour", 60.0, 90.0, 0.6, 2.0, subtype, {})
    (out,) = named_tints([ev], _samples(vec_in, (0.04, 0.06)))
    assert out.evidence["tint"] == tint


def test_washed_out_colour_and_other_types_name_no_tint():
    events = [Event("colour", 60.0, 90.0, 0.6, 2.0, "desaturation", {}),
              Event("blur", 60.0, 90.0, 0.6, 2.0, "softness", {})]
    out = named_tints(events, _samples((0.0, 0.0), (0.04, 0.06)))
    assert all("tint" not in e.evidence for e in out)
    assert hue_name(359.0) == "magenta" and hue_name(100.0) == "yellow"


@pytest.mark.parametrize("tint,options,choice", [
    ("red", ("red", "green", "blue", "no tint"), "A"),
    ("orange", ("a blue cast", "a warm, orange cast", "no cast"), "B"),
    (None, ("red", "green", "blue", "no tint"), "D"),
])
def test_what_colour_is_the_tint(tint, options, choice, tmp_path):
    events = [Event("colour", 120.0, 145.0, 0.5, 2.0, "hue shift",
                    {"signal": "hue", "tint": tint})] if tint else []
    idx = make_index(180.0, events + [Event("blur", 20.0, 40.0, 0.6, 2.0, "softness", {})])
    ans = ask(idx, "What colour is the tint between 2:00 and 2:25?", options, tmp_path)
    assert ans.choice == choice, ans.answer
    if tint:
        assert f"toward {tint}" in ans.answer, ans.answer


@pytest.mark.parametrize("question,kind", [
    ("In the choppy part, roughly how many distinct frames per second are there?", "severity"),
    ("What frame rate does the stuttering section drop to?", "severity"),
    ("What is the frame rate of this video?", "facts"),
    ("How many times does the video stutter?", "cumulative_effect"),
])
def test_a_rate_asked_of_a_choppy_stretch_is_its_level_not_a_count(question, kind):
    assert question_kind(question) == kind


@pytest.mark.parametrize("question", [
    "At what time does the picture quality first start to drop?",
    "When does the picture quality start to go down?",
])
def test_quality_that_starts_to_drop_is_a_quality_problem(question):
    assert unrecognised(question) == []
    assert question_kind(question) == "localization"


def test_a_drop_to_black_is_found_by_black_frame_words_and_not_by_a_dark_stretch(tmp_path):
    black = Event("exposure", 40.1, 42.1, 1.0, 2.0, "black frames", {"signal": "luma",
                                                                      "frames": 40})
    dark = Event("exposure", 100.0, 130.0, 0.6, 2.0, "too dark", {})
    idx = make_index(180.0, [black, dark])
    ans = ask(idx, "When does the screen go black?", (), tmp_path)
    assert "00:00:40" in ans.answer and "00:01:40" not in ans.answer, ans.answer
    idx = make_index(180.0, [dark])
    ans = ask(idx, "Are there any black frames?", ("yes", "no"), tmp_path)
    assert ans.choice == "B", ans.answer
