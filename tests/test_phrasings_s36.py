"""Questions an eighth independent round (session 36) found misread: "which part looks best?"
answered with the most degraded part, and "is there a part where the picture suddenly gets
brighter?" read as a question about a trend."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import parse_question
from tools.model import Event


@pytest.mark.parametrize("question", [
    "Which part looks best?", "Which minute is best?", "Which is the best-looking segment?",
    "Which section seems the nicest?",
])
def test_looking_best_asks_for_the_least_degraded(question):
    assert parse_question(question, []).least, question


@pytest.mark.parametrize("question", [
    "Which part looks worst?", "Which option best describes the problem?",
    "Which half looks worse?",
])
def test_worst_and_best_describes_ask_for_no_least(question):
    assert not parse_question(question, []).least, question


def test_the_best_minute_is_the_clean_one(tmp_path):
    idx = make_index(240.0, [Event("compression", 70.0, 110.0, 0.6, 3.0, "blocking", {}),
                             Event("compression", 130.0, 230.0, 0.9, 5.0, "blocking", {})],
                     fps=5.0)
    options = ("The first minute", "The second minute", "The third minute", "The last minute")
    ans = ask(idx, "Which part looks best?", options, tmp_path)
    assert ans.choice == "A", ans.answer


@pytest.mark.parametrize("question", [
    "Is there a part where the picture suddenly gets brighter? If so when?",
    "Does the picture suddenly get darker?", "Does it abruptly get blurrier?",
    "Is there a moment where the image gets noisier?",
])
def test_a_sudden_change_is_an_event_not_a_trend(question):
    assert parse_question(question, []).kind != "trend", question


@pytest.mark.parametrize("question", [
    "Does the picture get brighter over time?", "Does it get blurrier as the video goes on?",
    "Is the noise getting heavier towards the end?",
])
def test_a_change_over_the_video_is_still_a_trend(question):
    assert parse_question(question, []).kind == "trend", question


def test_the_sudden_brightening_is_located(tmp_path):
    idx = make_index(180.0, [Event("exposure", 140.0, 150.0, 1.0, 10.0, "too bright", {})],
                     fps=5.0)
    ans = ask(idx, "Is there a part where the picture suddenly gets brighter? If so when?", (),
              tmp_path)
    assert "00:02:20.0" in ans.answer and "trend" not in ans.answer, ans.answer


def test_clean_halves_take_the_offered_about_the_same(tmp_path):
    """Nothing found in either half of a clean montage: "Both about the same", not the first
    half (which the window matching the first option had made the choice)."""
    idx = make_index(200.0, [], fps=5.0)
    ans = ask(idx, "Which half of the video looks worse?",
              ("The first half", "The second half", "Both about the same"), tmp_path)
    assert ans.choice == "C", ans.answer
