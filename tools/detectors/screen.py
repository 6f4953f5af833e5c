"""Footage held by design: screen recordings, slideshows, step-by-step renders.

A screen recording at 30 fps repeats its picture in most frames and changes it only when
something happens on screen (terminal: 94 % of frames repeat the one before). Camera footage
never does, and cartoons hold drawings for two or three frames at most (the calibration part
of the corpus: at most 29 % of frames). Where more frames repeat than clean footage ever
shows, repeats are the content's nature, not frame drops; the looks measured against what
camera footage shows (a white page's lifted blacks read "too bright" or "low contrast", glyph
edges "pixelation" and "impulse noise") are its design, and so is any look that lasts most
of the video: those events are dropped. Degradations that come and go in the picture (a
blurred stretch, a damaged one, grain, blocking, a colour shift) are still reported.
"""

from __future__ import annotations

import numpy as np

from tools.detectors.calibration import Quantity, declare, value
from tools.detectors.frame_drop import SUBTYPE as RATE_DROP
from tools.detectors.freeze import MIN_S as FREEZE_MIN_S
from tools.detectors.repeats import FROZEN_DIFF
from tools.detectors.series import runs
from tools.detectors.twin_events import judged_by_twins
from tools.model import Event

# Events of a held-by-design video lasting this share of it are its look.
LOOK_SHARE = 0.5
REPEAT_TYPES = ("frame_drop", "stutter", "freeze")
PAGE_LOOKS = (("exposure", ""), ("compression", "pixelation"), ("noise", "impulse"))


def held_share(frames: dict[str, np.ndarray]) -> float:
    """The share of frames that repeat the previous one (no change at all)."""
    d = np.asarray(frames.get("diff", []), dtype=np.float64)
    if len(d) < 2:
        return 0.0
    return float(np.mean(np.nan_to_num(d[1:], nan=1.0) <= FROZEN_DIFF))


BY_DESIGN = declare(Quantity(
    key="screen.held_share", measure=lambda v: [held_share(v.frames)], direction=+1,
    default=0.5, log=False, doc="share of frames repeating the previous one in a clean video"))


def held_by_design(frames: dict[str, np.ndarray]) -> bool:
    """Whether more frames repeat than any clean camera or cartoon footage repeats."""
    return held_share(frames) > value(BY_DESIGN.key)


def still_elsewhere_s(frames: dict[str, np.ndarray], spans: list[tuple[float, float]]) -> float:
    """The longest the picture stays unchanged (s) outside the given spans (inf unknown)."""
    t = np.asarray(frames.get("t", []), dtype=np.float64)
    d = np.asarray(frames.get("diff", []), dtype=np.float64)
    if len(t) < 2 or len(d) != len(t):
        return np.inf
    held = np.nan_to_num(d, nan=1.0) <= FROZEN_DIFF
    for a, b in spans:
        held &= ~((t >= a) & (t < b))
    step = float(np.median(np.diff(t)))
    return max((b - a for a, b in runs(held)), default=0) * step


def _slower(e: Event, usual_hold: float) -> bool:
    """Whether a frame-rate drop holds its pictures at least twice the video's usual hold
    (frames per picture, from its held share): a drop below the footage's own rate."""
    return e.subtype == RATE_DROP and float(e.evidence.get("hold_frames", 0)) >= 2 * usual_hold


def without_design(events: list[Event], frames: dict[str, np.ndarray],
                   duration_s: float | None) -> list[Event]:
    """The events of a held-by-design video that are defects (all events of any other).

    Repeats are its cadence. Page looks (a dark or white page, flat areas) and events
    covering most of it are a screen recording's nature, which holds pages for seconds: a
    cartoon doubled up to twice its drawing rate repeats every other frame (held share
    0.4-0.6) but never stands still as long as a freeze (outside its freezes), and in it a
    6-s freeze or a darkened stretch is a defect, and so is a rate drop holding its pictures at
    least twice as long as the video usually does (a 24-fps film doubled up to 50 fps, held
    share 0.52, falling to 6 fps: pictures held 8 frames). An event judged against the same
    picture shown elsewhere in the video is never the footage's nature."""
    if not held_by_design(frames):
        return events
    long = LOOK_SHARE * (duration_s or 0.0)
    freezes = [(e.start_s, e.end_s) for e in events if e.type == "freeze"]
    holds_pages = still_elsewhere_s(frames, freezes) >= FREEZE_MIN_S

    usual_hold = 1.0 / max(1.0 - held_share(frames), 1e-6)

    def design(e: Event) -> bool:
        if judged_by_twins(e) or _slower(e, usual_hold):
            return False
        if e.type == "freeze":
            return holds_pages
        if e.type in REPEAT_TYPES:
            return True
        return holds_pages and (any(
            e.type == t and (not sub or e.subtype == sub) for t, sub in PAGE_LOOKS
        ) or (long > 0 and e.end_s - e.start_s >= long))

    return [e for e in events if not design(e)]

