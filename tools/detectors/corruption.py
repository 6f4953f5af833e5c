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
# Severity from the error rate: any logged damage is plainly visible (0.5 and up), rising
# toward 1 with the errors per second (1 - 0.5 exp(-rate / RATE_SCALE)); it keeps growing
# with the rate, so of two damaged stretches the one the decoder struggled with more ranks
# worse (the old ramp 0.5 + 0.1 rate was 1.0 for every stretch above 5 errors/s).
RATE_SCALE = 5.0
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
    # a cluster reaches one chunk past its last logged error (the frames being decoded then):
    # the gap is counted from there (a 12-fps stream damaged throughout logs a line every
    # ~2.7 s, each placed a chunk early, and was cut into overlapping pieces)
    reach = CHUNK_FRAMES / fps if fps > 0 else 0.0
    for i in at[1:]:
        if t[i] - t[clusters[-1][-1]] <= GAP_S + reach:
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
            end_s=round(end, 2), severity=round(float(1.0 - 0.5 * np.exp(-rate / RATE_SCALE)), 3),
            score=round(n_err, 1),
            evidence={"decoder_errors": int(n_err), "errors_per_s": round(rate, 2)},
        ))
    return out


# The picture around a damaged stretch is still unsettled this long (seconds) on each side:
# the decoder conceals from neighbours and the next keyframe may be late.
SETTLE_S = 1.0


def damage_spans(damage: list[Event]) -> list[tuple[float, float]]:
    """The damaged stretches with the unsettled picture around them (SETTLE_S)."""
    return [(e.start_s - SETTLE_S, e.end_s + SETTLE_S) for e in damage]


def inside_spans(t: np.ndarray, spans: list[tuple[float, float]]) -> np.ndarray:
    """Which of the times `t` lie in any of the (start, end) spans, both ends included."""
    inside = np.zeros(len(t), dtype=bool)
    for a, b in spans:
        inside |= (t >= a) & (t <= b)
    return inside


def without_damage_cuts(frames: dict[str, np.ndarray], raw_cuts: list[int],
                        damage: list[Event], corr: np.ndarray | None = None
                        ) -> tuple[list[int], np.ndarray | None]:
    """Shot cuts and frame correlation (`corr`, else the frames' own) with the damaged
    stretches taken out: smeared and grey
    pictures are not new shots, and a scene split there would give the footage after the
    damage a reference of its own."""
    t = np.asarray(frames.get("t", []), dtype=np.float64)
    corr = frames.get("corr") if corr is None else corr
    if not damage or len(t) == 0:
        return list(raw_cuts), corr
    inside = inside_spans(t, damage_spans(damage))
    cuts = [int(c) for c in raw_cuts if not (0 <= int(c) < len(t) and inside[int(c)])]
    if corr is not None and len(corr) == len(t):
        corr = np.where(inside, 1.0, np.asarray(corr, dtype=np.float64))
    return cuts, corr


def explained_by_damage(events: list[Event], damage: list[Event]) -> list[Event]:
    """Events of other types lying mostly inside a damaged stretch are that damage (a smear
    reads as blur, a green slice as a colour shift): they are dropped."""
    spans = damage_spans(damage)

    def inside(e: Event) -> bool:
        length = max(e.end_s - e.start_s, 1e-6)
        return any(min(e.end_s, b) - max(e.start_s, a) >= 0.5 * length for a, b in spans)

    return [e for e in events if e.type == "corruption" or not inside(e)]
