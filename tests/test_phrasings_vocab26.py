"""Words for defects a session-26 probe found unknown: detail that "is lost", a picture that
"looks dim", and the codec's own name before its artefacts."""

from __future__ import annotations

import pytest

from agent.distortions import distortions


@pytest.mark.parametrize("question,etype", [
    ("Is detail lost anywhere?", "blur"),
    ("Are the fine details gone in the second half?", "blur"),
    ("Does the image look dim in the beginning?", "exposure"),
    ("Is the scene poorly lit at some point?", "exposure"),
    ("Does the picture get a bit dim after a minute?", "exposure"),
])
def test_defect_words(question, etype):
    assert [m.type for m in distortions(question)] == [etype]


def test_dim_reads_as_too_dark():
    (m,) = distortions("Does the image look dim in the beginning?")
    assert m.subtype == "too dark"
