"""Shake the same picture shows wherever the video replays it: the footage's own motion.

The jitter detector judges a shot's shake against the footage around it (tools/detectors/
jitter.py). In a montage of clips, one hand-held clip (a coin pushed about on a table)
between tripod shots then stands out as camera shake every time the montage comes back to
it. The same picture shown elsewhere (`tools/detectors/twins.py`) says what that picture's
motion is: where, over most of a shake event, the shake level lies within its replays' own
spread of theirs (replays inside the event left out), the shake is the picture's, not a
defect, as `twin_events.contradicted` says of the sample measures. Shake added to one
stretch of a looped clip moves it far above its unshaken replays.
"""

from __future__ import annotations

import numpy as np

from tools.detectors.jitter import VISIBLE_PX, shake_levels
from tools.detectors.twins import MIN_TWINS, reference
from tools.model import Event, Scene


def shake_at_samples(frames: dict[str, np.ndarray], samples: dict[str, np.ndarray],
                     scenes: list[Scene], fps: float) -> np.ndarray:
    """The log shake level (over the visible floor) at each sample's frame; NaN unjudged."""
    ft = np.asarray(frames.get("t", np.zeros(0)), dtype=np.float64)
    st = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    if not len(ft) or not len(st):
        return np.full(len(st), np.nan)
    level = shake_levels(frames, scenes, fps)[0]
    at = np.clip(np.searchsorted(ft, st), 0, len(ft) - 1)
    with np.errstate(invalid="ignore"):
        return np.log(level[at] + VISIBLE_PX)


def replayed_shake(e: Event, shake: np.ndarray, samples: dict[str, np.ndarray],
                   twins: np.ndarray) -> bool:
    """Whether a jitter event's shake is what its picture shows wherever it is replayed:
    over most of the event its level is no further above its twins' median than their own
    spread (twins inside the event left out)."""
    t = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    if e.type != "jitter" or len(t) != len(shake) or twins.shape[1] == 0:
        return False
    inside = (t >= e.start_s) & (t < e.end_s)
    ref, spread = reference(shake, twins, inside)
    d = (shake - ref - spread)[inside]
    judged = np.isfinite(d)
    if judged.sum() < max(MIN_TWINS, 0.5 * inside.sum()):
        return False
    return bool(np.median(d[judged]) <= 0.0)
