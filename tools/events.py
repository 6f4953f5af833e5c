"""Quality events: anomalies on the timeline, judged against each scene's own baseline.

Spatial detectors work on the per-sample series (a few per second): within each scene, the
reference is the scene's better-quality level, so a degradation that starts or ends inside a
scene stands out as a step; a scene that is degraded throughout joins an adjacent event when
its level matches it. Temporal detectors work on every frame: repeated frames (drops,
stutter), fast brightness oscillation that is not a cut (flicker), and jerky global motion
(jitter).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from tools.model import Event, Scene

# Saturation (0..255) no clean picture reaches: 15,709 clean samples of two NDQA dev sets
# stay <= 187.4.
OVERSATURATED = 190.0
# An event is reported when its severity reaches this (0..1); weaker ones are dropped.
REPORT_SEVERITY = 0.3
# A deviation that lasts less than SHORT_S must be clearly visible (SHORT_SEVERITY) to count:
# brief mild swings are what content does (a cloud, a pan, a face turning), while a
# degradation is either persistent or strong. Repeated frames are exact and exempt.
SHORT_S = 6.0
SHORT_SEVERITY = 0.5
# Mean chroma vector length below which a picture's hue is not judged (a near-grey picture
# has no stable hue: its angle swings with a little noise or lighting). 0.045 on the HSV
# scale it was set on; the Lab chroma vector of the same frames is 1.44x shorter (median
# over the corpus clips), hence 0.031.
HUE_WEAK = 0.031
# ... nor when its colours cancel out: the saturation-weighted hue vector is shorter than
# this share of the mean saturation, so its angle follows the balance of the content (a face
# turning, a pan) rather than a cast. Hue events of four NDQA dev sets whose samples fall
# below 0.35: 17 false, 1 true (a 2-s glimpse); true ones elsewhere keep >= 0.56.
HUE_COHERENCE = 0.35


@dataclass(frozen=True)
class SpatialSpec:
    """How one spatial signal reveals one kind of degradation."""

    type: str
    subtype: str
    signal: str
    direction: int  # +1: worse when higher, -1: worse when lower, 0: either way
    min_delta: float  # smallest deviation (in transformed units) worth reporting
    full_delta: float  # deviation that counts as severity 1
    log: bool = True
    offset: float = 0.0
    # When a scene steps between two levels, its better side is the reference, unless the
    # guard says that side is itself a degradation: (signal, direction, log factor) = the
    # guard signal sits that far the given way on the better side (halo: detail fell there,
    # a smoothed picture has no halo; noise: blocking rose there, compression wipes grain).
    guard: tuple[str, int, float] | None = None
    # False: no plain step reference (noise: blur, compression and noise itself all move the
    # detail ratio, so the better side may be the smoothed one): the better-quality quartile,
    # unless the guard shows the better side is degraded.
    step: bool = True
    # A second signal that must move the same way by at least this factor (log) in the event,
    # against the rest of its scenes: a ratio can swing on a featureless picture, where the
    # amount of detail cannot, and there blur is not visible anyway.
    confirm: tuple[str, float] | None = None
    # The way the confirming signal moves when worse, where not the spec's own (0).
    confirm_direction: int = 0
    # Only a degradation switched on and off abruptly counts (see _paired_steps): for a signal
    # that content moves a lot (native sharpness falls in every pan), only its jumps are news.
    pairs_only: bool = False
    # Smallest jump (x min_delta, at least 1) that opens or closes a paired step (see
    # _change_points), unless the series' own jitter demands more.
    pair_least: float = 1.5
    # An event may reach across cuts: whole scenes joining it when they sit as far off (see
    # _bridge_scenes), a step paired with one in a later shot. Not for a signal whose level is
    # mostly the content's (the orientation of fine detail): each scene on its own.
    across_cuts: bool = True
    # Paired steps must also draw the black and white points towards each other at the onset
    # (and apart at the end): a contrast cut, not a change of exposure or of content.
    squeeze: bool = False
    # The clean level is known outright (no natural picture has isolated black and white
    # pixels; clean footage shows grain sigma <= 0.65): no scene's reference lies beyond it
    # (raw units), so a scene degraded throughout still shows.
    floor: float | None = None
    # Severity from the absolute level in the event, (first visible, severe), on a log scale,
    # where the signal measures what a viewer sees whatever the content (grain sigma, impulse
    # share); else from the deviation against the scene.
    levels: tuple[float, float] | None = None
    # Severity from the absolute level in the event alone, as `levels`, for a signal whose
    # clean level is known but whose deviation saturates (blocking: 2.8 in a slight needle,
    # 3-7 moderate, 9-22 heavy).
    grade: tuple[float, float] | None = None
    # Lone steps whose worse side runs to the shot's cut count too (see _cut_steps).
    cut_steps: bool = False


SPATIAL_SPECS: tuple[SpatialSpec, ...] = (  # in order: earlier ones explain later ones away
    SpatialSpec("exposure", "too bright", "black", +1, 18.0, 120.0, log=False),
    # A slight contrast cut (x0.8: a 0.22 log step) is visible only as an abrupt step: paired
    # steps open from 0.45 x the smallest deviation when the black and white points close in.
    SpatialSpec("exposure", "low contrast", "contrast_range", -1, np.log(1.5), np.log(4.0),
                pair_least=0.45, squeeze=True),
    SpatialSpec(
        "noise", "grain", "noise", +1, np.log(1.6), np.log(6.0), offset=0.3, step=False,
        guard=("blockiness", +1, np.log(2.0)), levels=(3.6, 28.0), floor=1.2,
    ),
    SpatialSpec(
        "noise", "impulse", "impulse", +1, 0.005, 0.05, log=False, step=False, floor=0.0,
        levels=(0.01, 0.25),
    ),
    SpatialSpec("compression", "blocking", "blockiness", +1, np.log(1.35), np.log(3.0),
                floor=2.2, grade=(2.0, 15.0)),
    SpatialSpec("compression", "pixelation", "grid", +1, np.log(1.35), np.log(3.0), floor=2.4,
                grade=(2.0, 14.0)),
    SpatialSpec(
        "colour", "oversaturation", "saturation", +1, np.log(1.3), np.log(3.0), offset=20.0
    ),
    SpatialSpec("colour", "hue shift", "hue", 0, 20.0, 90.0, log=False),
    SpatialSpec(
        "blur", "softness", "detail", -1, np.log(1.15), np.log(1.6), offset=0.01,
        confirm=("sharpness", np.log(1.25)),
    ),
    # Heavy blur (defocus) flattens both scales of the detail ratio alike; native sharpness
    # still collapses, abruptly where the blur starts and ends.
    SpatialSpec(
        "blur", "softness", "sharpness", -1, np.log(2.0), np.log(8.0), offset=1.0,
        pairs_only=True, pair_least=1.0, cut_steps=True,
    ),
    # Motion blur smears detail along one direction: the anisotropy of fine detail rises
    # (0.7 for a slight horizontal smear), and native sharpness must fall with it (a pan, or
    # an object with long straight edges, turns it without blurring anything).
    SpatialSpec(
        "blur", "motion", "aniso", +1, 0.35, 1.2, log=False,
        confirm=("sharpness", np.log(1.15)), confirm_direction=-1, across_cuts=False,
    ),
    SpatialSpec(
        "sharpening", "halo", "halo", +1, np.log(1.8), np.log(4.0), offset=2.0,
        guard=("detail", -1, np.log(1.15)),
    ),
)


# Degradations that, where present, explain away another detector's deviation.
EXPLAINS: dict[str, tuple[str, ...]] = {
    "noise": ("temporal", "sharpening"),
    "exposure": ("temporal",),
    "compression": ("temporal", "noise", "exposure"),
    "colour": ("temporal", "exposure"),
    "blur": ("temporal", "noise", "compression", "exposure"),
    "sharpening": ("temporal", "noise", "compression"),
}


def _scene_ids(t: np.ndarray, scenes: list[Scene]) -> np.ndarray:
    starts = np.array([s.start_s for s in scenes]) if scenes else np.zeros(1)
    return np.clip(np.searchsorted(starts, t, side="right") - 1, 0, max(0, len(scenes) - 1))


def _series(samples: dict[str, np.ndarray], spec: SpatialSpec) -> np.ndarray:
    if spec.signal == "hue":
        return np.degrees(np.arctan2(samples["hue_y"], samples["hue_x"])).astype(np.float64)
    x = samples[spec.signal].astype(np.float64)
    return np.log(np.maximum(x + spec.offset, 1e-6)) if spec.log else x


def _deviation(x: np.ndarray, ref: float, spec: SpatialSpec) -> np.ndarray:
    if spec.signal == "hue":
        return np.abs((x - ref + 180.0) % 360.0 - 180.0)
    d = x - ref
    return np.abs(d) if spec.direction == 0 else spec.direction * d


def _flip_if_framed(x, dev, ref, spec) -> tuple[float, np.ndarray]:
    """A two-sided signal flagged at both ends of a scene but not in its middle: the ends are
    the scene's normal look and the middle is the shift, so measure against the ends."""
    flagged = np.nan_to_num(dev, nan=0.0) > spec.min_delta
    runs = _runs(flagged)
    if len(runs) >= 2 and runs[0][0] == 0 and runs[-1][1] == len(x):
        ends = np.concatenate([x[a:b] for a, b in (runs[0], runs[-1])])
        new_ref = _typical(ends, spec)
        return new_ref, _deviation(x, new_ref, spec)
    return ref, dev


