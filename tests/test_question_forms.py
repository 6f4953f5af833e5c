"""Question forms found wanting on real footage with injected defects (session-21 probes):
spelled-out times, words for a defect in other languages, "which is the bigger problem",
"the sharpest part", and yes/no questions that get a yes or a no."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import BLUR, FLICKER, make_index

from agent.questions import parse_question
from agent.times import digits_before_units
from tools.model import Event


@pytest.mark.parametrize(("text", "want"), [
    ("after the two-minute mark", "after the 2-minute mark"),
    ("in the last thirty seconds", "in the last 30 seconds"),
    ("the first forty five seconds", "the first 45 seconds"),
    ("after twenty-five secs", "after 25 secs"),
    ("one hour in", "1 hour in"),
    ("two of the scenes", "two of the scenes"),  # no unit follows: left as it is
    ("someone minutes", "someone minutes"),  # inside a word: left as it is
])
def test_number_words_before_time_units_become_digits(text, want):
    assert digits_before_units(text) == want


@pytest.mark.parametrize(("question", "window"), [
    ("What happens to the picture after the two-minute mark?", (120.0, 180.0)),
    ("What happens after two minutes?", (120.0, 180.0)),
    ("Is there noise in the last thirty seconds?", (150.0, 180.0)),
    ("Is it blurry in the first forty-five seconds?", (0.0, 45.0)),
])
def test_spelled_out_times_name_windows(question, window):
    q = parse_question(question, [], 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [window]


@pytest.mark.parametrize(("question", "etype", "subtype"), [
    ("Wann bleibt das Bild stehen?", "freeze", None),
    ("Wann bleibt der Film kurz stehen?", "freeze", None),
    ("Quand est-ce que l'image devient sombre ?", "exposure", "too dark"),
    ("L'image est-elle sombre ?", "exposure", "too dark"),
    ("Is there a stretch where the resolution looks low?", "blur", None),
    ("Is the picture dark anywhere?", "exposure", "too dark"),
    ("When does the footage look dark?", "exposure", "too dark"),
])
def test_more_words_for_a_defect(question, etype, subtype):
    q = parse_question(question, [], 180.0)
    assert q.type == etype and not q.unknown, q.text
    if subtype:
        assert q.types[0].subtype == subtype


@pytest.mark.parametrize(("question", "kind", "least"), [
    ("Which is the bigger problem, the flicker or the darkness?", "comparison", False),
    ("Is blur or noise the bigger problem here?", "comparison", False),
    ("What is the sharpest part of the video?", "localization", True),
    ("What is the best part of the video?", "localization", True),
    ("What's the noisiest section?", "localization", False),
    ("Would you say this recording is of good quality?", "overall", False),
    ("Is this clip in poor quality?", "overall", False),
])
def test_kinds_of_further_shapes(question, kind, least):
    q = parse_question(question, [], 180.0)
    assert (q.kind, q.least) == (kind, least), q.text


@pytest.fixture
def blur_noise():
    # blur 1:00-1:15 at 0.6; noise 2:00-2:20 at 0.3
    return make_index(events=[BLUR, Event("noise", 120.0, 140.0, 0.3, 3.0, "grain", {})])


def test_yes_no_comparison_of_two_named_types_leads_with_the_verdict(blur_noise, tmp_path):
    no = ask(blur_noise, "Is the noise heavier than the blur?", tmp_path=tmp_path)
    assert no.answer.startswith("No: the most severe distortion is blur")
    assert "The noise reaches 0.30." in no.answer
    yes = ask(blur_noise, "Is the blur worse than the noise?", tmp_path=tmp_path)
    assert yes.answer.startswith("Yes: ")
    milder = ask(blur_noise, "Is the noise milder than the blur?", tmp_path=tmp_path)
    assert milder.answer.startswith("Yes: ")
    which = ask(blur_noise, "Which is worse, the noise or the blur?", tmp_path=tmp_path)
    assert which.answer.startswith("The most severe distortion is blur")


def test_yes_no_comparison_of_two_windows_of_a_type(blur_noise, tmp_path):
    yes = ask(blur_noise, "Is the first half blurrier than the second half?",
              tmp_path=tmp_path)
    assert yes.answer.startswith("Yes: the blur at 00:00:00.0-00:01:40.0 is the more severe")
    no = ask(blur_noise, "Is the second half blurrier than the first half?", tmp_path=tmp_path)
    assert no.answer.startswith("No: the blur at 00:00:00.0-00:01:40.0")


def test_overall_claims_of_good_or_poor_quality_get_a_yes_or_no(tmp_path):
    clean = make_index(events=[])
    worst = make_index(events=[Event("blur", 0.0, 200.0, 1.0, 9.0, "softness", {}),
                               Event("noise", 0.0, 200.0, 1.0, 9.0, "grain", {})])
    good, poor = ("Would you say this recording is of good quality?",
                  "Is this clip in poor quality?")
    assert ask(clean, good, tmp_path=tmp_path).answer.startswith("Yes: ")
    assert ask(clean, poor, tmp_path=tmp_path).answer.startswith("No: ")
    assert ask(worst, good, tmp_path=tmp_path).answer.startswith("No: ")
    assert ask(worst, poor, tmp_path=tmp_path).answer.startswith("Yes: ")


def test_a_flicker_and_a_blur_stay_ordered_after_a_spelled_out_time(tmp_path):
    idx = make_index(events=[BLUR, FLICKER])  # blur 1:00-1:15, flicker 2:20-2:30 of 3:20
    ans = ask(idx, "What happens to the picture after the two-minute mark?", tmp_path=tmp_path)
    assert "flicker" in ans.answer and "blur" not in ans.answer.split(".")[0]
