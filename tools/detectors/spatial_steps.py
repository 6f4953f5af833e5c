"""Abrupt level changes inside shots, and the degradations they outline.

Content drifts inside a shot, while a degradation switched on or off jumps between two
samples from one steady level to another. A needle shows as two such steps (paired steps); a
degradation running from the video's first frame, or to its last, as one step near that edge
(edge steps); one switched on or off at a cut as one step whose worse side runs to that cut
(cut steps).
"""

from __future__ import annotations

import warnings

import numpy as np

from tools.detectors.spatial_spec import SpatialSpec, signed, toward

# A needle's onset and its end, paired across any cuts between them, at least PAIR_MIN_S and
# at most PAIR_MAX_S apart, their sizes within a factor PAIR_SIZE_RATIO of each other.
PAIR_MIN_S = 1.5
PAIR_MAX_S = 90.0
PAIR_SIZE_RATIO = (0.5, 2.0)
# Samples this close to a cut may show the other shot (cut times are frame-exact, motion
# blur and encoder refresh are not): they never mark a level change.
CUT_GUARD_S = 0.2
# Samples on each side of a change that give the levels before and after it.
STEP_REACH = 3
# The jump between the two neighbours carries at least this share of the change, and no
# sample on either side strays from its side's level by more than STEADY_SHARE of it.
JUMP_SHARE = 0.8
STEADY_SHARE = 0.35
# The degraded part of a step's shot stays off the clean level by HELD_SHARE of the step in
# at least HELD_FRACTION of its samples (and a lone step's clean side at it, likewise).
HELD_SHARE = 0.5
# Single samples of a jittery series stray from their side's level by about its own
# sample-to-sample sigma whatever happens: the jump and steadiness tests allow this many
# of them (native sharpness of a hand-held close-up jumps 2x between samples half a second
# apart, a blur switched on drops it 4-8x).
NOISE_ALLOW = 1.0
HELD_FRACTION = 0.8
# A two-sided signal's pair spans whole scenes that show no end of it: a hue turned over them
# turns them too, so at least this share of their samples lies off the video's typical hue
# toward the pair's side (bikes, whose shots of other hues recur every 10 s, paired a step
# into one such shot with a step out of another 37 s later, the scenes between at the
# typical hue)
BETWEEN_HELD = 0.5
# A two-sided signal (hue) that steps once inside a shot does not tell which side is the
# degraded one, and a signal read only from its steps (native sharpness) needs both ends. A
# lone step this near the start (end) of the video, with no partner, is a degradation that
# runs from the video's first frame (to its last): its other end is the edge. (30 s, and at
# most a sixth of the video: the last sixth of a 3-min video, where a degradation that
# worsens in steps ends; 20 s missed the last step of a hue turning further at 105 s and
# 150 s of 180.)
EDGE_PAIR_MAX_S = 30.0
EDGE_PARTS = 6
EDGE_MIN_SAMPLES = 3
# A degradation switched on or off at a cut shows only its other end, inside the shot: a
# lone step of a one-sided signal whose worse side runs from the step to the shot's cut,
# steady all the way, while the better side stays at its level (a needle that begins with a
# shot and ends halfway through it). Content moves native sharpness in pans and focus pulls,
# but not abruptly from one steady level to another. A saturation jump of this factor at the
# step (offset as the saturation spec) is a colour change, no blur's end.
CUT_STEP_COLOUR = 1.5
SATURATION_OFFSET = 20.0


def change_points(x, sid, t, cuts, spec: SpatialSpec, jitter: float, explained,
                  reach: int = STEP_REACH, noise: float = 0.0) -> list[tuple]:
    """Abrupt level changes inside scenes: (index of the first changed sample, signed size,
    level before, level after), the size positive towards worse for one-sided signals.
    Up to `reach` samples on each side give the levels. A change must pass the series'
    `jitter` and `pair_least` x the spec's smallest deviation; `noise` (the series' own
    sample-to-sample sigma) is what single samples may stray by anyway: the neighbour jump
    and the steadiness of each side are judged with that allowance."""
    n = len(x)
    near = np.zeros(n, dtype=bool)
    for c in cuts:
        near |= np.abs(t - c) < CUT_GUARD_S
    usable = ~near & ~explained & np.isfinite(x)
    least = max(jitter, spec.pair_least * spec.min_delta)
    # Only a jump between neighbours of at least JUMP_SHARE x the smallest size can qualify.
    with np.errstate(invalid="ignore"):
        jumps = np.abs(signed(np.diff(x), spec)) >= JUMP_SHARE * least
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
        pre, post = signed(x[lo:i] - ref, spec), signed(x[i:hi] - ref, spec)
        a, b = float(np.median(pre)), float(np.median(post))
        size = b - a
        jump = float(post[0] - pre[-1])
        steady = max(np.abs(pre - a).max(), np.abs(post - b).max())
        if abs(size) < least or abs(jump) < JUMP_SHARE * abs(size) - NOISE_ALLOW * noise:
            continue
        if steady > STEADY_SHARE * abs(size) + NOISE_ALLOW * noise:
            continue
        sized = size * spec.direction if spec.direction != 0 else size
        # With the jitter allowed, a clean side of one sample has no steadiness to test: it
        # is one frame of the shot's jitter, not its clean level (a shaky shot that opens or
        # closes on one sharp frame around a soft stretch).
        if noise > 0 and spec.direction != 0 and (i - lo if sized > 0 else hi - i) < 2:
            continue
        if found and found[-1][0] == i - 1:  # one change seen from two samples: keep the larger
            if abs(sized) <= abs(found[-1][1]):
                continue
            found.pop()
        found.append((i, sized, float(signed(ref + a, spec)), float(signed(ref + b, spec))))
    return found