def _reference(
    x: np.ndarray, spec: SpatialSpec, typical: float, guard: np.ndarray | None = None,
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
        q = float(np.percentile(x, 75 if spec.direction < 0 else 25))
        split = _step_split(x, spec)
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
            sharpened = detail is not None and _sharpened(
                {n: v[ok] for n, v in detail.items()},
                sides if better_left else ~sides, ~sides if better_left else sides,
            ) is not None
            if gap >= factor and not sharpened:
                return right if better_left else left  # the better side is a degraded one
        if not spec.step:
            return q
        best = left if better_left else right
        return max(q, best) if spec.direction < 0 else min(q, best)
    if spec.signal == "hue":
        # quintiles around the scene's own circular centre (angles taken around the typical
        # level would wrap at +-180 for a scene lying opposite it, and interpolate across)
        centre = _typical(x, spec)
        lo, hi = centre + np.percentile(_signed(x - centre, spec), [20, 80])
        near = [abs(float(_signed(v - typical, spec))) for v in (lo, hi)]
        return float(_signed(lo if near[0] <= near[1] else hi, spec))
    lo, hi = np.percentile(x, [20, 80])
    return float(lo if abs(lo - typical) <= abs(hi - typical) else hi)


def _step_split(x: np.ndarray, spec: SpatialSpec, min_side: int = 4):
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


def _signed(d, spec: SpatialSpec):
    """A difference (scalar or array) wrapped to -180..180 degrees for hue, else as is."""
    return (d + 180.0) % 360.0 - 180.0 if spec.signal == "hue" else d


def _typical(x: np.ndarray, spec: SpatialSpec) -> float:
    """Video-wide typical level (circular for hue)."""
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return float("nan")
    if spec.signal == "hue":
        ang = np.radians(x)
        return float(np.degrees(np.arctan2(np.median(np.sin(ang)), np.median(np.cos(ang)))))
    return float(np.median(x))


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) index pairs of consecutive True values."""
    if not mask.any():
        return []
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True))


def _smooth_mask(mask: np.ndarray, width: int = 3) -> np.ndarray:
    """Majority vote over `width` samples: drops isolated blips, fills single gaps."""
    if len(mask) < width:
        return mask
    k = np.convolve(mask.astype(np.float64), np.ones(width), mode="same")
    return k >= (width // 2 + 1)


def _ramp(value: float, lo: float, hi: float) -> float:
    """0.2 at `lo`, 1.0 at `hi`, linear between, clipped to 0..1."""
    return float(np.clip(0.2 + 0.8 * (value - lo) / max(hi - lo, 1e-9), 0.0, 1.0))


def _severity(dev: float, spec: SpatialSpec) -> float:
    return _ramp(dev, spec.min_delta, spec.full_delta)


def _spatial_events(
    samples: dict[str, np.ndarray],
    scenes: list[Scene],
    spec: SpatialSpec,
    explained: np.ndarray | None = None,
) -> tuple[list[Event], np.ndarray]:
    """Events of one spec, and the mask of samples they cover.

    `explained` marks samples already attributed to another degradation (noise raises the
    Laplacian, blocking adds edges, low contrast flattens it): they neither set this spec's
    baseline nor raise its events.
    """
    t = samples["t"]
    none = np.zeros(len(t), dtype=bool)
    if len(t) < 3 or (spec.signal != "hue" and spec.signal not in samples):
        return [], none
    explained = none if explained is None else explained
    x = _series(samples, spec)
    guard = None
    if spec.guard is not None and spec.guard[0] in samples:
        guard = np.log(np.maximum(samples[spec.guard[0]].astype(np.float64), 0) + 0.01)
    detail = None
    if spec.type == "sharpening" and all(n in samples for n in SHARPNESS_SIGNALS):
        detail = {n: samples[n].astype(np.float64) for n in SHARPNESS_SIGNALS}
    if spec.signal == "hue":
        length = np.hypot(samples["hue_x"], samples["hue_y"])
        weak = (length < HUE_WEAK) | (length < HUE_COHERENCE * samples["saturation"] / 255.0)
        x = np.where(weak, np.nan, x)
    sid = _scene_ids(t, scenes)
    dev = np.full(len(t), np.nan)
    refs = np.full(len(scenes) or 1, np.nan)
    # Oversaturated samples (colours clipped flat: darker, fewer edges and block borders) are
    # never another measure's clean reference.
    if spec.signal != "saturation" and "saturation" in samples:
        explained_ref = explained | (np.nan_to_num(samples["saturation"]) > OVERSATURATED)
    else:
        explained_ref = explained
    typical = _typical(x[~explained], spec)
    for s in np.unique(sid):
        sel = sid == s
        base = sel & ~explained_ref
        if base.sum() < 3:
            continue
        refs[s] = _reference(x[base], spec, typical, guard[base] if guard is not None else None,
                             {n: detail[n][base] for n in detail} if detail else None)
        if spec.floor is not None:
            floor = float(np.log(spec.floor + spec.offset)) if spec.log else spec.floor
            refs[s] = min(refs[s], floor) if spec.direction > 0 else max(refs[s], floor)
        dev[sel] = _deviation(x[sel], refs[s], spec)
        if spec.direction == 0:
            refs[s], dev[sel] = _flip_if_framed(x[sel], dev[sel], refs[s], spec)
    # The series' own jitter (sample to sample, within scenes) sets a noise floor.
    same = sid[1:] == sid[:-1]
    steps = np.abs(np.diff(x))[same]
    steps = steps[np.isfinite(steps)]
    if spec.signal == "hue":
        steps = np.minimum(steps, 360 - steps)
    sigma = 1.4826 * float(np.median(steps)) if len(steps) else 0.0
    thr = max(spec.min_delta, 3.0 * sigma)
    flag = _smooth_mask((np.nan_to_num(dev, nan=0.0) > thr) & ~explained)
    absolute = _beyond_clean(samples, spec)
    if absolute is not None:  # plainly outside clean footage, whatever the scene does
        flag |= absolute & ~explained
        floor_dev = _deviation(x, float(np.log(spec.floor + spec.offset)), spec)
        dev = np.where(absolute, np.fmax(np.nan_to_num(dev, nan=0.0), floor_dev), dev)
    if spec.pairs_only:
        flag, dev = none.copy(), np.full(len(t), np.nan)
    elif spec.across_cuts:
        flag, dev = _bridge_scenes(flag, x, sid, refs, dev, spec, thr)
        flag, dev = _sandwich(flag, dev, x, sid, refs, t, spec, thr)
    cuts = [sc.start_s for sc in scenes[1:]]
    paired = none.copy()
    edges_read = spec.direction == 0 or spec.pairs_only  # see _edge_steps
    points = _change_points(x, sid, t, cuts, spec, 3.0 * sigma, explained) \
        if spec.across_cuts or edges_read else []
    pairs = _paired_steps(points, x, sid, t, spec, samples) if spec.across_cuts else []
    for a, b, size in pairs:
        flag[a:b] = paired[a:b] = True
        dev[a:b] = np.fmax(dev[a:b], size)
    lone = _edge_steps(points, pairs, x, sid, t, spec) if edges_read else []
    if spec.cut_steps:
        lone += _cut_steps(points, pairs, lone, x, sid, t, spec, samples)
    for a, b, c, d, size in lone:
        flag[a:b] = paired[a:b] = True
        dev[a:b] = np.fmax(dev[a:b], size)
        flag[c:d] = False  # the scene's other side is its clean look
    flag &= ~explained
    step = float(np.median(np.diff(t))) if len(t) > 1 else 0.5
    events = []
    covered = none.copy()
    for a, b in _merge_runs(_runs(flag), t, gap_s=2.0):
        if t[b - 1] - t[a] + step < 1.5:
            continue
        d = dev[a:b][flag[a:b]]
        level = float(np.median(d[np.isfinite(d)])) if np.isfinite(d).any() else 0.0
        sev = _severity(level, spec)
        if paired[a:b].mean() >= 0.5:  # switched on and off inside shots: visible, if mild
            sev = max(sev, REPORT_SEVERITY)
        drop = None
        if spec.type == "blur":  # severity from the sharpness drop, where a scene shows it
            drop = level if spec.pairs_only else _confirm_drop(samples, spec, flag, sid, a, b)
        if drop is not None:
            by_drop = _ramp(drop, *BLUR_DROP)
            # how clearly it stands out: either measure (what _convincing asks of brief ones)
            strength, sev = max(sev, by_drop), max(by_drop, REPORT_SEVERITY)
        else:
            strength = sev
        plain = absolute is not None and absolute[a:b].mean() >= 0.5
        if plain:
            strength = max(strength, REPORT_SEVERITY)
        if strength < REPORT_SEVERITY or not _confirmed(samples, spec, flag, sid, a, b):
            continue
        raw = samples[spec.signal][a:b] if spec.signal in samples else x[a:b]
        if spec.levels is not None and spec.floor is not None and (
            spec.direction * (np.nanmedian(raw) - spec.floor) <= 0
        ):
            continue  # an absolute measure within what clean footage shows: not visible
        covered[a:b] = True
        if spec.levels is not None or spec.grade is not None:
            sev = max(REPORT_SEVERITY, _level_severity(float(np.nanmedian(raw)),
                                                       spec.levels or spec.grade))
            if spec.levels is not None or plain:
                strength = sev  # the absolute level is also how clearly it shows
        events.append(
            Event(
                type=spec.type,
                subtype=spec.subtype,
                start_s=round(float(t[a]), 2),
                end_s=round(float(t[b - 1] + step), 2),
                severity=round(sev, 3),
                score=round(level / max(sigma, spec.min_delta / 3.0), 2),
                evidence={
                    "signal": spec.signal,
                    "median_in_event": round(float(np.nanmedian(raw)), 4),
                    "scene_baseline": round(_baseline_raw(spec, refs, sid, a, b), 4),
                    "deviation": round(level, 4),
                    "samples": int(b - a),
                    **({"strength": round(strength, 3)} if round(strength, 3) != round(sev, 3)
                       else {}),
                },
            )
        )
    return events, covered


# Blocking and pixelation measures never pass their floor in clean footage (per sample, 8033
# clean samples of an NDQA dev set: blockiness <= 2.27, grid <= 2.47); this far beyond it,
# samples are flagged outright, so a coded stretch filling most of its scene still shows.
ABSOLUTE_MARGIN = 1.1


def _beyond_clean(samples: dict[str, np.ndarray], spec: SpatialSpec) -> np.ndarray | None:
    """Samples plainly beyond a graded spec's clean floor (None for other specs)."""
    if spec.grade is None or spec.floor is None or spec.signal not in samples:
        return None
    raw = np.nan_to_num(samples[spec.signal].astype(np.float64), nan=0.0)
    return _smooth_mask(spec.direction * (raw - spec.floor * ABSOLUTE_MARGIN) > 0)


def _level_severity(value: float, levels: tuple[float, float]) -> float:
    """0.2 at the first visible level, 1.0 at the severe one, log-linear between."""
    lo, hi = levels
    f = np.log(max(value, 1e-12) / lo) / np.log(hi / lo)
    return float(np.clip(0.2 + 0.8 * f, 0.0, 1.0))


def _confirm_moves(samples, spec: SpatialSpec, flag, sid, a: int, b: int,
                   min_inside: int = 1) -> list[float]:
    """Per scene the run [a, b) touches: how far (log, worse-ward) the spec's confirming
    signal in the run lies from the unflagged rest of that scene (scenes with fewer than 3
    such samples, or fewer than `min_inside` in the run, have nothing to compare)."""
    if spec.confirm is None or spec.confirm[0] not in samples:
        return []
    y = np.log(np.maximum(samples[spec.confirm[0]].astype(np.float64), 0) + 1.0)
    moves = []
    for k in np.unique(sid[a:b]):
        inside = y[a:b][(sid[a:b] == k) & np.isfinite(y[a:b])]
        outside = y[(sid == k) & ~flag & np.isfinite(y)]
        if len(outside) >= 3 and len(inside) >= max(min_inside, 1):
            way = spec.confirm_direction or spec.direction
            moves.append(float(way * (np.median(inside) - np.median(outside))))
    return moves


def _confirmed(samples, spec: SpatialSpec, flag, sid, a: int, b: int) -> bool:
    """Does the spec's confirming signal differ the same way between the run [a, b) and the
    unflagged rest of one of the scenes it touches? (True when there is nothing to compare.)"""
    moves = _confirm_moves(samples, spec, flag, sid, a, b)
    return not moves or max(moves) >= spec.confirm[1]


def _confirm_drop(samples, spec: SpatialSpec, flag, sid, a: int, b: int) -> float | None:
    """The largest move of the confirming signal in the event against the unflagged rest of
    a scene it touches (3 samples each side at least); None when no scene has one."""
    moves = _confirm_moves(samples, spec, flag, sid, a, b, min_inside=3)
    return max(moves) if moves else None


# Blur severity from how far native sharpness falls (log): the detail ratio finds blur but
# saturates, while the sharpness drop grows with the blur (slight blur about 0.4-0.8,
# moderate 0.8-1.7, heavy beyond 2 on the table-S5 levels of 204 test needles).
BLUR_DROP = (np.log(1.25), 2.5)


def _baseline_raw(spec, refs, sid, a, b) -> float:
    vals = [refs[k] for k in np.unique(sid[a:b]) if np.isfinite(refs[k])]
    r = vals[0] if vals else float("nan")
    if spec.signal == "hue" or not spec.log:
        return float(r)
    return float(np.exp(r) - spec.offset)


def _merge_runs(runs: list[tuple[int, int]], t: np.ndarray, gap_s: float) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for a, b in runs:
        if merged and t[a] - t[merged[-1][1] - 1] <= gap_s:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged


def _bridge_scenes(flag, x, sid, refs, dev, spec, thr) -> tuple[np.ndarray, np.ndarray]:
    """Extend a run that reaches a cut over the next scene when that whole scene is at least
    as far from the run's own scene baseline as the run is (a degradation spanning the cut),
    and that scene has no baseline of its own (too short) or is the first or last one.
    Bridged samples get their deviation measured against that baseline."""
    flag, dev = flag.copy(), dev.copy()
    n = len(flag)
    n_scenes = int(sid.max()) + 1 if n else 0
    for _ in range(4):
        changed = False
        for a, b in _runs(flag):
            for edge, nxt in ((b - 1, b), (a, a - 1)):
                if not (0 <= nxt < n) or sid[nxt] == sid[edge] or flag[nxt]:
                    continue
                if np.isfinite(refs[sid[nxt]]) and 0 < sid[nxt] < n_scenes - 1:
                    continue  # judged on its own baseline; whole middle scenes: _sandwich
                base = refs[sid[edge]]
                other = sid == sid[nxt]
                other_level = np.nanmedian(x[other]) if np.isfinite(x[other]).any() else np.nan
                run_dev = np.nanmedian(dev[a:b])
                if not (np.isfinite(other_level) and np.isfinite(base) and np.isfinite(run_dev)):
                    continue
                if run_dev < thr:
                    continue  # only a clear degradation is followed across a cut
                other_dev = _deviation(np.array([other_level]), base, spec)[0]
                # as far off as the run, but not wildly further (that is other content)
                far = max(thr, 0.6 * run_dev) < other_dev < 3.0 * run_dev + thr
                if spec.direction == 0:
                    # Two-sided signals (hue, saturation) must also move the same way.
                    run_level = np.nanmedian(x[a:b])
                    far = far and abs(float(_signed(other_level - run_level, spec))) < max(
                        thr, 0.5 * run_dev
                    )
                if far:
                    flag[other] = True
                    dev[other] = _deviation(x[other], base, spec)
                    changed = True
        if not changed:
            break
    return flag, dev


def _sandwich(flag, dev, x, sid, refs, t, spec, thr, max_gap_s: float = 30.0):
    """Join a run that ends at a cut with a later run that starts at a cut when only whole
    scenes lie between them and those scenes sit as far from the first run's baseline as a
    degradation would: one degradation covering them entirely (whose level a scene-relative
    baseline cannot see) is far likelier than two stopping at cuts by chance."""
    flag, dev = flag.copy(), dev.copy()
    runs = _runs(flag)
    for (_, b0), (a1, _) in zip(runs[:-1], runs[1:], strict=True):
        ends_at_cut = b0 < len(sid) and sid[b0] != sid[b0 - 1]
        starts_at_cut = a1 > 0 and sid[a1] != sid[a1 - 1]
        if not (ends_at_cut and starts_at_cut and t[a1] - t[b0 - 1] <= max_gap_s):
            continue
        base = refs[sid[b0 - 1]]
        between = _deviation(x[b0:a1], base, spec)
        if np.isfinite(base) and np.nanmedian(between) >= thr:
            flag[b0:a1] = True
            dev[b0:a1] = between
    return flag, dev


# A needle's onset and its end, paired across any cuts between them, at most this far apart.
PAIR_MAX_S = 90.0
# Samples this close to a cut may show the other shot (cut times are frame-exact, motion
# blur and encoder refresh are not): they never mark a level change.
CUT_GUARD_S = 0.2


def _toward(x: np.ndarray, level: float, sign: float, spec: SpatialSpec) -> np.ndarray:
    """How far each value lies from `level` in the direction `sign` (circular for hue)."""
    return np.sign(sign) * _signed(x - level, spec)


def _change_points(x, sid, t, cuts, spec, jitter, explained, reach: int = 3) -> list[tuple]:
    """Abrupt level changes inside scenes: (index of the first changed sample, signed size,
    level before), the size positive towards worse for one-sided signals. Content drifts
    inside a shot, while a degradation switched on or off jumps between two samples from one
    steady level to another; up to `reach` samples on each side give the levels. A change
    must pass the series' `jitter` and `pair_least` x the spec's smallest deviation."""
    n = len(x)
    near = np.zeros(n, dtype=bool)
    for c in cuts:
        near |= np.abs(t - c) < CUT_GUARD_S
    usable = ~near & ~explained & np.isfinite(x)
    least = max(jitter, spec.pair_least * spec.min_delta)
    # Only a jump between neighbours of at least 0.8 x the smallest size can qualify.
    with np.errstate(invalid="ignore"):
        jumps = np.abs(_signed(np.diff(x), spec)) >= 0.8 * least
    candidates = np.flatnonzero(jumps & (sid[1:] == sid[:-1]) & usable[1:] & usable[:-1]) + 1
    found: list[tuple] = []
    for i in candidates:
        lo, hi = i - 1, i + 1
        while lo > 0 and i - lo < reach and sid[lo - 1] == sid[i] and usable[lo - 1]:
            lo -= 1
        while hi < n and hi - i < reach and sid[hi] == sid[i] and usable[hi]:
            hi += 1
        # A lone sample on one side counts only when a cut bounds it, not a gap in the data.
        if (i - lo == 1 and lo > 0 and sid[lo - 1] == sid[i] and not near[lo - 1]) or (
            hi - i == 1 and hi < n and sid[hi] == sid[i] and not near[hi]
        ):
            continue
        ref = float(x[i - 1])
        pre, post = _signed(x[lo:i] - ref, spec), _signed(x[i:hi] - ref, spec)
        a, b = float(np.median(pre)), float(np.median(post))
        size = b - a
        jump = float(post[0] - pre[-1])
        steady = max(np.abs(pre - a).max(), np.abs(post - b).max())
        if abs(size) < least or abs(jump) < 0.8 * abs(size):
            continue
        if steady > 0.35 * abs(size):
            continue
        signed = size * spec.direction if spec.direction != 0 else size
        if found and found[-1][0] == i - 1:  # one change seen from two samples: keep the larger
            if abs(signed) <= abs(found[-1][1]):
                continue
            found.pop()
        found.append((i, signed, float(_signed(ref + a, spec)), float(_signed(ref + b, spec))))
    return found


def _squeezes(samples: dict[str, np.ndarray], i: int, sign: float, reach: int = 3) -> bool:
    """Whether the black and white points move towards each other (sign +1) or apart (-1)
    at sample i: medians of up to `reach` samples on each side."""
    if "black" not in samples or "white" not in samples:
        return True
    lo, hi = max(0, i - reach), min(len(samples["t"]), i + reach)

    def move(name: str) -> float:
        return float(np.median(samples[name][i:hi]) - np.median(samples[name][lo:i]))

    return sign * move("black") > 0 and sign * move("white") < 0


def _paired_steps(points, x, sid, t, spec,
                  samples: dict[str, np.ndarray] | None = None) -> list[tuple[int, int, float]]:
    """[start, end) sample ranges between an abrupt onset and the next abrupt change back by
    a similar amount (a needle degradation switched on and off), with its size; `points` are
    the series' change points (_change_points). The parts of the two end scenes inside the
    range must stay off their clean level; whole scenes in between are included, since only
    the ends of such a degradation are visible against a scene's own content."""
    out = []
    for (i, s1, pre1, _), (j, s2, _, post2) in zip(points[:-1], points[1:], strict=True):
        onset = s1 > 0 if spec.direction != 0 else True
        if not onset or s1 * s2 >= 0:
            continue
        if not (0.5 <= abs(s2) / abs(s1) <= 2.0 and 1.5 <= t[j] - t[i] <= PAIR_MAX_S):
            continue
        sign = s1 * spec.direction if spec.direction != 0 else s1
        held = True
        for k, clean, size in ((sid[i], pre1, s1), (sid[j], post2, s2)):
            part = np.arange(i, j)[(sid[i:j] == k) & np.isfinite(x[i:j])]
            off = _toward(x[part], clean, sign, spec) >= 0.5 * abs(size)
            held = held and (len(part) == 0 or off.mean() >= 0.8)
        if held and spec.squeeze and samples is not None:
            held = _squeezes(samples, i, +1) and _squeezes(samples, j, -1)
        if held:
            out.append((i, j, float(min(abs(s1), abs(s2)))))
    return out


# A two-sided signal (hue) that steps once inside a shot does not tell which side is the
# degraded one, and a signal read only from its steps (native sharpness) needs both ends. A
# lone step this near the start (end) of the video, with no partner, is a degradation that
# runs from the video's first frame (to its last): its other end is the edge. (30 s, and at
# most a sixth of the video: the last sixth of a 3-min video, where a degradation that
# worsens in steps ends; 20 s missed the last step of a hue turning further at 105 s and
# 150 s of 180.)
EDGE_PAIR_MAX_S = 30.0
EDGE_MIN_SAMPLES = 3


def _edge_steps(points, pairs, x, sid, t, spec) -> list[tuple[int, int, int, int, float]]:
    """(degraded start, end, clean start, end, size): from the video's start to the first
    change point (of `points`) that no pair uses, and the rest of that change's scene as the
    clean side; or from the last such point to the video's end, the scene before it clean.
    The degraded part of the change's scene must stay off the clean level, as for paired
    steps. Read for two-sided signals and for those read only from their steps."""
    used = {k for i, j, _ in pairs for k in (i, j)}
    out = []
    edges = [(False, points[0]), (True, points[-1])] if points else []
    # (at most a sixth of the video: in a short one, a step halfway is no edge's)
    reach = min(EDGE_PAIR_MAX_S, (t[-1] - t[0]) / 6) if len(t) else 0.0
    for end, (i, size, pre, post) in edges:
        if i in used or (t[-1] - t[i] if end else t[i] - t[0]) > reach:
            continue
        if spec.direction != 0 and (size > 0) != end:  # one-sided: an onset runs to the end
            continue
        used.add(i)  # a lone step near both edges (a short video) is read once
        # the video's edge pairs with a step only when the step's shot shows a stretch of it
        # off the clean level, and a stretch at it
        step = _lone_step((i, size, pre, post), end, len(t) if end else 0, x, sid, spec)
        if step is not None:
            out.append(step)
    return out


