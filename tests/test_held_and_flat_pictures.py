"""A blocking ratio all through a flat, grain-free picture is no blocking without kinks at the
block borders (whole_video.WHOLE_VIDEO_GUARDS), and a held picture's detail is the freeze's
(derive.HELD_PICTURE_TYPES): both from an MPEG-2 encode of a coin on a table (session 35)."""

from __future__ import annotations

import numpy as np

import tools.detectors.confirm  # noqa: F401 - declares the whole-video quantities
from tests.event_series import FPS, _frames, _samples, _scenes
from tools.derive import _inside_any
from tools.detectors import calibration as cal
from tools.detectors import detect_events
from tools.model import Event


def _blocky_ratio(mb: float) -> list[Event]:
    """Three minutes whose blocking ratio sits past the whole-video limit all through, with
    macroblock kinks of `mb` grey levels."""
    s = _samples(180.0)
    s["blockiness"][:] = np.float32(1.2 * cal.value("whole.blockiness.p50"))
    s["mb"][:] = np.float32(mb)
    return detect_events(_frames(180.0), s, _scenes([0.0, 60.0, 120.0, 180.0]), FPS)


def test_a_blocking_ratio_without_kinks_is_no_whole_video_blocking():
    floor = cal.clean_extreme("whole.mb.p50")
    assert floor is not None and 0.5 < floor < cal.value("whole.mb.p50")
    events = _blocky_ratio(0.4 * floor)  # the coin's MPEG-2: 0.53
    assert not [e for e in events if e.type == "compression"], events


def test_a_blocking_ratio_with_kinks_is_whole_video_blocking():
    events = _blocky_ratio(1.1 * cal.clean_extreme("whole.mb.p50"))
    whole = [e for e in events if e.type == "compression" and e.evidence.get("whole_video")]
    assert len(whole) == 1 and whole[0].subtype == "blocking", events


def test_clean_extreme_reads_the_side_worse_values_lie_on():
    assert cal.clean_extreme("whole.sharpness.p90") < cal.value("whole.sharpness.p90") * 2
    assert cal.clean_extreme("no.such.key") is None


def test_detail_measured_on_a_held_picture_is_the_freeze():
    freeze = Event("freeze", 130.0, 134.0, 0.88, 4.0, "frozen picture", {})
    for etype, sub in (("compression", "blocking"), ("blur", "softness"), ("noise", "grain"),
                       ("sharpening", "halo")):
        inside = Event(etype, 129.5, 134.0, 0.6, 2.0, sub, {})
        assert _inside_any(inside, [freeze]), etype
        assert not _inside_any(Event(etype, 120.0, 134.0, 0.6, 2.0, sub, {}), [freeze])
    # a colour or tone change is not the held picture's doing
    assert not _inside_any(Event("colour", 129.5, 134.0, 0.6, 2.0, "hue shift", {}), [freeze])