def squeezes(samples: dict[str, np.ndarray], i: int, sign: float, reach: int = STEP_REACH) -> bool:
    """Whether the black and white points move towards each other (sign +1) or apart (-1)
    at sample i: medians of up to `reach` samples on each side."""
    if "black" not in samples or "white" not in samples:
        return True
    lo, hi = max(0, i - reach), min(len(samples["t"]), i + reach)

    def move(name: str) -> float:
        return float(np.median(samples[name][i:hi]) - np.median(samples[name][lo:i]))

    return sign * move("black") > 0 and sign * move("white") < 0


def _pair(p, q, x, sid, t, spec: SpatialSpec, samples, noise: float = 0.0
          ) -> tuple[int, int, float] | None:
    """The needle between change point `p` (its onset) and `q` (its end), or None: opposite
    sizes within PAIR_SIZE_RATIO of each other (each allowed `noise`), PAIR_MIN_S to
    PAIR_MAX_S apart, the two end scenes' parts off their clean levels (see paired_steps)."""
    (i, s1, pre1, _), (j, s2, _, post2) = p, q
    onset = s1 > 0 if spec.direction != 0 else True
    if not onset or s1 * s2 >= 0:
        return None
    lo_ratio, hi_ratio = PAIR_SIZE_RATIO
    if not ((abs(s2) + noise) / abs(s1) >= lo_ratio and abs(s2) / (abs(s1) + noise) <= hi_ratio
            and PAIR_MIN_S <= t[j] - t[i] <= PAIR_MAX_S):
        return None
    sign = s1 * spec.direction if spec.direction != 0 else s1
    for k, clean, size in ((sid[i], pre1, s1), (sid[j], post2, s2)):
        part = np.arange(i, j)[(sid[i:j] == k) & np.isfinite(x[i:j])]
        off = toward(x[part], clean, sign, spec) >= HELD_SHARE * abs(size)
        if len(part) and off.mean() < HELD_FRACTION:
            return None
    if spec.squeeze and samples is not None and not (
            squeezes(samples, i, +1) and squeezes(samples, j, -1)):
        return None
    return (i, j, float(min(abs(s1), abs(s2))))


def _between_held(pair: tuple[int, int, float], x, sid, spec: SpatialSpec, typical_level: float,
                  sign: float) -> bool:
    """Whether the whole scenes between a pair's end scenes sit off the video's typical level
    toward the pair's side, in at least half of their samples (True when there are none)."""
    i, j, size = pair
    inner = np.arange(i, j)[(sid[i:j] != sid[i]) & (sid[i:j] != sid[j]) & np.isfinite(x[i:j])]
    if len(inner) == 0 or not np.isfinite(typical_level):
        return True
    return bool((toward(x[inner], typical_level, sign, spec) >= HELD_SHARE * size).mean()
                >= BETWEEN_HELD)


