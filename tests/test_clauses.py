"""Two questions in one sentence are answered part by part (agent/clauses.py); a question
whose second half only refers back to the first stays one question. Also from the session-18
probes: a rating on the scale asked for, and no yes or no to a question it cannot read."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.clauses import split_question
from agent.questions import parse_question
from tools.model import Event


def _parts(text: str, options: tuple[str, ...] = ()) -> list[tuple[str, list[str]]]:
    whole = parse_question(text, options, 180.0)
    return [(q.kind, [m.type for m in q.types])
            for q in split_question(whole, options, 180.0)]


@pytest.mark.parametrize(("question", "parts"), [
    ("When does it flicker and when is it blurry?",
     [("localization", ["flicker"]), ("localization", ["blur"])]),
    ("Does the video stutter or drop frames, and when does the blockiness start?",
     [("detection", ["stutter", "frame_drop"]), ("localization", ["compression"])]),
    ("Is there noise? And when does the blur happen?",
     [("detection", ["noise"]), ("localization", ["blur"])]),
    ("When is the picture frozen, and is there any blockiness?",
     [("localization", ["freeze"]), ("detection", ["compression"])]),
    ("How many problems are there, and when does the blur begin?",
     [("cumulative_effect", []), ("localization", ["blur"])]),
    ("Wann flackert das Bild und wann ist es unscharf?",
     [("localization", ["flicker"]), ("localization", ["blur"])]),
    ("Gibt es Rauschen? Und wann ist das Bild unscharf?",
     [("detection", ["noise"]), ("localization", ["blur"])]),
    ("Quand l'image scintille-t-elle et quand est-elle floue ?",
     [("localization", ["flicker"]), ("localization", ["blur"])]),
    ("¿Cuándo parpadea la imagen y cuándo está borrosa?",
     [("localization", ["flicker"]), ("localization", ["blur"])]),
    ("画面什么时候闪烁？什么时候模糊？",
     [("localization", ["flicker"]), ("localization", ["blur"])]),
])
def test_two_questions_are_split(question, parts):
    assert _parts(question) == parts


@pytest.mark.parametrize("question", [
    "Is there flicker, and if so when?",  # the second half refers back to the first
    "When does the flicker start and when does it end?",
    "Is the video blurry and, if so, where?",
    "Where is the noise and how bad is it?",
    "Which part is worse, the beginning or the end, and why?",
    "Is it blurry or noisy?",  # one question about two defects
    "When is it blurry and noisy?",
    "Between 1:00 and 2:00, is it blurry?",  # a window, then its question
])
def test_one_question_stays_whole(question):
    assert len(_parts(question)) == 1


def test_a_multiple_choice_question_is_never_split():
    assert len(_parts("Is there noise, and when is it blurry?", ("Yes", "No"))) == 1


def test_a_window_belongs_to_its_own_part():
    whole = parse_question("Is there noise between 1:00 and 2:00, and when is it blurry?",
                           [], 180.0)
    first, second = split_question(whole, [], 180.0)
    assert [(w.start_s, w.end_s) for w in first.windows] == [(60.0, 120.0)]
    assert second.windows == []


def test_each_part_is_answered_in_order(tmp_path):
    idx = make_index(180.0, [Event("blur", 100.0, 120.0, 0.7, 5.0, "softness", {}),
                             Event("freeze", 30.0, 36.0, 0.9, 5.0, "frozen picture", {})])
    ans = ask(idx, "Is there any flicker, and when does the picture get blurry?", (), tmp_path)
    first, second = ans.answer.split(" (2) ")
    assert first.startswith("(1) No"), ans.answer
    assert second.startswith("Blur occurs from 00:01:40.0"), ans.answer
    assert [(s.start_s, s.end_s) for s in ans.segments] == [(100.0, 120.0)]
    # both parts in German: the frozen picture and the blur, each with its own times
    ans = ask(idx, "Wann friert das Bild ein und wann ist es unscharf?", (), tmp_path)
    assert ans.answer.startswith("(1) ") and " (2) " in ans.answer, ans.answer
    assert [(s.start_s, s.end_s) for s in ans.segments] == [(30.0, 36.0), (100.0, 120.0)]


def test_a_rating_is_given_on_the_scale_asked_for(tmp_path):
    idx = make_index(180.0, [Event("blur", 100.0, 120.0, 0.7, 5.0, "softness", {})])
    ans = ask(idx, "Rate the overall picture quality from 1 to 5.", (), tmp_path)
    assert ans.answer.startswith("Overall quality is good (4 on a 1-5 scale, 5 excellent)"), \
        ans.answer
    ans = ask(idx, "How would you score this video out of 10?", (), tmp_path)
    assert "(7.8 on a 1-10 scale, 10 excellent)" in ans.answer, ans.answer
    ans = ask(make_index(180.0, []), "Give the overall quality a score from 0 to 100.", (),
              tmp_path)
    assert "excellent (100 on a 0-100 scale" in ans.answer, ans.answer


def test_a_question_it_cannot_read_gets_no_yes_or_no(tmp_path):
    idx = make_index(180.0, [Event("blur", 100.0, 120.0, 0.7, 5.0, "softness", {})])
    ans = ask(idx, "Is the rocket launch successful?", (), tmp_path)
    assert "as a picture-quality term" in ans.answer, ans.answer
    assert "What I can measure: " in ans.answer and "Yes" not in ans.answer, ans.answer
    # a yes/no question about the picture itself still gets its yes
    ans = ask(idx, "Is there anything wrong with the picture?", (), tmp_path)
    assert ans.answer.startswith("Yes"), ans.answer


def test_is_one_part_better_than_another_is_answered_yes_or_no(tmp_path):
    idx = make_index(180.0, [Event("blur", 20.0, 60.0, 0.9, 5.0, "softness", {})])
    ans = ask(idx, "Is the first half better than the second half?", (), tmp_path)
    assert ans.answer.startswith("No: the most degraded window is 00:00:00.0-00:01:30.0"), \
        ans.answer
    ans = ask(idx, "Is the first half worse than the second half?", (), tmp_path)
    assert ans.answer.startswith("Yes: "), ans.answer
    # "is A or B cleaner?" asks which, not whether
    ans = ask(idx, "Is the first half or the second half cleaner?", (), tmp_path)
    assert ans.answer.startswith("The least degraded window is 00:01:30.0"), ans.answer
