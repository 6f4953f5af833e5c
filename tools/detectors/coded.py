"""Coded stretches: block edges appear and grain vanishes together, against the footage
around them, whatever the cuts.

A window re-encoded at a low quality (MPEG-2, MJPEG, H.264 at a high QP) and put back into
its video carries the coder's two marks at once: the 8x8 grid shows (blockiness rises) and
the fine texture is quantised away (the grain measure falls). Content moves either one
alone: a busy shot has more grain than a calm one, an encoder's rate control pulses the
blockiness of a featureless picture for seconds. Here a sample's coding departure is the
*lesser* of the two departures from the footage 8-53 s around it (tools/detectors/stretches),
so only both together count; the scene-relative blocking rule cannot see such a window
when it covers whole shots (a broadcast cutting every 3-5 s). Its limit is calibrated on
clean footage like the other stretches; a stretch must last >= 3 s and have an end inside a
shot (a run of shots that merely looks different is a montage, not a coder).
"""

from __future__ import annotations

import numpy as np

from tools.detectors.calibration import CleanVideo, Quantity, declare, least_quiet, value
from tools.detectors.series import merge_runs, runs
from tools.detectors.stretches import MERGE_S, MIN_STRETCH_S, ROUNDS, departure
from tools.model import Event

# Grain sigma added before the log: below ~0.05 grey levels a picture has no grain left to
# lose (clean cartoons and renders measure 0.00-0.03), so its ratio means nothing there.
GRAIN_OFFSET = 0.05
EDGE_REACH_S = 2.5  # a stretch's edge is placed at the largest coding step this close ...
EDGE_SIDE_S = 1.5  # ... measured between the means of this long before and after it
TIME_EPS_S = 1e-3  # float32 sample times against float64 cut times
# Grey levels added to the macroblock kinks (clipped at 0) before the log, here and in the
# twins' judgement (twin_events): clean encodes read 0.1-0.4, footage whose grain hides its
# grid below 0; an MPEG-2 window over a grainy broadcast went -0.3 -> 2.5.
KINK_OFFSET = 0.5


