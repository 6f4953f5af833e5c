"""Questions a sixth independent round (session 34) found misread: a washed-out picture
answered with a warm cast the detector measured as oversaturation."""

from __future__ import annotations

from test_local_brain import ask
from test_toolbox import make_index

from tools.model import Event


def _contrast_then_cast():
    """Low contrast at 66-93 s, then a warm cast read as oversaturation at 140-162 s."""
    return make_index(185.0, [Event("exposure", 65.5, 93.5, 0.58, 2.0, "low contrast", {}),
                              Event("colour", 140.0, 162.5, 1.0, 5.0, "oversaturation",
                                    {"tint": "orange"})], fps=5.0)


def test_a_washed_out_picture_is_not_a_cast(tmp_path):
    for question in ("washed out picture - when?", "When does the image look faded?"):
        ans = ask(_contrast_then_cast(), question, (), tmp_path)
        assert "00:01:05.5" in ans.answer and "00:02:20.0" not in ans.answer, ans.answer


def test_washed_out_colours_still_find_lost_saturation(tmp_path):
    idx = make_index(185.0, [Event("colour", 40.0, 70.0, 0.6, 2.0, "desaturation", {})],
                     fps=5.0)
    ans = ask(idx, "washed out picture - when?", (), tmp_path)
    assert "00:00:40.0" in ans.answer, ans.answer
