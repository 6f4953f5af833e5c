"""Stream corruption: stretches the decoder could not decode cleanly.

A damaged stream (lost or corrupted packets) decodes into smeared macroblocks, grey or green
slices and wrong content until the next keyframe, and the decoder says so: "error while
decoding MB", "concealing errors", "invalid data". The index records, per frame, how many such
lines the decoder logged while it was delivering that part of the video (placed to within one
decoding chunk); clean footage logs none (every clip of the calibration corpus: 0), so each
cluster of errors is an event. Damage baked into a re-encoded file (no decoder errors left)
is not seen by this detector.
"""

from __future__ import annotations

import numpy as np

from tools.model import Event

# Errors this close together are one damaged stretch (seconds).
GAP_S = 2.0
# The decoder runs ahead of the frames delivered by up to one chunk of the decoding pass.
CHUNK_FRAMES = 32


def corruption_events(frames: dict[str, np.ndarray], fps: float) -> list[Event]:
    """One event per cluster of logged decoder errors."""
    errs = np.asarray(frames.get("decode_errors", []), dtype=np.float64)
    t = np.asarray(frames.get("t", []), dtype=np.float64)
    if len(errs) == 0 or len(t) != len(errs) or not errs.any():
        return []
    at = np.flatnonzero(errs > 0)
    clusters: list[list[int]] = [[int(at[0])]]
    for i in at[1:]:
        if t[i] - t[clusters[-1][-1]] <= GAP_S:
            clusters[-1].append(int(i))
        else:
            clusters.append([int(i)])
    out = []
    step = 1.0 / fps
    for cl in clusters:
        a = cl[0]
        b = min(len(t) - 1, cl[-1] + CHUNK_FRAMES)
        start, end = float(t[a]), float(t[b] + step)
        n_err = float(errs[cl].sum())
        rate = n_err / max(end - start, step)
        out.append(Event(
            type="corruption", subtype="decoder errors", start_s=round(start, 2),
            end_s=round(end, 2), severity=round(float(np.clip(0.5 + 0.1 * rate, 0, 1)), 3),
            score=round(n_err, 1),
            evidence={"decoder_errors": int(n_err), "errors_per_s": round(rate, 2)},
        ))
    return out
