"""Question shapes found by free phrasings in session 18: the parts a question ranks by their
length ("which minute ...?"), "A or B <comparative>?", "rank the beginning, middle and end",
"can you find where ...", and brightness that goes up and down."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import parse_question
from agent.times import unit_length, unit_windows
from tools.model import Event


def test_which_minute_cuts_the_video_into_minutes():
    assert unit_length("Which minute has the worst quality?") == 60.0
    assert unit_length("Which 30 seconds look cleanest?") == 30.0
    assert unit_length("Which ten-minute stretch is blurriest?") == 600.0
    assert unit_length("Which part is worse?") is None
    assert unit_windows("Which minute is worst?", 150.0) == [(0, 60), (60, 120), (120, 150)]
    assert unit_windows("Which minute is worst?", 50.0) == []  # nothing to rank
    assert unit_windows("Which minute is worst?", 3600.0) == []  # more than compare ranks
    # "which 30 seconds" names no time of the video
    assert parse_question("Which 30 seconds look cleanest?", [], 180.0).windows == []


def test_which_minute_is_answered_with_the_minute_and_a_long_video_with_its_worst_moment(
        tmp_path):
    blur = Event("blur", 130.0, 150.0, 0.6, 2.0, "softness", {})
    ans = ask(make_index(200.0, [blur]), "Which minute has the worst quality?", (), tmp_path)
    assert ans.answer.startswith("The most degraded window is 00:02:00.0-00:03:00.0"), ans.answer
    long = make_index(1800.0, [Event("blur", 1300.0, 1320.0, 0.6, 2.0, "softness", {})])
    ans = ask(long, "Which minute has the worst quality?", (), tmp_path)
    assert "00:21:40.0" in ans.answer and "window" not in ans.answer, ans.answer


@pytest.mark.parametrize(("question", "kind", "least"), [
    ("Is the first half or the second half cleaner?", "comparison", True),
    ("Is the first half or the second half blurrier?", "comparison", False),
    ("Rank the beginning, middle and end by quality.", "comparison", False),
    ("Can you find where the picture gets speckled?", "localization", False),
    ("Can you see any noise?", "detection", False),
    ("Do you see where the image hangs?", "localization", False),
    ("Ab wann rauscht das Bild?", "localization", False),
    ("Depuis quand l'image est-elle floue ?", "localization", False),
])
def test_the_kind_of_free_phrasings(question, kind, least):
    q = parse_question(question, [], 180.0)
    assert (q.kind, q.least) == (kind, least), question


def test_the_cleaner_half_is_the_one_without_the_event(tmp_path):
    blur = Event("blur", 20.0, 60.0, 0.6, 2.0, "softness", {})
    ans = ask(make_index(200.0, [blur]), "Is the first half or the second half cleaner?", (),
              tmp_path)
    assert ans.answer.startswith("The least degraded window is 00:01:40.0-00:03:20.0"), \
        ans.answer


@pytest.mark.parametrize(("question", "etype"), [
    ("Where does the brightness pump up and down?", "flicker"),
    ("Does the exposure keep fluctuating?", "flicker"),
    ("Is the resolution lower in some part?", "blur"),
    ("Gibt es Ruckler im Video?", "stutter"),
])
def test_free_words_for_a_type(question, etype):
    assert [m.type for m in parse_question(question, [], 180.0).types][:1] == [etype], question


def test_options_in_one_word():
    from agent.questions import parse_option
    assert [(m.type, m.subtype) for m in parse_option("D", "Dark", 180.0).types] == [
        ("exposure", "too dark")]
    assert parse_option("D", "Nothing", 180.0).none
    assert parse_option("D", "Nothing wrong", 180.0).none
    assert not parse_option("B", "No", 180.0).none  # a yes/no option stays one
    q = parse_question("Quel est le principal défaut ?", ["Flou", "Bruit", "Rien"], 180.0)
    assert q.options[2].none and not q.options[2].types
    q = parse_question("What best describes the picture between 0:45 and 1:05?",
                       ["Sharp and clean", "Grainy", "Blurry", "Dark"], 180.0)
    assert q.kind == "classification" and q.options[3].types[0].type == "exposure"


def test_a_window_whose_signal_differs_without_an_event_says_why_none_was_reported(tmp_path):
    idx = make_index(200.0, [])
    t = idx.samples["t"]
    inside = (t >= 60) & (t < 80)
    idx.samples["detail"][inside] = 0.05  # far less fine detail, and no event
    idx.samples["sharpness"][inside] = 40.0
    ans = ask(idx, "How severe is the blur between 1:00 and 1:20?", (), tmp_path)
    assert "No blur was detected" in ans.answer, ans.answer
    assert "did not stand out from the footage around it" in ans.answer, ans.answer
    ans = ask(idx, "How severe is the blur between 2:00 and 2:20?", (), tmp_path)
    assert "did not stand out" not in ans.answer, ans.answer
