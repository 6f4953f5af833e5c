"""Phrasings a session-28 probe found misread: "Welche Bildfehler gibt es?" (which defects,
a list) was answered as a yes/no question in German, French, Spanish and Chinese."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.language import read
from tools.model import Event


def _shake_and_colour():
    return make_index(180.0, [Event("colour", 24.0, 46.0, 0.34, 1.2, "oversaturation", {}),
                              Event("jitter", 98.0, 131.0, 1.0, 3.1, "camera shake", {})],
                      fps=5.0)


@pytest.mark.parametrize("question", [
    "Welche Bildfehler gibt es?",
    "Welche Bildfehler hat das Video?",
    "Quels défauts d'image y a-t-il ?",
    "¿Qué defectos de imagen hay?",
    "有哪些画面问题？",
    "视频有什么问题？",
])
def test_which_defects_in_other_languages_lists_them(question, tmp_path):
    ans = ask(_shake_and_colour(), question, (), tmp_path)
    assert not ans.answer.startswith(("Yes", "No")), ans.answer
    assert "00:01:38.0" in ans.answer and "00:00:24.0" in ans.answer, ans.answer


@pytest.mark.parametrize("question,code", [
    ("Gibt es Flackern?", "de"), ("Y a-t-il du flou ?", "fr"), ("¿Hay ruido?", "es"),
])
def test_is_there_stays_a_yes_no_question(question, code):
    assert read(question).gloss.startswith("is there any"), read(question)


def test_a_type_named_with_its_subtype_is_not_named_twice(tmp_path):
    ans = ask(_shake_and_colour(), "What kind of distortion is visible at 1:50?", (), tmp_path)
    assert "(camera shake) (camera shake)" not in ans.answer and "jitter" in ans.answer


@pytest.mark.parametrize("question,etype", [
    ("Is the picture dim?", "exposure"),
    ("Is the image too dim at the end?", "exposure"),
    ("Does the picture pump?", "flicker"),
    ("Does the image pulse?", "flicker"),
])
def test_dim_and_pumping_pictures(question, etype):
    from agent.questions import parse_question
    assert parse_question(question, (), 180.0).type == etype


@pytest.mark.parametrize("question,window", [
    ("Is there noise before minute 2?", (0.0, 120.0)),
    ("Is there noise after minute 2?", (120.0, 180.0)),
    ("Is there noise until minute 2?", (0.0, 120.0)),
    ("Is there noise from minute 2 on?", (120.0, 180.0)),
    ("Is there noise in minute 2?", (60.0, 120.0)),  # the second minute itself
    ("¿Hay ruido antes del minuto 2?", (0.0, 120.0)),
    ("Y a-t-il du bruit après la minute 2 ?", (120.0, 180.0)),
])
def test_a_bound_said_as_a_minute_is_its_mark(question, window):
    from agent.questions import parse_question
    q = parse_question(question, (), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [window]


@pytest.mark.parametrize("question", [
    "What happens to the picture after 1:30?",
    "Was passiert mit dem Bild nach 1:30?",
    "Que se passe-t-il avec l'image après 1:30 ?",
    "¿Qué pasa con la imagen después del minuto 1:30?",
])
def test_what_happens_to_the_picture_after_a_time(question, tmp_path):
    ans = ask(_shake_and_colour(), question, (), tmp_path)
    assert "camera shake" in ans.answer and "00:00:24.0" not in ans.answer, ans.answer
    assert "do not know" not in ans.answer, ans.answer