def paired_steps(points, x, sid, t, spec: SpatialSpec,
                 samples: dict[str, np.ndarray] | None = None, weak=(),
                 noise: float = 0.0, typical_level: float | None = None
                 ) -> list[tuple[int, int, float]]:
    """[start, end) sample ranges between an abrupt onset and the next abrupt change back by
    a similar amount (a needle degradation switched on and off), with its size; `points` are
    the series' change points (change_points). The parts of the two end scenes inside the
    range must stay off their clean level; whole scenes in between are included, since only
    the ends of such a degradation are visible against a scene's own content.

    `weak`: change points that pass only a smaller size (one `noise` sigma less). A point of
    `points` left without a partner may pair with the nearest opposite weak one before the
    next (after the previous) point: one clear end makes the other's smaller jump news."""
    out = [p for p in (_pair(a, b, x, sid, t, spec, samples)
                       for a, b in zip(points[:-1], points[1:], strict=False)) if p]
    used = {k for i, j, _ in out for k in (i, j)}
    for n, p in enumerate(points):
        if p[0] in used:
            continue
        lo = points[n - 1][0] if n > 0 else -1
        hi = points[n + 1][0] if n + 1 < len(points) else len(x)
        after = [q for q in weak if p[0] < q[0] < hi]
        before = [q for q in weak if lo < q[0] < p[0]]
        found = (_pair(p, after[0], x, sid, t, spec, samples, noise) if after else None) or (
            _pair(before[-1], p, x, sid, t, spec, samples, noise) if before else None)
        if found:
            out.append(found)
            used.update(found[:2])
    if spec.direction == 0 and typical_level is not None:  # a hue between its two ends
        signs = {p[0]: p[1] for p in [*points, *weak]}
        out = [p for p in out if _between_held(p, x, sid, spec, typical_level, signs[p[0]])]
    return sorted(out)


def edge_steps(points, pairs, x, sid, t,
               spec: SpatialSpec) -> list[tuple[int, int, int, int, float]]:
    """(degraded start, end, clean start, end, size): from the video's start to the first
    change point (of `points`) that no pair uses, and the rest of that change's scene as the
    clean side; or from the last such point to the video's end, the scene before it clean.
    The degraded part of the change's scene must stay off the clean level, as for paired
    steps. Read for two-sided signals and for those read only from their steps."""
    used = {k for i, j, _ in pairs for k in (i, j)}
    out = []
    edges = [(False, points[0]), (True, points[-1])] if points else []
    # (at most a sixth of the video: in a short one, a step halfway is no edge's)
    reach = min(EDGE_PAIR_MAX_S, (t[-1] - t[0]) / EDGE_PARTS) if len(t) else 0.0
    for end, (i, size, pre, post) in edges:
        if i in used or (t[-1] - t[i] if end else t[i] - t[0]) > reach:
            continue
        if spec.direction != 0 and (size > 0) != end:  # one-sided: an onset runs to the end
            continue
        used.add(i)  # a lone step near both edges (a short video) is read once
        # the video's edge pairs with a step only when the step's shot shows a stretch of it
        # off the clean level, and a stretch at it
        step = lone_step((i, size, pre, post), end, len(t) if end else 0, x, sid, spec)
        if step is not None:
            out.append(step)
    return out


def lone_step(point, after: bool, stop: int, x, sid,
              spec: SpatialSpec) -> tuple[int, int, int, int, float] | None:
    """(degraded start, end, clean start, end, size) of a change point read alone: degraded
    from the step to sample `stop` (after it, or before it when not `after`), clean over the
    rest of the step's shot. None unless the degraded part inside the shot stays off the
    clean level and the clean side at it (80 % of their samples, EDGE_MIN_SAMPLES each)."""
    i, size, pre, post = point
    scene = np.flatnonzero(sid == sid[i])
    raw = size * (spec.direction or 1)  # the signed change in the series' own units
    if after:
        bad, clean, level, way = (i, stop), (int(scene[0]), i), pre, raw
    else:
        bad, clean, level, way = (stop, i), (i, int(scene[-1]) + 1), post, -raw
    part = np.arange(*bad)[(sid[bad[0]:bad[1]] == sid[i]) & np.isfinite(x[bad[0]:bad[1]])]
    rest = np.arange(*clean)[np.isfinite(x[clean[0]:clean[1]])]
    if min(len(part), len(rest)) < EDGE_MIN_SAMPLES or (
            toward(x[part], level, way, spec) >= HELD_SHARE * abs(size)).mean() \
            < HELD_FRACTION or (
            toward(x[rest], level, way, spec) < HELD_SHARE * abs(size)).mean() < HELD_FRACTION:
        return None
    return (*bad, *clean, float(abs(size)))


def colour_jump(samples: dict[str, np.ndarray], i: int, reach: int = STEP_REACH) -> bool:
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
        abs(np.log((b + SATURATION_OFFSET) / (a + SATURATION_OFFSET))) >= np.log(CUT_STEP_COLOUR)


def cut_steps(points, pairs, edges, x, sid, t, spec: SpatialSpec,
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
        step = lone_step(point, onset, int(scene[-1]) + 1 if onset else int(scene[0]),
                         x, sid, spec)
        if step is not None and not colour_jump(samples, i):
            out.append(step)
    return out