def coding_measures(samples: dict[str, np.ndarray]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(log blockiness, minus log grain, log macroblock kinks): they rise where a coder has
    been at work (the kinks NaN where the index has none: the blockiness alone is the grid)."""
    if "blockiness" not in samples or "noise" not in samples:
        return None
    blk = np.log(np.maximum(np.asarray(samples["blockiness"], dtype=np.float64), 1e-3))
    grain = -np.log(np.maximum(np.asarray(samples["noise"], dtype=np.float64), 0.0)
                    + GRAIN_OFFSET)
    mb = samples.get("mb")
    kinks = (np.full(len(blk), np.nan) if mb is None else
             np.log(np.maximum(np.asarray(mb, dtype=np.float64), 0.0) + KINK_OFFSET))
    return blk, grain, kinks


def coding_departure(measures: tuple[np.ndarray, ...], step: float,
                     excluded: np.ndarray) -> np.ndarray:
    """Per sample, the lesser of the grid's departure (the blockiness' or the kinks',
    whichever is larger) and the grain's from the footage around it (NaN where either cannot
    be judged); `excluded` samples are no reference."""
    blk, grain, kinks = measures
    return combined(np.fmax(departure(blk, step, +1, excluded),
                            departure(kinks, step, +1, excluded)),
                    departure(grain, step, +1, excluded))


def combined(blk: np.ndarray, grain: np.ndarray) -> np.ndarray:
    """Two moves read as one coding move: the lesser of them (both must move; their mean
    let a blur's grain loss outweigh a chance rise of blockiness, and clean footage reached
    0.91 where it reaches 0.21 with the lesser)."""
    return np.minimum(blk, grain)


def _steps(measures: tuple[np.ndarray, ...], j: int, side: int) -> np.ndarray:
    """How far each measure's mean over the `side` samples from j lies above its mean over
    the `side` samples before j (NaN where either side is unmeasured)."""
    out = np.full(len(measures), np.nan)
    for m, x in enumerate(measures):
        before, after = x[max(0, j - side):j], x[j:j + side]
        before, after = before[np.isfinite(before)], after[np.isfinite(after)]
        if len(before) and len(after):
            out[m] = float(after.mean() - before.mean())
    return out


def _edge(measures: tuple[np.ndarray, ...], i: int, step: float, way: int
          ) -> tuple[int, float]:
    """(sample, lesser step of grid and grain) where the two summed step most `way`
    (+1 up: an onset, -1 down: an end) within EDGE_REACH_S of sample i, between their means
    over EDGE_SIDE_S before and after it (one stray sample is no step)."""
    k = max(1, int(round(EDGE_REACH_S / step)))
    side = max(1, int(round(EDGE_SIDE_S / step)))
    best, at, least = -np.inf, i, -np.inf
    for j in range(max(1, i - k), min(len(measures[0]) - 1, i + k) + 1):
        steps = way * _steps(measures, j, side)
        grid = np.fmax(steps[0], steps[2])
        if np.isfinite([grid, steps[1]]).all() and grid + steps[1] > best:
            best, at, least = float(grid + steps[1]), j, float(combined(grid, steps[1]))
    return at, least


def _across_cut(t: np.ndarray, j: int, cuts: np.ndarray) -> bool:
    """Does a shot cut fall between sample j - 1 and sample j (the step is the cut's)? Sample
    times are stored as float32: a cut at sample j's own frame may read a hair later."""
    return bool(((cuts > t[j - 1] + TIME_EPS_S) & (cuts <= t[j] + TIME_EPS_S)).any())


def coded_stretches(t: np.ndarray, measures: tuple[np.ndarray, ...], limit: float,
                    cuts: list[float], taken: np.ndarray | None = None,
                    ) -> list[tuple[int, int, float, float, float]]:
    """(first sample, end sample, start s, end s, departure) of every coded stretch: the
    coding departure beyond `limit` (judged again without the samples found each round),
    >= MIN_STRETCH_S long, with an end inside a shot where both measures step by `limit`
    at once (a coder switched on or off; content drifts, or moves one measure)."""
    n = len(t)
    if n < 3:
        return []
    step = float(np.median(np.diff(t)))
    base = np.zeros(n, dtype=bool) if taken is None else taken
    flags = np.zeros(n, dtype=bool)
    for _ in range(ROUNDS):
        d = coding_departure(measures, step, base | flags)
        new = np.nan_to_num(d, nan=0.0) > limit
        if (new == flags).all():
            break
        flags = new
    d = coding_departure(measures, step, base | flags)
    flags &= ~base
    cut_times = np.asarray(sorted(cuts), dtype=np.float64)
    out = []
    for a, b in merge_runs(runs(flags), t, gap_s=MERGE_S):
        (i, rise), (j, fall) = _edge(measures, a, step, +1), _edge(measures, b, step, -1)
        start = float(t[i]) if a > 0 else float(t[0])
        end = float(t[j]) if b < n else float(t[-1] + step)
        onset = a > 0 and not _across_cut(t, i, cut_times) and rise >= limit
        offset = b < n and not _across_cut(t, j, cut_times) and fall >= limit
        if end - start < MIN_STRETCH_S or not (onset or offset):
            continue
        inside = d[a:b][np.isfinite(d[a:b])]
        out.append((a, b, start, end, float(np.median(inside)) if len(inside) else limit))
    return out


def _quiet_limit(video: CleanVideo) -> list[float]:
    """The least limit at which this clean video shows no coded stretch."""
    measures = coding_measures(video.samples)
    t = np.asarray(video.samples.get("t", np.zeros(0)), dtype=np.float64)
    if measures is None or len(t) < 3:
        return []
    cuts = [sc.start_s for sc in video.scenes[1:]]
    return [least_quiet(lambda lim: bool(coded_stretches(t, measures, lim, cuts)), 4.0,
                        steps=14)]


LIMIT = declare(Quantity(
    key="compression.coded", measure=_quiet_limit, direction=+1, default=0.2, log=False,
    doc="least coding departure (the lesser of the grid up, log blockiness or log "
        "macroblock kinks, and log grain down against the footage 8-53 s around it) at which "
        "a clean video shows no coded stretch",
))


def coded_events(samples: dict[str, np.ndarray], cuts: list[float],
                 taken: np.ndarray | None = None) -> tuple[list[Event], np.ndarray]:
    """Compression events of the coded stretches, and the samples they cover; `taken`
    samples (other degradations) are neither a reference nor a stretch."""
    t = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    covered = np.zeros(len(t), dtype=bool)
    measures = coding_measures(samples)
    if measures is None or len(t) < 3:
        return [], covered
    limit = value(LIMIT.key)
    events = []
    for a, b, start, end, level in coded_stretches(t, measures, limit, cuts, taken):
        covered[a:b] = True
        sev = float(np.clip(0.3 + 0.7 * (level - limit) / max(2 * limit, 1e-9), 0.3, 1.0))
        blk = np.asarray(samples["blockiness"][a:b], dtype=np.float64)
        grain = np.asarray(samples["noise"][a:b], dtype=np.float64)
        events.append(Event(
            type="compression", subtype="blocking", start_s=round(start, 2),
            end_s=round(end, 2), severity=round(sev, 3), score=round(level / limit, 2),
            evidence={"signal": "blockiness+grain", "departure": round(level, 4),
                      "limit": round(limit, 4),
                      "median_blockiness": round(float(np.nanmedian(blk)), 3),
                      **_kinks(samples, a, b),
                      "median_grain": round(float(np.nanmedian(grain)), 3),
                      "judged_against": "footage around it (across shots)"},
        ))
    return events, covered


def _kinks(samples: dict[str, np.ndarray], a: int, b: int) -> dict[str, float]:
    """The stretch's median macroblock kinks, as evidence (none when not measured)."""
    mb = samples.get("mb")
    part = np.asarray(mb[a:b], dtype=np.float64) if mb is not None else np.zeros(0)
    if not np.isfinite(part).any():
        return {}
    return {"median_kinks": round(float(np.nanmedian(part)), 3)}
