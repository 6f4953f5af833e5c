"""Phrasings a probe of fresh questions on the ffmpeg track found misread (session 24): "does
the contrast recover?" claims the picture improves, "a timeline of the problems" asks for
them in order, and "the image stays still" is a frozen picture."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import parse_question
from agent.trends import trend_claim
from tools.model import Event


@pytest.mark.parametrize("question", [
    "Does the contrast recover over time?",
    "Does the picture recover later?",
    "Does the image go back to normal over time?",
    "Does the sharpness bounce back as the video goes on?",
])
def test_recovering_is_an_improving_trend(question):
    q = parse_question(question, ["Yes", "No"], 180.0)
    assert (q.kind, q.claim, q.unknown) == ("trend", "improving", [])


def test_recovery_is_read_as_the_picture_improving_not_the_distortion_growing():
    assert trend_claim("does the contrast recover over time?", named=True) == "improving"
    assert trend_claim("does the contrast get worse over time?", named=True) == "degrading"


def _fading_contrast():
    return make_index(180.0, [
        Event("exposure", 32.0, 53.0, 0.8, 5.0, "low contrast", {}),
        Event("exposure", 82.0, 111.0, 0.5, 3.0, "low contrast", {}),
        Event("exposure", 133.0, 167.0, 0.35, 2.0, "low contrast", {})])


def test_contrast_that_recovers_answers_yes(tmp_path):
    ans = ask(_fading_contrast(), "Does the contrast recover over time?", ("Yes", "No"),
              tmp_path)
    assert ans.choice == "A", ans.answer


@pytest.mark.parametrize("question", [
    "Give me a timeline of all quality problems.",
    "Make a timeline of the issues.",
    "List the defects in chronological order.",
])
def test_a_timeline_asks_for_the_events_in_order(question):
    assert parse_question(question, [], 180.0).kind == "temporal_relation"


def test_a_timeline_lists_every_event_in_order(tmp_path):
    idx = make_index(180.0, [Event("noise", 131.0, 165.0, 0.3, 2.0, "grain", {}),
                             Event("exposure", 39.5, 63.5, 1.0, 6.0, "too bright", {})])
    ans = ask(idx, "Give me a timeline of all quality problems.", (), tmp_path)
    bright, grain = ans.answer.find("00:00:39.5"), ans.answer.find("00:02:11.0")
    assert 0 <= bright < grain, ans.answer


@pytest.mark.parametrize("question", [
    "What is the longest time the image stays still?",
    "When does the picture stand still?",
    "Does the screen go still at some point?",
    "When does the image hang?",
])
def test_a_picture_that_stays_still_is_frozen(question):
    q = parse_question(question, [], 180.0)
    assert q.type == "freeze" and q.unknown == [], q


def test_the_longest_still_stretch_is_the_longest_freeze(tmp_path):
    idx = make_index(180.0, [Event("freeze", 56.0, 58.0, 0.6, 3.0, "frozen picture", {}),
                             Event("freeze", 125.7, 132.9, 0.7, 5.0, "frozen picture", {})])
    ans = ask(idx, "What is the longest time the image stays still?", (), tmp_path)
    assert "00:02:05.7" in ans.answer and "7.2 s, the longest of 2" in ans.answer, ans.answer