def _lone_step(point, after: bool, stop: int, x, sid,
               spec) -> tuple[int, int, int, int, float] | None:
    """(degraded start, end, clean start, end, size) of a change point read alone: degraded
    from the step to sample `stop` (after it, or before it when not `after`), clean over the
    rest of the step's shot. None unless the degraded part inside the shot stays off the
    clean level and the clean side at it (80 % of their samples, EDGE_MIN_SAMPLES each)."""
    i, size, pre, post = point
    scene = np.flatnonzero(sid == sid[i])
    raw = size * (spec.direction or 1)  # the signed change in the series' own units
    if after:
        bad, clean, level, toward = (i, stop), (int(scene[0]), i), pre, raw
    else:
        bad, clean, level, toward = (stop, i), (i, int(scene[-1]) + 1), post, -raw
    part = np.arange(*bad)[(sid[bad[0]:bad[1]] == sid[i]) & np.isfinite(x[bad[0]:bad[1]])]
    rest = np.arange(*clean)[np.isfinite(x[clean[0]:clean[1]])]
    if min(len(part), len(rest)) < EDGE_MIN_SAMPLES or (
            _toward(x[part], level, toward, spec) >= 0.5 * abs(size)).mean() < 0.8 or (
            _toward(x[rest], level, toward, spec) < 0.5 * abs(size)).mean() < 0.8:
        return None
    return (*bad, *clean, float(abs(size)))


# A degradation switched on or off at a cut shows only its other end, inside the shot: a
# lone step of a one-sided signal whose worse side runs from the step to the shot's cut,
# steady all the way, while the better side stays at its level (a needle that begins with a
# shot and ends halfway through it). Content moves native sharpness in pans and focus pulls,
# but not abruptly from one steady level to another.
CUT_STEP_COLOUR = 1.5


def _colour_jump(samples: dict[str, np.ndarray], i: int, reach: int = 3) -> bool:
    """Whether saturation jumps at sample i by CUT_STEP_COLOUR or more (medians of up to
    `reach` samples each side): a colour change (oversaturation switched off clips fewer
    edges) moves the Laplacian too, and is no blur's end."""
    if "saturation" not in samples:
        return False
    sat = samples["saturation"]
    lo, hi = max(0, i - reach), min(len(sat), i + reach)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        a, b = float(np.nanmedian(sat[lo:i])), float(np.nanmedian(sat[i:hi]))
    return bool(np.isfinite(a) and np.isfinite(b)) and \
        abs(np.log((b + 20.0) / (a + 20.0))) >= np.log(CUT_STEP_COLOUR)


def _cut_steps(points, pairs, edges, x, sid, t, spec,
               samples: dict[str, np.ndarray]) -> list[tuple[int, int, int, int, float]]:
    """(degraded start, end, clean start, end, size) of lone change points (of `points`, used
    by no pair nor edge step) whose degraded side reaches the cut of the change's shot."""
    used = {k for i, j, _ in pairs for k in (i, j)}
    taken = [(a, b) for a, b, *_ in edges]
    out = []
    for point in points:
        i, size = point[:2]
        if i in used or spec.direction == 0 or any(a <= i < b for a, b in taken):
            continue
        scene = np.flatnonzero(sid == sid[i])
        onset = size > 0  # worse after the step: degraded to the shot's end
        step = _lone_step(point, onset, int(scene[-1]) + 1 if onset else int(scene[0]),
                          x, sid, spec)
        if step is not None and not _colour_jump(samples, i):
            out.append(step)
    return out


# ---------------------------------------------------------------- temporal


# Frames whose pixels spread less than this (grey-level standard deviation) are blank.
FLAT_STD = 3.0


def _frozen(diff: np.ndarray, sid: np.ndarray) -> np.ndarray:
    """Frames that repeat the previous one: no change at all, far below the scene's own
    frame-to-frame change (a static shot still shows camera noise, a repeated frame does not)."""
    out = np.zeros(len(diff), dtype=bool)
    for s in np.unique(sid):
        sel = sid == s
        d = diff[sel]
        typical = float(np.nanmedian(d)) if np.isfinite(d).any() else 0.0
        thr = min(0.08, 0.25 * typical)
        out[sel] = np.nan_to_num(d, nan=1.0) <= thr
    return out


STUTTER_LONG_SHARE = 0.6
STUTTER_FREEZE = 10  # frames


def _freeze_events(frames: dict[str, np.ndarray], sid: np.ndarray, fps: float) -> list[Event]:
    t = frames["t"]
    frozen = _frozen(frames["diff"], sid)
    if "contrast" in frames:  # a blank picture (washed out, black) repeats itself: not a freeze
        frozen &= ~(np.nan_to_num(frames["contrast"], nan=255.0) < FLAT_STD)
    runs = [(a, b) for a, b in _runs(frozen) if (b - a) <= 2.5 * fps]  # longer: still content
    if not runs:
        return []
    clusters: list[list[tuple[int, int]]] = []
    for run in runs:
        if clusters and t[run[0]] - t[clusters[-1][-1][1] - 1] <= 2.5:
            clusters[-1].append(run)
        else:
            clusters.append([run])
    events = []
    for cl in clusters:
        lengths = np.array([b - a for a, b in cl])
        held = int(lengths.sum())
        if len(cl) < 3 and lengths.max() < 4:
            continue
        start, end = int(cl[0][0]), int(cl[-1][1])
        span = max(1, end - start)
        # Stutter: holds of 4+ frames are the rule, or most of the held time lies in them and
        # one freeze lasts 10+ frames (a long freeze broken into pieces by coding noise; frame
        # drops keep 0-0.48 of their held time in 4+-frame holds over 24 needles of five NDQA
        # sets, and a short burst of them with a few 4-7-frame holds is no freeze); its
        # severity from how long a held frame typically stays frozen (weighted by frames held).
        long_holds = lengths >= 4
        long_share = float(lengths[long_holds].sum()) / max(held, 1)
        kind = "stutter" if np.median(lengths) >= 4 or long_holds.mean() > 0.5 or (
            long_share > STUTTER_LONG_SHARE and lengths.max() >= STUTTER_FREEZE) else "frame_drop"
        share = held / span
        typical_hold = float((lengths ** 2).sum()) / max(held, 1)
        raw = 0.2 + 1.6 * share if kind == "frame_drop" else 0.3 + typical_hold / 30
        sev = float(np.clip(raw, 0, 1))
        events.append(
            Event(
                type=kind,
                subtype="repeated frames",
                start_s=round(float(t[max(0, start - 1)]), 2),
                end_s=round(float(t[min(len(t) - 1, end)] if end < len(t) else t[-1]), 2),
                severity=round(sev, 3),
                score=round(float(held), 1),
                evidence={
                    "repeated_frames": held,
                    "holds": len(cl),
                    "median_hold_frames": float(np.median(lengths)),
                    "longest_hold_s": round(float(lengths.max() / fps), 3),
                    "share_repeated": round(share, 3),
                },
            )
        )
    return events


def _rolling(x: np.ndarray, width: int, fn=np.nanmean) -> np.ndarray:
    """Centered rolling statistic over `width` frames (edges use what is there)."""
    n = len(x)
    if n == 0:
        return x
    half = width // 2
    pad = np.concatenate([np.full(half, np.nan), x, np.full(width - half - 1, np.nan)])
    view = np.lib.stride_tricks.sliding_window_view(pad, width)
    with warnings.catch_warnings():  # all-NaN windows give NaN, as intended
        warnings.simplefilter("ignore", RuntimeWarning)
        return fn(view, axis=1)


def _near_cut(n: int, scenes: list[Scene], reach: int = 3) -> np.ndarray:
    mask = np.zeros(n, dtype=bool)
    for s in scenes[1:]:
        mask[max(0, s.start_frame - reach) : min(n, s.start_frame + reach)] = True
    return mask


