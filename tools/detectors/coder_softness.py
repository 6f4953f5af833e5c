"""Softness with the coder's kinks: a blur event whose 16-px macroblock kinks rise against the
same shot around it is a low-bitrate coding, not a blur.

A heavily quantised H.264 (or MPEG-2) window loses its fine detail, so the blur detectors
find it; but its flat blocks stay kinked where they meet, on the 16-px macroblock grid
(`tools/signals.macroblocking`), and those kinks rise. Any blur of the picture lowers them
(a low-pass filter lowers every second difference, on the grid or off it, and a softer
picture costs the final encode fewer bits). So a soft stretch whose kinks stand above the
footage of its shot either side of it is the coder's smoothing: it is reported as
compression (macroblocking), graded as the blur detector graded the loss of detail.

The limit is measured by `bench calibrate` on the calibration clips themselves, each with a
true blur (ffmpeg's `gblur`, the mildest the blur detector finds) over one window: the most
their blur events' kinks rise, with the calibration margin beyond it. The fit reads only the
ratios above their median: a blur lowers the kinks by as much as it is strong (the clips'
ratios run 0.42-1.03), and that spread says nothing of how far a blur may raise them.
Judged only where the footage around shows its grid at all (its kinks above zero): grain as
strong on the grid as off it hides the grid, and any blur then raises the measure (a
defocused broadcast).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tools.detectors.around import around
from tools.detectors.calibration import CleanVideo, Quantity, declare, value
from tools.detectors.twin_events import MACROBLOCKING as SUBTYPE
from tools.model import Event, Scene

NEAR_S = 20.0  # the footage this far either side of an event (in its shots) is its reference
LEAST_NEAR = 6  # samples of it needed
OFFSET = 0.5  # grey levels added before the ratio (clean encodes read 0.1-0.4)


def kink_ratio(e: Event, samples: dict[str, np.ndarray], scenes: list[Scene],
               others: list[Event] = ()) -> float | None:
    """The median macroblock kinks inside the event against those of the footage around it
    (within NEAR_S, in the shots the event touches, outside every other event), each plus
    OFFSET; None where the footage around is too short or shows no grid."""
    mb, t = samples.get("mb"), samples.get("t")
    if mb is None or t is None or len(t) == 0:
        return None
    mb, t = np.asarray(mb, dtype=np.float64), np.asarray(t, dtype=np.float64)
    inside, near = around(e, t, scenes, others, NEAR_S)
    if inside.sum() < 3 or near.sum() < LEAST_NEAR:
        return None
    ref = float(np.median(mb[near]))
    if ref <= 0.0:
        return None
    return (max(float(np.median(mb[inside])), 0.0) + OFFSET) / (ref + OFFSET)


def _measure(video: CleanVideo) -> list[float]:
    """What one calibration clip contributes: the kinks' ratio of each blur event found on
    its truly blurred copies (`bench calibrate` hands them over as shared["blurred"])."""
    out = []
    for scenes, events, samples in video.shared.get("blurred", []):
        for e in events:
            if e.type == "blur":
                r = kink_ratio(e, samples, scenes, [o for o in events if o is not e])
                if r is not None:
                    out.append(r)
    return out


LIMIT = declare(Quantity(
    key="compression.coder_kinks", measure=_measure, direction=+1, default=1.3, log=True,
    one_sided=True,
    doc="least ratio of the 16-px macroblock kinks in a blur event to the footage of its shot "
        "around it at which the softness is the coder's: above every blur event found on the "
        "calibration clips truly blurred (gblur over a window)",
))


def recoded(events: list[Event], samples: dict[str, np.ndarray],
            scenes: list[Scene]) -> list[Event]:
    """Blur events whose macroblock kinks rise beyond the calibrated ratio, retyped as
    compression (macroblocking); the rest unchanged."""
    limit = value(LIMIT.key)
    out = []
    for e in events:
        r = kink_ratio(e, samples, scenes, [o for o in events if o is not e]) \
            if e.type == "blur" else None
        if r is not None and r >= limit:
            e = replace(e, type="compression", subtype=SUBTYPE,
                        evidence={**e.evidence, "kink_ratio": round(r, 3),
                                  "kink_limit": round(limit, 3),
                                  "recoded_from": f"blur/{e.subtype}"})
        out.append(e)
    return out
