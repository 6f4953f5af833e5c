"""Answers to question shapes found by free phrasings in session 17 (reviewer-style clips):
ties between types, kinds no option names, the thirds of a video, degrees of comparison,
exposure words with and without a direction, a distortion that fades, plural agreement."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import BLUR, make_index

from agent.questions import parse_question


@pytest.mark.parametrize(("question", "subtype"), [
    ("Does the brightness look wrong?", ""), ("Is the exposure off?", ""),
    ("Ist die Belichtung in Ordnung?", ""), ("When does the brightness change?", ""),
    ("When does the brightness drop?", "too dark"), ("Is the brightness too low?", "too dark"),
    ("When is the brightness low?", "too dark"),
    ("Wann ist die Helligkeit zu niedrig?", "too dark"),
    ("La luminosité baisse-t-elle ?", "too dark"), ("¿Cuándo baja el brillo?", "too dark"),
    ("When does the brightness increase?", "too bright"),
    ("How strong is the excessive brightness?", "too bright"),
    ("Does the exposure go up at some point?", "too bright"),
])
def test_the_brightness_takes_a_direction_only_from_the_words_around_it(question, subtype):
    q = parse_question(question, [], 180.0)
    assert (q.types[0].type, q.types[0].subtype) == ("exposure", subtype), question


def test_a_brightness_drop_is_not_answered_by_a_picture_made_too_bright(tmp_path):
    from tools.model import Event
    idx = make_index(events=[Event("exposure", 9.0, 26.0, 1.0, 1.0, "too bright", {})])
    assert ask(idx, "Does the brightness drop at some point?", ["Yes", "No"],
               tmp_path).choice == "B"
    assert ask(idx, "Does the brightness increase at some point?", ["Yes", "No"],
               tmp_path).choice == "A"
    assert ask(idx, "Is there a brightness problem?", ["Yes", "No"], tmp_path).choice == "A"


@pytest.mark.parametrize("order", [0, 1])
def test_two_types_equally_severe_at_their_worst_are_told_apart_by_time(order, tmp_path):
    """Both at the top of their scales: the one spoiling more of the video is named, in the
    text and in the choice alike, whichever the options list first."""
    from tools.model import Event
    colour = Event("colour", 30.0, 50.0, 1.0, 9.0, "hue shift", {})
    blocks = Event("compression", 100.0, 110.0, 1.0, 9.0, "blocking", {})
    idx = make_index(events=[colour, blocks])
    opts = ["Pixelation", "Hue shift (colour cast)"][::(1 if order == 0 else -1)]
    ans = ask(idx, "Which distortion is more severe: the pixelated blocks or the hue shift?",
              opts, tmp_path)
    assert ans.choice == "AB"[1 - order]
    assert ans.answer.startswith("The most severe distortion is colour distortion")
    assert "as severe at their worst" in ans.answer


def test_a_dominant_kind_none_of_the_options_names_takes_the_none_option(tmp_path):
    from tools.model import Event
    bright = Event("exposure", 160.0, 180.0, 0.45, 3.0, "too bright", {})
    opts = ["Defocus blur", "Hue shift (colour cast)", "Stutter (freezes)",
            "No noticeable distortion"]
    ans = ask(make_index(events=[bright]), "What is the dominant distortion in this video?",
              opts, tmp_path)
    assert ans.choice == "D"
    assert "exposure" in ans.answer and "None of the distortions the options name" in ans.answer
    with_blur = make_index(events=[bright, BLUR])  # a named kind found: it is weighed
    assert ask(with_blur, "What is the dominant distortion in this video?", opts,
               tmp_path).choice == "A"


@pytest.mark.parametrize("question", [
    "Which part has the most noise: beginning, middle or end?",
    "Where is it noisiest, the start, the middle, or the end?",
])
def test_beginning_middle_and_end_are_the_thirds_ranked_together(question, tmp_path):
    q = parse_question(question, [], 600.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0, 200), (200, 400), (400, 600)]
    from tools.model import Event
    grain = Event("noise", 150.0, 170.0, 0.7, 5.0, "grain", {})
    ans = ask(make_index(events=[grain]), question, tmp_path=tmp_path)
    assert ans.answer.startswith("The most degraded window is 00:02:13.3-00:03:20.0"), ans.answer


@pytest.mark.parametrize(("question", "etype"), [
    ("Where is it noisiest?", "noise"), ("When is it darkest?", "exposure"),
    ("Where is the footage shakiest?", "jitter"), ("When is it softest?", "blur"),
    ("When is the motion choppiest?", "frame_drop"), ("Where is it brightest?", "exposure"),
    ("Where does the image look grainiest?", "noise"), ("Where is it blurry?", "blur"),
])
def test_superlatives_and_where_questions_locate_their_type(question, etype):
    q = parse_question(question, [], 600.0)
    assert (q.kind, q.type) == ("localization", etype), question


def test_degrees_of_comparison_reduce_to_the_plain_word_and_nothing_else():
    from agent.wordforms import stem
    assert stem("noisiest") == stem("noisy") == stem("noisier")
    assert stem("darkest") == stem("dark") and stem("biggest") == stem("big")
    assert stem("best") == "best" and stem("test") == "test"  # too short to be a degree
    assert parse_question("Is there an interesting moment?", [], 60.0).type is None


@pytest.mark.parametrize(("question", "etype"), [
    ("Gibt es Farbprobleme?", "colour"), ("Gibt es Farbfehler im Video?", "colour"),
    ("At what point does motion stop?", "freeze"), ("When does the action freeze?", "freeze"),
    ("Does everything stand still at some point?", "freeze"),
])
def test_compounds_and_motion_that_stops(question, etype):
    assert parse_question(question, [], 180.0).type == etype


def test_an_explanation_agrees_with_a_plural_type_name(tmp_path):
    from tools.model import Event
    drops = Event("frame_drop", 90.0, 110.0, 1.0, 9.0, "repeated frames", {})
    ans = ask(make_index(events=[drops]), "What's the problem at 1:40?", tmp_path=tmp_path)
    assert "Frame drops (severe, worst severity 1.00) appear from" in ans.answer, ans.answer
    assert "They hurt the perceived quality" in ans.answer


@pytest.mark.parametrize(("question", "yes"), [
    ("Does the blur fade over time?", False), ("Does the blur get stronger over time?", True),
    ("Does the blur disappear as the video goes on?", False),
    ("Does the picture get worse over time?", True), ("Does the quality improve?", False),
    ("Is the blur getting weaker?", False), ("Does the blur get heavier over time?", True),
    ("Does the blur become less noticeable as the video goes on?", False),
])
def test_a_distortion_that_fades_is_a_picture_that_improves(question, yes, tmp_path):
    """Said of a distortion, 'fade' and 'grow' claim its strength; said of the quality,
    'worse' and 'improve' claim the picture's. The blur here grows step by step."""
    from tools.model import Event
    idx = make_index(events=[Event("blur", 20.0, 40.0, 0.3, 1.0, "softness", {}),
                             Event("blur", 90.0, 110.0, 0.6, 1.0, "softness", {}),
                             Event("blur", 160.0, 180.0, 0.9, 1.0, "softness", {})])
    ans = ask(idx, question, ["Yes", "No"], tmp_path)
    assert ans.choice == ("A" if yes else "B"), ans.answer
    assert ans.answer.startswith("Yes. " if yes else "No. ")