def _interval_events(
    score: np.ndarray,
    active: np.ndarray,
    t: np.ndarray,
    fps: float,
    kind: str,
    subtype: str,
    full: float,
    evidence_name: str,
    min_s: float = 0.8,
) -> list[Event]:
    events = []
    step = 1.0 / fps
    for a, b in _merge_runs(_runs(active), t, gap_s=1.0):
        if t[b - 1] - t[a] + step < min_s:
            continue
        level = float(np.nanmedian(score[a:b]))
        sev = float(np.clip(0.2 + 0.8 * level / full, 0, 1))
        events.append(
            Event(
                type=kind,
                subtype=subtype,
                start_s=round(float(t[a]), 2),
                end_s=round(float(t[b - 1] + step), 2),
                severity=round(sev, 3),
                score=round(level, 3),
                evidence={evidence_name: round(level, 3), "frames": int(b - a)},
            )
        )
    return events


def _flicker_events(frames, scenes, sid, fps) -> list[Event]:
    """Brightness that swings up and down from frame to frame (not a cut, not motion)."""
    m = frames["luma"].astype(np.float64)
    n = len(m)
    if n < 5:
        return []
    hp = np.zeros(n)
    hp[1:-1] = np.abs(m[1:-1] - 0.5 * (m[:-2] + m[2:]))
    dm = np.abs(np.diff(m, prepend=m[0]))
    diff = np.nan_to_num(frames["diff"], nan=0.0)
    glob = dm / np.maximum(diff, 1e-3)  # 1.0 when the whole picture brightens or darkens
    hit = (hp > 1.5) & (glob > 0.45) & ~_near_cut(n, scenes)
    density = _rolling(hit.astype(np.float64), max(3, int(round(fps))))
    active = _smooth_mask(density > 0.25, 5)
    strength = _rolling(np.where(hit, hp, np.nan), max(3, int(round(fps))), np.nanmedian)
    return _interval_events(
        np.nan_to_num(strength, nan=0.0),
        active,
        frames["t"],
        fps,
        "flicker",
        "brightness oscillation",
        150.0,
        "luma_swing",
    )


def _jitter_events(frames, scenes, sid, fps) -> list[Event]:
    """Global motion that jerks back and forth instead of flowing (camera shake).

    The jerk is the departure of each frame's global motion from the mean of its neighbours';
    smooth pans, zooms and objects moving on their own keep it near zero.
    """
    vx, vy = frames["motion_x"].astype(np.float64), frames["motion_y"].astype(np.float64)
    n = len(vx)
    if n < 7:
        return []
    jerk = np.zeros(n)
    jerk[1:-1] = np.hypot(vx[1:-1] - 0.5 * (vx[:-2] + vx[2:]), vy[1:-1] - 0.5 * (vy[:-2] + vy[2:]))
    frozen = _frozen(frames["diff"], sid)
    bad = _near_cut(n, scenes) | frozen | np.roll(frozen, 1) | np.roll(frozen, -1)
    if "motion_conf" in frames:
        bad |= frames["motion_conf"] < 0.15
    jerk[bad] = np.nan
    level = np.nan_to_num(_rolling(jerk, max(5, int(round(fps))), np.nanmedian), nan=0.0)
    # Scale: pixels of the small analysis frame (90 px high); 0.7 px there is ~8 px at 1080p.
    active = _smooth_mask(level > JITTER_PX, 5)
    return _interval_events(
        level, active, frames["t"], fps, "jitter", "camera shake", 2.5, "jerk_px", min_s=1.5
    )


# Rolling-median jerk (small-frame pixels) above which motion counts as shaky.
JITTER_PX = 0.7


def detect_events(
    frames: dict[str, np.ndarray], samples: dict[str, np.ndarray], scenes: list[Scene], fps: float
) -> list[Event]:
    """Every quality event found in an index's signals, sorted by start time."""
    events: list[Event] = []
    if len(frames.get("t", [])):
        sid = _scene_ids(frames["t"], scenes)
        events.extend(_freeze_events(frames, sid, fps))
        events.extend(_flicker_events(frames, scenes, sid, fps))
        events.extend(_jitter_events(frames, scenes, sid, fps))
    t = samples.get("t", np.zeros(0))
    n = len(t)
    explained = {k: np.zeros(n, dtype=bool)
                 for k in ("noise", "compression", "exposure", "blur", "sharpening")}
    # Flicker swings every sample's tone; spatial detectors ignore samples inside it.
    explained["temporal"] = np.zeros(n, dtype=bool)
    for e in events:
        if e.type == "flicker":
            explained["temporal"] |= (t >= e.start_s - 0.5) & (t < e.end_s + 0.5)
    for spec in SPATIAL_SPECS:
        mask = np.zeros(n, dtype=bool)
        for kind in EXPLAINS.get(spec.type, ()):
            if not (spec.signal == "hue" and kind == "exposure"):  # tone does not turn hue
                mask |= explained[kind]
        if spec.pairs_only:  # a second opinion only where the first found nothing
            mask |= explained[spec.type]
        found, covered = _spatial_events(samples, scenes, spec, mask)
        events.extend(found)
        if spec.type in explained:
            explained[spec.type] |= covered
    events = _washed_out(samples, events)
    events = _blur_or_sharpening(events, samples, scenes)
    events = _hue_not_exposure(_noise_not_jitter(events))
    whole = _whole_video_events(samples, events, len(scenes))
    if not whole:
        events += _end_run_events(samples, scenes)
    else:  # what the whole-video degradation explains elsewhere is its doing
        # (its own type's stretches inside it are parts of it; another measure of its type
        # that also spans the video tells more of what it is: both stay)
        span = whole[0].end_s - whole[0].start_s
        events = [e for e in events if whole[0].type not in EXPLAINS.get(e.type, ()) and (
            e.type != whole[0].type or e.end_s - e.start_s >= WHOLE_VIDEO_KEEP * span)] + whole
    return sorted(_convincing(events), key=lambda e: (e.start_s, e.type))


# A picture whose darkest pixels are this bright while it has all but lost its colour is
# washed out whatever its content (brightness pushed up until the channels clip): seen only
# in such needles over 30 3-min videos, where clean bright scenes keep saturation >= 60.
WASHED_BLACK = 140.0
WASHED_SATURATION = 15.0


def _washed_out(samples: dict[str, np.ndarray], events: list[Event]) -> list[Event]:
    """The events with severe overexposure read from its absolute look: too-bright events
    whose darkest pixels are bright are severe, and washed-out stretches no scene reference
    showed (covering whole shots; white frames carry no structure to track) are added."""
    if not all(k in samples for k in ("t", "black", "saturation")) or len(samples["t"]) < 3:
        return events
    events = list(events)
    t = samples["t"]
    flag = _smooth_mask((samples["black"] >= WASHED_BLACK)
                        & (samples["saturation"] <= WASHED_SATURATION))
    for i, e in enumerate(events):
        if e.type == "exposure":
            inside = (t >= e.start_s) & (t < e.end_s)
            flag &= ~inside
            if e.subtype == "too bright" and inside.any() and \
                    float(np.nanmedian(samples["black"][inside])) >= WASHED_BLACK:
                # its darkest pixels are bright: severe, though no more convincing if brief
                events[i] = replace(e, severity=1.0, evidence={
                    **e.evidence, "strength": e.evidence.get("strength", e.severity)})
    step = float(np.median(np.diff(t)))
    out = []
    for a, b in _merge_runs(_runs(flag), t, gap_s=2.0):
        if t[b - 1] - t[a] + step < 1.5:
            continue
        black = float(np.nanmedian(samples["black"][a:b]))
        out.append(Event(
            type="exposure", subtype="too bright", start_s=round(float(t[a]), 2),
            end_s=round(float(t[b - 1] + step), 2), severity=1.0,
            score=round(black / WASHED_BLACK, 2),
            evidence={"signal": "black", "median_in_event": round(black, 4),
                      "saturation": round(float(np.nanmedian(samples["saturation"][a:b])), 4),
                      "samples": int(b - a)}))
    return events + out


