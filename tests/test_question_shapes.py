"""Question shapes outside the templates, as people write them: each maps to the kind, type and
windows its words ask for (found by trying a few hundred free phrasings on track videos)."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import BLUR, FLICKER, make_index

from agent.questions import parse_question


@pytest.mark.parametrize(("question", "kind", "etype"), [
    ("Are frames being dropped at some point?", "detection", "frame_drop"),
    ("Are any frames getting skipped?", "detection", "frame_drop"),
    ("Does the video look too warm?", "detection", "colour"),
    ("Is the image too cold and blue?", "detection", "colour"),
    ("When does the picture turn green?", "localization", "colour"),
    ("Does the image jump at some point?", "detection", "jitter"),
    ("Which distortion lasts the longest?", "dominant_factor", None),
    ("What is the first problem that appears?", "temporal_relation", None),
    ("Is the ending more blurry than the opening?", "comparison", "blur"),
    ("画面在哪里模糊？", "localization", "blur"),
    ("¿La imagen está borrosa?", "detection", "blur"),
    ("Das Bild flackert?", "detection", "flicker"),
])
def test_shapes(question, kind, etype):
    q = parse_question(question, [], 600.0)
    assert (q.kind, q.type) == (kind, etype), q.text
    assert not q.unknown


@pytest.mark.parametrize("question", ["When does the quality drop?",
                                      "Is there a sudden drop in quality?",
                                      "Where does the picture quality dip?"])
def test_a_quality_drop_is_a_generic_question_not_an_unknown_word(question):
    q = parse_question(question, [], 600.0)
    assert q.type is None and q.unknown == []


def test_both_ends_are_windows_of_a_comparison():
    q = parse_question("Is the ending more blurry than the opening?", [], 600.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(540.0, 600.0), (0.0, 60.0)]
    q = parse_question("Is the beginning sharper than the end?", [], 600.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 60.0), (540.0, 600.0)]


def test_lasting_longest_counts_time_not_severity(tmp_path):
    from tools.model import Event
    long_mild = Event("noise", 10.0, 110.0, 0.25, 1.0, "grain", {})
    idx = make_index(events=[long_mild, FLICKER])  # flicker: 10 s at 0.8 (8 s-weighted)
    opts = ["Noise", "Flicker", "Blur"]
    assert ask(idx, "Which distortion lasts the longest?", opts, tmp_path).choice == "A"
    assert ask(idx, "Which distortion dominates?", opts, tmp_path).choice == "A"
    short_bad = make_index(events=[Event("noise", 10.0, 30.0, 0.25, 1.0, "grain", {}),
                                   FLICKER])
    assert ask(short_bad, "Which distortion lasts the longest?", opts, tmp_path).choice == "A"
    assert ask(short_bad, "What is the dominant distortion?", opts, tmp_path).choice == "B"


def test_the_same_type_in_two_windows_names_the_worse_window(tmp_path):
    idx = make_index(events=[BLUR, FLICKER])  # blur 1:00-1:15 of 3:20
    ans = ask(idx, "Is the first half blurrier than the second half?", ["Yes", "No"], tmp_path)
    assert ans.choice == "A" and ans.answer.startswith("The blur at 00:00:00.0-00:01:40.0")
    none = ask(idx, "Is the ending noisier than the opening?", tmp_path=tmp_path)
    assert none.answer.startswith("Neither: no lasting noise")
