"""Session 33: "when does the quality begin to deteriorate?" asks for the moment the picture
first goes bad (the earliest degraded stretch), not for a trend or a comparison of parts."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.kinds import question_kind
from tools.model import Event

ONSET = [
    "When does quality begin to deteriorate?",
    "At what point does the video start looking worse?",
    "From what point on does the picture get worse?",
    "when does it start to go downhill",
    "When does the image begin to degrade?",
    "So when does the picture first start getting bad?",
    "At what time does the video quality begin to decline?",
    "When does the footage start to look bad?",
    "at which moment does the picture start to deteriorate",
    "How far into the clip does the quality start to drop?",
]


@pytest.mark.parametrize("question", ONSET)
def test_the_onset_of_a_decline_is_asked_as_a_time(question):
    assert question_kind(question) == "localization"


@pytest.mark.parametrize("question", [
    "Does the quality deteriorate over time?",
    "Does the picture get worse when the flicker starts?",
    "Which half gets worse first?",
    "How does the quality change over the video?",
])
def test_trends_and_comparisons_stay_what_they_were(question):
    assert question_kind(question) != "localization"


@pytest.mark.parametrize("question", ONSET[:4])
def test_the_answer_is_the_earliest_degraded_stretch(tmp_path, question):
    late = Event("compression", 120.0, 170.0, 0.7, 2.0, "blocking", {})
    early = Event("noise", 60.0, 90.0, 0.5, 2.0, "grain", {})
    idx = make_index(180.0, [late, early])
    ans = ask(idx, question, tmp_path=tmp_path)
    assert "00:01:00" in ans.answer.splitlines()[0]
    assert "first of 2" in ans.answer
    assert "00:02:00" not in ans.answer.splitlines()[0]


@pytest.mark.parametrize("question,kind", [
    ("is the picture getting progressively worse or does it stay the same?", "trend"),
    ("Does the quality degrade progressively?", "trend"),
    ("Is there a progressive degradation of quality?", "trend"),
    ("Is the video progressive scan?", "detection"),
])
def test_progressively_worse_is_a_trend_not_progressive_scan(question, kind):
    assert question_kind(question) == kind
    from agent.distortions import praised
    assert bool(praised(question)) == (kind == "detection")


@pytest.mark.parametrize("question", [
    "everything wrong with this clip pls", "tell me everything that is wrong with the video",
    "all that's off in this video?", "whatever is wrong here, list it",
])
def test_everything_wrong_lists_every_problem(tmp_path, question):
    assert question_kind(question) == "localization"
    idx = make_index(180.0, [Event("blur", 30.0, 50.0, 0.6, 2.0, "softness", {}),
                             Event("colour", 100.0, 130.0, 0.5, 2.0, "oversaturation", {})])
    ans = ask(idx, question, tmp_path=tmp_path)
    assert "00:00:30" in ans.answer and "00:01:40" in ans.answer, ans.answer
    assert "did not understand" not in ans.answer


OVERALL = ["good throughout", "good except one damaged section", "poor throughout"]


@pytest.mark.parametrize("events,choice", [
    ([Event("corruption", 69.3, 84.1, 0.79, 40.0, "decoder errors", {})], "B"),
    ([], "A"),
])
def test_a_grade_with_an_exception_fits_a_video_with_one_bad_stretch(tmp_path, events, choice):
    idx = make_index(150.0, events)
    ans = ask(idx, "overall picture quality?", OVERALL, tmp_path=tmp_path)
    assert ans.choice == choice, ans.answer


def test_decoder_damage_for_seconds_reads_severe():
    from agent.brains.local.levels import level_of
    assert level_of(0.79, "corruption/decoder errors") == 3.0
    assert level_of(0.55, "corruption/decoder errors") == 2.0