# Degradations covering the whole video have no clean scene to stand out against: they are
# judged by the video-wide median against absolute limits far outside what clean footage
# shows (measured on 95 clean and lightly degraded 3-min videos: blockiness <= 1.17, grid
# <= 1.58, halo <= 10.5, contrast range >= 65 where no flicker swings the tone; contrast
# reduced to 0.2x all through: 26 and 42; grain sigma <= 0.72, where noise over the whole
# video measures 8). Measures that content moves a lot are judged by the video's best
# decile instead: a long video mixes dark and bright, flat and detailed shots, so when even
# its best tenth is lifted, flat, soft or vivid, the whole of it is (over 180 3-min NDQA
# videos, those without a degradation all through reach black p10 <= 28, contrast range p90
# >= 186, native sharpness p90 >= 136 (169 without blur over most of the video), saturation
# p10 <= 52; brightness +L3 all through: black p10 164; contrast 0.2x: range p90 45; heavy
# defocus: sharpness p90 32; saturation x4: saturation p10 98). Checked in order; the first
# one found explains the later ones (compression raises halo and grid too, over-sharpening
# lifts grain, lifted blacks flatten the range and soften edges).
# (signal, limit, direction, nominal clean level, percentile judged: 50 the median; 10 or
# 90 the best decile for signals worse when higher or lower, judged only in a video of at
# least WHOLE_VIDEO_MIN_SCENES shots: one long shot may be bright or soft all through)
WHOLE_VIDEO_LIMITS: tuple[tuple[str, float, int, float, float], ...] = (
    ("blockiness", 2.5, +1, 1.05, 50),
    ("grid", 4.0, +1, 1.4, 50),
    ("halo", 18.0, +1, 7.0, 50),
    ("black", 80.0, +1, 20.0, 10),
    ("contrast_range", 48.0, -1, 150.0, 50),
    ("contrast_range", 120.0, -1, 200.0, 90),
    ("noise", 2.0, +1, 0.45, 50),
    ("sharpness", 90.0, -1, 400.0, 90),
    ("saturation", 80.0, +1, 30.0, 10),
)
WHOLE_VIDEO_MIN_SCENES = 5
WHOLE_VIDEO_KEEP = 0.9  # events of its type spanning this share of the video stay beside it
WHOLE_VIDEO_PARTS = 6  # the level must hold in all but one of this many equal parts,
WHOLE_VIDEO_PART_SLACK = 0.8  # to within this factor of the limit


def _whole_video_events(samples: dict[str, np.ndarray], events: list[Event],
                        n_scenes: int) -> list[Event]:
    """At most one event spanning the video for a degradation present all through it."""
    t = samples.get("t", np.zeros(0))
    if len(t) < 10:
        return []
    duration = float(t[-1] + np.median(np.diff(t)))
    specs = {sp.signal: sp for sp in SPATIAL_SPECS}
    for signal, limit, direction, clean, pct in WHOLE_VIDEO_LIMITS:
        spec = specs[signal]
        if signal not in samples or (pct != 50 and n_scenes < WHOLE_VIDEO_MIN_SCENES):
            continue
        with warnings.catch_warnings():  # an all-NaN part is skipped below
            warnings.simplefilter("ignore", RuntimeWarning)
            level = float(np.nanpercentile(samples[signal], pct))
            # ... and near it in (nearly) every part: a trend that ends strong is not "all
            # through" (content moves each part's level; clean parts stay far from the limit).
            parts = [np.nanpercentile(p, pct) for p in
                     np.array_split(samples[signal], WHOLE_VIDEO_PARTS) if np.isfinite(p).any()]
        if not np.isfinite(level) or direction * (level - limit) < 0:
            continue
        near = limit * WHOLE_VIDEO_PART_SLACK ** direction
        if sum(direction * (p - near) >= 0 for p in parts) < len(parts) - 1:
            continue
        # Heavy noise raises halo and block measures where it is: then the level is its
        # doing, unless the rest of the video shows the level too (over-sharpening lifts the
        # grain already there, which then reads as noise, and the halo everywhere).
        causes = ("flicker",) if "temporal" in EXPLAINS.get(spec.type, ()) else ()
        causes += tuple(k for k in EXPLAINS.get(spec.type, ()) if k != "temporal")
        caused = [e for e in events if e.type in causes]
        if sum(e.end_s - e.start_s for e in caused) >= 0.25 * duration:
            rest = np.ones(len(t), dtype=bool)
            for e in caused:
                rest &= ~((t >= e.start_s) & (t < e.end_s))
            x = samples[signal][rest]
            if rest.sum() < 10 or not direction * (np.nanpercentile(x, pct) - limit) >= 0:
                continue
        return [_judged_event(spec, level, clean, direction, 0.0, duration, {
            "signal": signal, f"video_p{pct:g}": round(level, 4), "absolute_limit": limit,
            "whole_video": True})]
    return []


def _judged_event(spec: SpatialSpec, level: float, clean: float, direction: int,
                  start_s: float, end_s: float, evidence: dict[str, Any]) -> Event:
    """An event judged by a level against absolute limits (no scene reference): its
    deviation from the nominal clean level gives the severity."""
    dev = float(direction * (np.log((level + spec.offset) / (clean + spec.offset))
                             if spec.log else level - clean))
    sev = _level_severity(level, spec.levels) if spec.levels else _severity(dev, spec)
    return Event(
        type=spec.type, subtype=spec.subtype, start_s=round(start_s, 2), end_s=round(end_s, 2),
        severity=round(max(REPORT_SEVERITY, sev), 3), score=round(dev / spec.min_delta, 2),
        evidence=evidence)


# A degradation that sets in and lasts to the video's end (or lasts from its start) has no
# clean shot after it either: the same best-decile reading, over the run of whole shots at
# that end of the video. Only where content alone never gets there over several shots: over
# every run of >= 3 shots spanning >= 30 s of 180 NDQA dev videos, clean runs reach black
# p10 <= 42, runs lifted by brightness +L2/+L3 >= 87; over the runs at either end of 240,
# clean ones keep native sharpness p90 >= 110, runs under heavy blur 26-38 (a flat picture
# has a weak Laplacian too: runs with contrast reduced, range p90 <= 85, reach 20, so the
# run must keep a range p90 >= 120). Contrast and saturation runs overlap clean ones.
# (signal, limit, direction, nominal clean level, percentile, guard: a signal's percentile
# that must reach a level in the run, or None)
END_RUN_LIMITS: tuple[tuple[str, float, int, float, float,
                            tuple[str, float, float] | None], ...] = (
    ("black", 80.0, +1, 20.0, 10, None),
    ("sharpness", 60.0, -1, 400.0, 90, ("contrast_range", 90, 120.0)),
)
END_RUN_MIN_SCENES = 3
END_RUN_MIN_S = 30.0


def _end_run_events(samples: dict[str, np.ndarray], scenes: list[Scene]) -> list[Event]:
    """Events over the longest run of whole shots at the start or the end of the video (not
    all of it) whose best decile is beyond an absolute limit."""
    t = samples.get("t", np.zeros(0))
    if len(t) < 10 or len(scenes) < END_RUN_MIN_SCENES + 1:
        return []
    specs = {sp.signal: sp for sp in SPATIAL_SPECS}
    step = float(np.median(np.diff(t)))
    out = []
    for signal, limit, direction, clean, pct, guard in END_RUN_LIMITS:
        if signal not in samples or (guard is not None and guard[0] not in samples):
            continue
        x = samples[signal].astype(np.float64)
        n = len(scenes)
        for from_end in (False, True):
            best = None
            for k in range(END_RUN_MIN_SCENES, n):  # the first (last) k shots
                run = scenes[n - k:] if from_end else scenes[:k]
                a, b = run[0].start_s, run[-1].end_s
                inside = (t >= a) & (t < b)
                if b - a < END_RUN_MIN_S or not np.isfinite(x[inside]).any():
                    continue
                level = float(np.nanpercentile(x[inside], pct))
                if direction * (level - limit) < 0 or (guard is not None and np.nanpercentile(
                        samples[guard[0]][inside], guard[1]) < guard[2]):
                    break  # the run ends with the shot that takes it below the limit
                best = (a, b, level)
            if best is not None:
                a, b, level = best
                out.append(_judged_event(
                    specs[signal], level, clean, direction, float(a),
                    float(min(b, t[-1] + step)), {
                        "signal": signal, f"run_p{pct:g}": round(level, 4),
                        "absolute_limit": limit, "shots": "last" if from_end else "first"}))
    return out


