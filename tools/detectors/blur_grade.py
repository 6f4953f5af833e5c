"""One severity scale for every blur event: how far native sharpness falls against the
footage of the same shots around it, whichever rule found the event.

The blur rules judge against different references (the rest of the scene, the same picture
elsewhere in a looped video, the detail ratio's own scale), so their severities did not
follow the blur: on one looped phone clip, ffmpeg's gblur at three strengths read 0.47, 0.30
and 0.48 (the middle one found by the detail ratio, which saturates). Graded again on the
sharpness fall against the footage within NEAR_S either side (in its shots, outside every
other event), on the blur specs' own scale (blur.BLUR_DROP), they read in order. An event
without such footage around it (a whole shot, a whole video) keeps its rule's grade.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tools.detectors.around import around
from tools.detectors.base import REPORT_SEVERITY
from tools.detectors.blur import BLUR_DROP
from tools.detectors.spatial_events import drop_severity
from tools.model import Event, Scene

NEAR_S = 20.0  # the footage this far either side of an event (in its shots) is its reference
LEAST_NEAR = 6  # samples of it needed
OFFSET = 1.0  # added to native sharpness before the log (the heavy-blur spec's offset)


def sharpness_fall(e: Event, samples: dict[str, np.ndarray], scenes: list[Scene],
                   others: list[Event] = ()) -> float | None:
    """log(reference / inside) of native sharpness (plus OFFSET), or None where the event
    has too little footage around it."""
    sharp, t = samples.get("sharpness"), samples.get("t")
    if sharp is None or t is None or len(t) == 0:
        return None
    sharp, t = np.asarray(sharp, dtype=np.float64), np.asarray(t, dtype=np.float64)
    inside, near = around(e, t, scenes, others, NEAR_S)
    inside &= np.isfinite(sharp)
    near &= np.isfinite(sharp)
    if inside.sum() < 3 or near.sum() < LEAST_NEAR:
        return None
    ref, inn = float(np.median(sharp[near])), float(np.median(sharp[inside]))
    return float(np.log((max(ref, 0.0) + OFFSET) / (max(inn, 0.0) + OFFSET)))


def regraded(events: list[Event], samples: dict[str, np.ndarray],
             scenes: list[Scene]) -> list[Event]:
    """Blur events graded on their sharpness fall (at least the reporting floor); the rest,
    and blur events without footage around them, unchanged."""
    out = []
    for e in events:
        fall = sharpness_fall(e, samples, scenes, [o for o in events if o is not e]) \
            if e.type == "blur" else None
        if fall is not None and fall > 0:
            sev = max(REPORT_SEVERITY, drop_severity(fall, BLUR_DROP))
            e = replace(e, severity=round(sev, 3),
                        evidence={**e.evidence, "sharpness_fall": round(fall, 3),
                                  "rule_severity": e.severity})
        out.append(e)
    return out
