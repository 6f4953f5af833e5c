"""Time phrases read before the windows (agent/time_phrases.py): parts of parts, the video's
very edges, "a third of the way in", marks, spelt units (session 24's probe)."""

from __future__ import annotations

import pytest

from agent.questions import parse_question
from agent.times import windows


@pytest.mark.parametrize(("text", "span"), [
    ("towards the end of the first minute", (45.0, 60.0)),
    ("in the second half of the first minute", (30.0, 60.0)),
    ("the middle of the second half", (123.75, 146.25)),
    ("the beginning of the last third", (120.0, 135.0)),
    ("in the final moments", (170.0, 180.0)),
    ("at the very end", (170.0, 180.0)),
    ("in the first few seconds", (0.0, 10.0)),
    ("a third of the way in", (58.0, 62.0)),
    ("two thirds of the way through", (118.0, 122.0)),
    ("near the 2 minute mark", (105.0, 135.0)),  # a whole minute said loosely
    ("around the two-minute mark", (105.0, 135.0)),
    ("around minute two", (60.0, 120.0)),
    ("after about a minute", (60.0, 180.0)),
])
def test_time_phrases(text, span):
    found = windows(text, 180.0)
    assert [(w.start_s, w.end_s) for w in found] == [span], found


@pytest.mark.parametrize("text", ["how much of the 8 minutes is blurred", "within a minute"])
def test_lengths_are_no_windows(text):
    assert windows(text, 180.0) == []


def test_a_minute_and_a_half_is_ninety_seconds():
    q = parse_question("Is there noise after a minute and a half?", ("Yes", "No"), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(90.0, 180.0)]


def test_after_about_a_minute_is_a_window_not_an_order():
    q = parse_question("Is there noise after about a minute?", ("Yes", "No"), 180.0)
    assert q.kind == "detection" and [(w.start_s, w.end_s) for w in q.windows] == [(60.0, 180.0)]


@pytest.mark.parametrize("question", [
    "Gibt es Rauschen gegen Ende der ersten Minute?",
    "Y a-t-il du bruit vers la fin de la première minute ?",
    "¿Hay ruido al final del primer minuto?",
    "第一分钟结束时有噪声吗？",
])
def test_the_end_of_the_first_minute_in_other_languages(question):
    q = parse_question(question, (), 180.0)
    assert (q.kind, q.type) == ("detection", "noise")
    assert [(w.start_s, w.end_s) for w in q.windows] == [(45.0, 60.0)]


def test_y_a_t_il_is_there_and_the_last_moments_are_a_window():
    q = parse_question("Y a-t-il du bruit dans les derniers instants ?", (), 180.0)
    assert q.text.startswith("is there any") and q.kind == "detection"
    assert [(w.start_s, w.end_s) for w in q.windows] == [(170.0, 180.0)]


def test_before_the_halfway_point_is_a_side_of_an_instant():
    q = parse_question("Is the blur before the halfway point?", ("Yes", "No"), 1800.0)
    assert [(w.start_s, w.end_s, w.point) for w in q.windows] == [(898.0, 902.0, True)]


def test_a_quarter_named_by_its_ordinal_in_the_options():
    q = parse_question("During which quarter of the video does the colour shift happen?",
                       ("First", "Second", "Third", "Fourth"), 1800.0)
    assert [[(w.start_s, w.end_s) for w in o.windows] for o in q.options] == [
        [(0.0, 450.0)], [(450.0, 900.0)], [(900.0, 1350.0)], [(1350.0, 1800.0)]]


def test_in_which_minute_does_it_get_too_bright_asks_where():
    assert parse_question("In which minute does the picture get too bright?", (),
                          1800.0).kind == "localization"