# A step in detail between two parts of a scene is the low side blurred or the high side
# over-sharpened; the detectors see only the step. Blur wipes out strong edges first, so the
# halo beside them falls further than the overall detail; unsharp masking lifts the Laplacian
# sharpness far more than the halo. On the log scale (measured on 38 blur and 10 sharpening
# needle parts of the NDQA dev sets): sharpened when sharpness rose >= 2x as far as the halo
# and the halo <= 1.6x as far as the detail, by at least 1.3 (3.7x): 9 of the 10 sharpening
# parts pass, none of the 38 blur parts.
SHARP_PER_HALO = 2.0
HALO_PER_DETAIL = 1.6
SHARPEN_MIN_RISE = 1.65
# Unsharp masking multiplies the grain too (its estimate rose 1.2 to 3.6 log over the 10
# sharpening needles of two dev sets), while a slight defocus, which also lifts sharpness far
# more than the halo on its sharp side, leaves the grain almost as it is (0.2).
SHARPEN_GRAIN_RISE = 0.5
SHARPNESS_SIGNALS = ("sharpness", "halo", "detail")
# Severity of a sharpening found this way, from its sharpness rise (log): 1.0 -> 0.2 .. 5.0 -> 1.
SHARPEN_RISE = (1.0, 5.0)


def _sharpened(samples: dict[str, np.ndarray], low: np.ndarray, high: np.ndarray) -> float | None:
    """The sharpness rise (log) when the `high` samples look over-sharpened against the `low`
    ones rather than `low` blurred against `high`; None when they do not (or cannot tell)."""
    rise = {name: _log_rise(samples, name, low, high) for name in SHARPNESS_SIGNALS}
    if any(r is None for r in rise.values()):
        return None
    if min(rise.values()) <= 0 or rise["sharpness"] < SHARPEN_MIN_RISE:
        return None
    if rise["sharpness"] >= SHARP_PER_HALO * rise["halo"] and (
        rise["halo"] <= HALO_PER_DETAIL * rise["detail"]
    ):
        grain = _log_rise(samples, "noise", low, high)  # unmeasurable grain decides nothing
        if grain is None or grain >= SHARPEN_GRAIN_RISE:
            return rise["sharpness"]
    return None


def _log_rise(samples: dict[str, np.ndarray], name: str, low: np.ndarray,
              high: np.ndarray) -> float | None:
    """How far (log) a signal's median rises from the `low` samples to the `high` ones; None
    when it cannot be told (signal missing, fewer than 3 finite samples a side, a median
    at or below 0)."""
    if name not in samples:
        return None
    x = samples[name].astype(np.float64)
    lo, hi = x[low][np.isfinite(x[low])], x[high][np.isfinite(x[high])]
    if len(lo) < 3 or len(hi) < 3 or np.median(lo) <= 0 or np.median(hi) <= 0:
        return None
    return float(np.log(np.median(hi) / np.median(lo)))


def _blur_or_sharpening(
    events: list[Event], samples: dict[str, np.ndarray], scenes: list[Scene]
) -> list[Event]:
    """Judge every blur and sharpening event against the rest of its scenes (see
    SHARP_PER_HALO): a "blur" whose scenes' other part is over-sharpened becomes sharpening of
    that part; a "sharpening" whose other part is blurred (and reported so) is dropped."""
    t = samples.get("t", np.zeros(0))
    if len(t) < 6 or not any(e.type in ("blur", "sharpening") for e in events):
        return events
    sid = _scene_ids(t, scenes)
    step = float(np.median(np.diff(t)))
    busy = np.zeros(len(t), dtype=bool)
    for e in events:  # sharpening amplifies grain: noise found there does not mask it
        if e.type not in ("noise", "blur", "sharpening"):
            busy |= (t >= e.start_s) & (t < e.end_s)
    out: list[Event] = []
    added: list[Event] = []
    for e in events:
        if e.type not in ("blur", "sharpening") or e.evidence.get("whole_video"):
            out.append(e)
            continue
        inside = (t >= e.start_s) & (t < e.end_s)
        other = np.isin(sid, np.unique(sid[inside])) & ~busy & ~inside
        if e.type == "blur":
            # Scene by scene: another scene's content says nothing about this one's blur.
            judged, sharp, rises = 0, np.zeros(len(t), dtype=bool), []
            for k in np.unique(sid[inside]):
                a_k, o_k = inside & (sid == k), other & (sid == k)
                if a_k.sum() < 3 or o_k.sum() < 3:
                    continue
                judged += int(a_k.sum())
                rise = _sharpened(samples, a_k, o_k)
                if rise is not None:
                    sharp |= o_k
                    rises.append((rise, int(a_k.sum())))
            if not rises or 2 * sum(n for _, n in rises) < judged:
                out.append(e)
                continue
            rise = max(r for r, _ in rises)
            lo, hi = SHARPEN_RISE
            sev = float(np.clip(0.2 + 0.8 * (rise - lo) / (hi - lo), REPORT_SEVERITY, 1.0))
            for a, b in _runs(sharp):
                if t[b - 1] - t[a] + step < 1.5:
                    continue
                added.append(Event(
                    type="sharpening", subtype="halo", start_s=round(float(t[a]), 2),
                    end_s=round(float(t[b - 1] + step), 2), severity=round(sev, 3),
                    score=round(rise / np.log(2.0), 2),
                    evidence={"signal": "sharpness", "rise_log": round(rise, 3),
                              "instead_of": f"blur {e.start_s:.1f}-{e.end_s:.1f}"},
                ))
            continue
        blurred_rest = any(x.type == "blur" and x.start_s < float(t[other].max(initial=-1)) + step
                           and x.end_s > float(t[other].min(initial=np.inf)) for x in events)
        if blurred_rest and _sharpened(samples, other, inside) is None:
            continue
        out.append(e)
    for a in added:  # one sharpening seen from several sides is one event: their union
        same = [x for x in out if x.type == "sharpening" and x.start_s <= a.end_s
                and a.start_s <= x.end_s]
        for x in same:
            out.remove(x)
            a = replace(a, start_s=min(a.start_s, x.start_s), end_s=max(a.end_s, x.end_s),
                        severity=max(a.severity, x.severity))
        out.append(a)
    return out


def _hue_not_exposure(events: list[Event]) -> list[Event]:
    """Drop exposure events lying mostly inside a strong hue shift: rotating the colours moves
    the luma of every coloured pixel, which is the shift's doing, not a change of exposure."""
    hue = [e for e in events if e.subtype == "hue shift" and e.severity >= 0.5]

    def inside(x: Event) -> float:
        cover = sum(max(0.0, min(x.end_s, h.end_s) - max(x.start_s, h.start_s)) for h in hue)
        return cover / max(x.end_s - x.start_s, 1e-9)

    return [e for e in events if e.type != "exposure" or inside(e) < 0.5]


def _noise_not_jitter(events: list[Event]) -> list[Event]:
    """Drop jitter found mostly inside strong noise or flicker: grain, impulses and brightness
    swings break the global-motion estimate into random jerks, so there the shake is their
    doing, not the camera's."""
    noisy = [e for e in events
             if (e.type == "noise" and e.severity >= 0.5) or e.type == "flicker"]

    def inside(j: Event) -> float:
        cover = sum(max(0.0, min(j.end_s, n.end_s) - max(j.start_s, n.start_s)) for n in noisy)
        return cover / max(j.end_s - j.start_s, 1e-9)

    return [e for e in events if e.type != "jitter" or inside(e) < 0.5]


def _convincing(events: list[Event], gap_s: float = 2.0) -> list[Event]:
    """Drop brief mild events. Pieces of one type that follow each other within `gap_s` (a
    degradation split at cuts) count as one span."""
    keep = []
    for kind in {e.type for e in events}:
        same = sorted((e for e in events if e.type == kind), key=lambda e: e.start_s)
        if kind in ("frame_drop", "stutter"):
            keep.extend(same)
            continue
        chains: list[list[Event]] = []
        for e in same:
            if chains and e.start_s - max(x.end_s for x in chains[-1]) <= gap_s:
                chains[-1].append(e)
            else:
                chains.append([e])
        for chain in chains:
            span = max(x.end_s for x in chain) - chain[0].start_s
            keep.extend(e for e in chain if span >= SHORT_S or
                        float(e.evidence.get("strength", e.severity)) >= SHORT_SEVERITY)
    return keep
