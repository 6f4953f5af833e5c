"""Questions a probe of session 26 found misread: problems ranked by their time or their
severity ("rank the problems by how long each lasts"), "which defect takes up the most
time?", and a colour cast that the detector measured as oversaturation (ffmpeg's
colorbalance on a real clip)."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import question_kind
from tools.model import Event


def _long_mild_blur_short_strong_colour():
    return make_index(180.0, [Event("blur", 95.0, 127.0, 0.45, 3.0, "softness", {}),
                              Event("colour", 23.0, 47.0, 0.9, 5.0, "oversaturation", {})],
                      fps=5.0)


@pytest.mark.parametrize("question", [
    "Rank the clip's problems by how long each lasts, longest first.",
    "Order the defects by duration.",
    "List the problems from longest to shortest.",
    "Sort the issues by how long they last.",
])
def test_problems_ranked_by_time(tmp_path, question):
    assert question_kind(question) == "dominant_factor"
    ans = ask(_long_mild_blur_short_strong_colour(), question, (), tmp_path)
    assert ans.answer.startswith("Ranked by time"), ans.answer
    assert ans.answer.index("1. blur") < ans.answer.index("2. colour"), ans.answer


@pytest.mark.parametrize("question", [
    "Rank the problems by severity.",
    "Sort the defects from worst to mildest.",
])
def test_problems_ranked_by_severity_stay_a_comparison(tmp_path, question):
    assert question_kind(question) == "comparison"
    ans = ask(_long_mild_blur_short_strong_colour(), question, (), tmp_path)
    assert ans.answer.startswith("Ranked, worst first: 1. colour"), ans.answer


@pytest.mark.parametrize("question", [
    "List the problems in the order they appear.",
    "Order the distortions by when they start.",
])
def test_the_order_they_come_in_stays_a_temporal_relation(question):
    assert question_kind(question) == "temporal_relation"


@pytest.mark.parametrize("question", [
    "Which defect takes up the most time?",
    "Which problem covers most of the video?",
    "What issue occupies the most screen time?",
])
def test_which_takes_up_the_most_time_is_the_dominant_factor(tmp_path, question):
    assert question_kind(question) == "dominant_factor"
    ans = ask(_long_mild_blur_short_strong_colour(), question, (), tmp_path)
    assert "dominant factor is blur" in ans.answer, ans.answer


def _colour(subtypes):
    spans = [(43.0, 76.0), (120.0, 140.0)]
    return make_index(180.0, [Event("colour", a, b, 0.5, 2.0, s, {})
                              for (a, b), s in zip(spans, subtypes, strict=False)], fps=5.0)


@pytest.mark.parametrize("question", [
    "Is there a color cast? If yes, give start and end time.",
    "When does the picture take on a tint?",
])
def test_a_cast_measured_as_oversaturation_is_found(tmp_path, question):
    ans = ask(_colour(["oversaturation"]), question, (), tmp_path)
    assert "00:00:43.0" in ans.answer and "No colour" not in ans.answer, ans.answer


def test_a_cast_prefers_the_hue_shift_when_there_is_one(tmp_path):
    ans = ask(_colour(["oversaturation", "hue shift"]), "When is there a colour cast?", (),
              tmp_path)
    assert "00:02:00.0" in ans.answer and "00:00:43.0" not in ans.answer, ans.answer


def test_washed_out_colours_still_need_a_saturation_event(tmp_path):
    ans = ask(_colour(["hue shift"]), "Are the colours washed out?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer
