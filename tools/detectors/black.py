"""Black frames: the picture drops to black inside the running video and comes back.

What broadcast QC checks with ffmpeg's `blackdetect` (a frame is black when nearly all of its
pixels are dark), restricted to drops a viewer reads as a fault: the picture goes black and
returns abruptly (a signal dropout, a segment lost and filled with black, a black flash),
not the slow fade of an edit, and not the black a video opens or closes on. A frame is black
when both its mean and its spread (grey levels of the small frame) lie under a level no
frame of clean calibration footage reaches (night scenes and planets on black keep a spread).
"""

from __future__ import annotations

import numpy as np

from tools.detectors.calibration import CleanVideo, Quantity, declare, value
from tools.detectors.series import level_severity, overlap_share, runs
from tools.model import Event

SUBTYPE = "black frames"


def _darkest(v: CleanVideo) -> list[float]:
    """The darkest, flattest frame of a clean video: min over frames of max(mean, spread)."""
    luma, spread = v.frames.get("luma"), v.frames.get("contrast")
    if luma is None or spread is None or not len(luma):
        return []
    level = np.fmax(np.asarray(luma, np.float64), np.asarray(spread, np.float64))
    level = level[np.isfinite(level)]
    return [float(level.min())] if len(level) else []


BLACK_LEVEL = declare(Quantity(
    "black.level",
    "a frame whose mean and spread (grey levels, small frame) both lie at or under this is "
    "black; the darkest, flattest frame of each clean video (lower tail)",
    _darkest, -1, 8.0, offset=1.0))

# A drop is abrupt at an edge when the frame next to the black run keeps at least this share
# of the brightness of the second beyond it: a fade dims over many frames first (its last
# frame before black keeps a few percent), a dropout cuts from the full picture.
ABRUPT_SHARE = 0.5
AROUND_S = 1.0
# Severity by how long the picture stays black: 2 frames at 25 fps (0.08 s) is the faintest
# reported (0.2), 2 s (what blackdetect reports by default) and longer is 1.0.
DURATION_LEVELS = (0.08, 2.0)
MIN_FRAMES = 2
# Events of other types lying for at least this share inside a black run are its doing (a
# black run is a held, dark, flat picture).
INSIDE_SHARE = 0.5


def black_mask(frames: dict[str, np.ndarray]) -> np.ndarray:
    """Per frame, whether it is black (mean and spread at or under the calibrated level)."""
    luma = np.nan_to_num(np.asarray(frames.get("luma", []), np.float64), nan=255.0)
    spread = np.nan_to_num(np.asarray(frames.get("contrast", []), np.float64), nan=255.0)
    return np.fmax(luma, spread) <= value(BLACK_LEVEL.key)


def _abrupt(luma: np.ndarray, edge: int, beyond: slice) -> bool:
    """Whether the frame at `edge` (next to a black run) is the picture at full brightness:
    at least ABRUPT_SHARE of the median of the frames `beyond` it."""
    around = luma[beyond]
    if not len(around):
        return False
    ref = float(np.median(around))
    return ref > 0 and float(luma[edge]) >= ABRUPT_SHARE * ref


def black_events(frames: dict[str, np.ndarray], fps: float) -> list[Event]:
    """Runs of at least MIN_FRAMES black frames entered and left abruptly, inside the video."""
    t = np.asarray(frames.get("t", []), np.float64)
    if len(t) < MIN_FRAMES + 2 or fps <= 0:
        return []
    luma = np.nan_to_num(np.asarray(frames["luma"], np.float64), nan=0.0)
    k = max(1, int(round(AROUND_S * fps)))
    out = []
    for a, b in runs(black_mask(frames)):
        if b - a < MIN_FRAMES or a == 0 or b >= len(t):
            continue  # too brief, or the black the video opens or closes on
        if not (_abrupt(luma, a - 1, slice(max(0, a - 1 - k), a - 1))
                and _abrupt(luma, b, slice(b + 1, b + 1 + k))):
            continue  # a fade
        seconds = float(b - a) / fps
        sev = level_severity(seconds, DURATION_LEVELS)
        out.append(Event("exposure", float(t[a]), float(t[b - 1] + 1.0 / fps), round(sev, 3),
                         float(round(seconds, 3)), SUBTYPE,
                         {"signal": "luma", "frames": int(b - a), "seconds": round(seconds, 3),
                          "luma_before": round(float(luma[a - 1]), 1),
                          "luma_after": round(float(luma[b]), 1),
                          "level": round(value(BLACK_LEVEL.key), 2)}))
    return out


def without_black(events: list[Event], blacks: list[Event]) -> list[Event]:
    """The events but those lying mostly inside a black run (its dark, held, flat frames)."""
    if not blacks:
        return events
    spans = [(x.start_s, x.end_s) for x in blacks]
    return [e for e in events
            if e.subtype == SUBTYPE or overlap_share(e.start_s, e.end_s, spans) < INSIDE_SHARE]
