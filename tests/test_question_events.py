"""Questions about the events of one type as people count, rank and bound them: "the second
freeze", "more than twice", "longer than 5 s", "the longest", "the worst moment"."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import parse_question


@pytest.fixture
def freezes():
    from tools.model import Event
    return make_index(events=[
        Event("freeze", 16.8, 18.8, 0.64, 2.0, "frozen picture", {"duration_s": 2.0}),
        Event("freeze", 109.4, 113.4, 0.88, 4.0, "frozen picture", {"duration_s": 4.0}),
        Event("freeze", 127.0, 135.0, 1.0, 8.0, "frozen picture", {"duration_s": 8.0})])


def test_detection_keeps_the_events_within_the_bound(freezes, tmp_path):
    yes = ask(freezes, "Is the longest freeze longer than 5 seconds?", ["Yes", "No"], tmp_path)
    assert yes.choice == "A" and [s.start_s for s in yes.segments] == [127.0]
    assert ask(freezes, "Are there freezes longer than 10 s?", ["Yes", "No"],
               tmp_path).choice == "B"
    short = ask(freezes, "Is any freeze shorter than 3 seconds?", tmp_path=tmp_path)
    assert short.answer.startswith("Yes: frozen picture lasting under 3 s")
    assert [s.start_s for s in short.segments] == [16.8]


def test_the_longest_one_alone(freezes, tmp_path):
    which = ask(freezes, "Which freeze is the longest?", tmp_path=tmp_path)
    assert [(s.start_s, s.end_s) for s in which.segments] == [(127.0, 135.0)]
    how_long = ask(freezes, "How long is the longest freeze?", ["2 s", "8 s", "14 s"], tmp_path)
    assert how_long.choice == "B"
    total = ask(freezes, "How long is the video frozen in total?", ["2 s", "8 s", "14 s"],
                tmp_path)
    assert total.choice == "C"


@pytest.mark.parametrize("question", ["Wie lange dauert das längste Standbild?",
                                      "Combien de temps dure le gel le plus long ?",
                                      "¿Cuánto dura la congelación más larga?",
                                      "最长的冻结持续多久？"])
def test_the_longest_freeze_in_other_languages(freezes, tmp_path, question):
    ans = ask(freezes, question, ["2 s", "8 s", "14 s"], tmp_path)
    assert ans.choice == "B"


def test_the_worst_moment_when_no_parts_are_named(freezes, tmp_path):
    for question in ("When is the quality worst?", "What is the worst moment in the video?"):
        ans = ask(freezes, question, tmp_path=tmp_path)
        assert [(s.start_s, s.end_s) for s in ans.segments] == [(127.0, 135.0)]
        assert ans.answer.startswith("The worst moment is 00:02:07.0-00:02:15.0")
    halves = ask(freezes, "Which half looks worse?", tmp_path=tmp_path)
    assert halves.answer.startswith("The most degraded window is 00:01:40.0")


@pytest.mark.parametrize(("question", "choice"), [
    ("Is there more than one freeze?", "A"), ("Does the video freeze more than three times?", "B"),
    ("Does it freeze at least 3 times?", "A"), ("Are there fewer than two freezes?", "B"),
    ("Does the picture freeze at most twice?", "B"),
])
def test_a_count_bound_is_decided_by_the_count(freezes, tmp_path, question, choice):
    q = parse_question(question, ["Yes", "No"], 180.0)
    assert q.kind == "detection" and q.count is not None and not q.least
    assert ask(freezes, question, ["Yes", "No"], tmp_path).choice == choice


def test_the_average_length(freezes, tmp_path):
    ans = ask(freezes, "What is the average length of a freeze?", ["2 s", "4.7 s", "14 s"],
              tmp_path)
    assert ans.choice == "B" and "4.7 s each on average" in ans.answer
    assert parse_question("Summarize the picture quality.", [], 180.0).kind == "open"


def test_answers_about_a_ranked_event(freezes, tmp_path):
    second = ask(freezes, "When does the second freeze happen?", tmp_path=tmp_path)
    assert [(s.start_s, s.end_s) for s in second.segments] == [(109.4, 113.4)]
    first = ask(freezes, "How long is the first freeze?", ["2 s", "8 s", "14 s"], tmp_path)
    assert first.choice == "A"
    assert ask(freezes, "Is the first freeze shorter than the last?", ["Yes", "No"],
               tmp_path).choice == "A"
    assert ask(freezes, "Is the last freeze milder than the first one?", ["Yes", "No"],
               tmp_path).choice == "B"
    fifth = ask(freezes, "When does the fifth freeze happen?", tmp_path=tmp_path)
    assert fifth.answer.startswith("There are only 3 lasting frozen picture event(s).")
