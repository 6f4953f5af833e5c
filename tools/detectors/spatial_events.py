"""Events of one spatial spec, judged against each scene's own baseline, and the detector
class every spatial family shares (one or more specs, run in order).

Within each scene the reference is the scene's better-quality level (spatial_reference), so
a degradation that starts or ends inside a scene stands out as a step; a scene that is
degraded throughout joins an adjacent event when its level matches it (spatial_bridge); a
degradation switched on and off abruptly shows at its two ends (spatial_steps).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tools.detectors.base import (
    MERGE_GAP_S,
    MIN_EVENT_S,
    REPORT_SEVERITY,
    Context,
    Detector,
    scene_ids,
)
from tools.detectors.finish import convincing
from tools.detectors.series import hysteresis, joined_runs, level_severity, ramp, smooth_mask
from tools.detectors.sharpened import SHARPNESS_SIGNALS
from tools.detectors.spatial_bridge import bridge_scenes, sandwich
from tools.detectors.spatial_reference import (
    flip_if_framed,
    own_scene_deviation,
    reference,
    run_baseline,
)
from tools.detectors.spatial_spec import (
    SpatialSpec,
    deviation,
    floor_level,
    floor_raw,
    series,
    severity,
    typical,
)
from tools.detectors.spatial_steps import (
    NOISE_ALLOW,
    change_points,
    cut_steps,
    edge_steps,
    paired_steps,
)
from tools.model import Event, Scene

# Saturation (0..255) beyond which a sample is taken as oversaturated (colours clipped flat:
# darker, fewer edges and block borders) and is never another measure's clean reference.
# Not calibrated yet: read off generated sets, and clean real cartoons reach 200 (their
# most saturated samples are only left out of references). Calibrating it as a clean floor
# (each clean video's 99th percentile) puts it at 288, beyond the scale, which would let a
# clipped side become the reference of the clean rest.
OVERSATURATED = 190.0
# Beyond a graded spec's calibrated clean floor (blocking, pixelation) by this factor,
# samples are flagged outright, so a coded stretch filling most of its scene still shows.
ABSOLUTE_MARGIN = 1.1
# Fewest samples a series needs to be judged, and a scene to have a reference of its own.
SPATIAL_MIN_SAMPLES = 3
SCENE_MIN_SAMPLES = 3
# A deviation counts beyond this many robust sigmas of the series' own sample-to-sample
# jitter (and beyond the spec's smallest deviation).
JITTER_SIGMAS = 3.0
MAD_SIGMA = 1.4826  # median absolute step -> sigma of a normal series
# An event mostly made of paired (abrupt) steps, or mostly plainly beyond the clean floor,
# is visible however mild: at least REPORT_SEVERITY.
PAIRED_SHARE = 0.5
PLAIN_SHARE = 0.5
# The confirming signal is compared with at least this many unflagged samples of a scene,
# and a drop (severity) read from at least CONFIRM_DROP_INSIDE samples in the event.
CONFIRM_MIN_OUTSIDE = 3
CONFIRM_DROP_INSIDE = 3


# A brief mild raw event is dropped at the end (finish.convincing), so it explains no sample
# of a later type: the coin clip's encoder pulses its blockiness for 2.5 s every keyframe,
# and those pulses, each explaining blur sample by sample, hid a heavy blur between them.
# It explains only a later event lying mostly (this share of its samples) inside it: a
# glitch that pixelates a shot for 4 s also softens it there. Kept apart under kind+BRIEF.
BRIEF = ":brief"
BRIEF_SHARE = 0.5


def drop_severity(drop: float, scale: tuple[float, ...]) -> float:
    """Severity of a fall (log) on a spec's `drop` scale: (first visible, severe) ramps 0.2 to
    1.0; (first visible, severe, knee, far) follows that ramp up to severity `knee` and then
    grows on to 1.0 at `far`, so heavier falls still read heavier (see blur.BLUR_DROP)."""
    lo, hi, *rest = scale
    sev = ramp(drop, lo, hi)
    if rest and sev > rest[0]:
        knee, far = rest
        at = lo + (knee - 0.2) / 0.8 * (hi - lo)  # the fall at which the ramp reaches the knee
        sev = knee + (1.0 - knee) * min(1.0, (drop - at) / max(far - at, 1e-9))
    return float(sev)


def covering(t: np.ndarray, events: list[Event]) -> np.ndarray:
    """The samples (at times `t`) inside any of the events."""
    mask = np.zeros(len(t), dtype=bool)
    for e in events:
        mask |= (t >= e.start_s) & (t < e.end_s)
    return mask


def beyond_clean(samples: dict[str, np.ndarray], spec: SpatialSpec) -> np.ndarray | None:
    """Samples plainly beyond a graded spec's clean floor (None for other specs)."""
    if spec.grade is None or spec.floor is None or spec.signal not in samples:
        return None
    raw = np.nan_to_num(samples[spec.signal].astype(np.float64), nan=0.0)
    return smooth_mask(spec.direction * (raw - floor_raw(spec) * ABSOLUTE_MARGIN) > 0)


def confirm_moves(samples, spec: SpatialSpec, flag, sid, a: int, b: int,
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
        if len(outside) >= CONFIRM_MIN_OUTSIDE and len(inside) >= max(min_inside, 1):
            way = spec.confirm_direction or spec.direction
            moves.append(float(way * (np.median(inside) - np.median(outside))))
    return moves


def confirmed(samples, spec: SpatialSpec, flag, sid, a: int, b: int) -> bool:
    """Does the spec's confirming signal differ the same way between the run [a, b) and the
    unflagged rest of one of the scenes it touches? (True when there is nothing to compare.)"""
    moves = confirm_moves(samples, spec, flag, sid, a, b)
    return not moves or max(moves) >= spec.confirm[1]


def confirm_drop(samples, spec: SpatialSpec, flag, sid, a: int, b: int) -> float | None:
    """The largest move of the confirming signal in the event against the unflagged rest of
    a scene it touches (3 samples each side at least); None when no scene has one."""
    moves = confirm_moves(samples, spec, flag, sid, a, b, min_inside=CONFIRM_DROP_INSIDE)
    return max(moves) if moves else None


@dataclass
class _Scan:
    """One spec's series over the video and what the scan found in it so far."""

    samples: dict[str, np.ndarray]
    spec: SpatialSpec
    t: np.ndarray
    x: np.ndarray  # the series as judged (NaN where not judged)
    sid: np.ndarray  # scene of each sample
    refs: np.ndarray  # each scene's reference level
    dev: np.ndarray  # each sample's deviation from its reference
    sigma: float  # the series' own sample-to-sample jitter
    flag: np.ndarray | None = None  # samples in events
    paired: np.ndarray | None = None  # samples in abrupt (paired, edge, cut) steps
    absolute: np.ndarray | None = None  # samples beyond a graded spec's clean floor
    held: np.ndarray | None = None  # flagged by hysteresis alone (SpatialSpec.hold)


def _baselines(samples, spec: SpatialSpec, x, sid, n_scenes: int, explained, guard,
               detail) -> tuple[np.ndarray, np.ndarray]:
    """(reference of every scene, deviation of every sample from its scene's reference)."""
    dev = np.full(len(x), np.nan)
    refs = np.full(n_scenes or 1, np.nan)
    if spec.signal != "saturation" and "saturation" in samples:
        explained_ref = explained | (np.nan_to_num(samples["saturation"]) > OVERSATURATED)
    else:
        explained_ref = explained
    typical_level = typical(x[~explained], spec)
    for s in np.unique(sid):
        sel = sid == s
        base = sel & ~explained_ref
        if base.sum() < SCENE_MIN_SAMPLES:
            continue
        refs[s] = reference(x[base], spec, typical_level,
                            guard[base] if guard is not None else None,
                            {n: detail[n][base] for n in detail} if detail else None)
        if spec.floor is not None:
            floor = floor_level(spec)
            refs[s] = min(refs[s], floor) if spec.direction > 0 else max(refs[s], floor)
        dev[sel] = deviation(x[sel], refs[s], spec)
        if spec.direction == 0:
            refs[s], dev[sel] = flip_if_framed(x[sel], dev[sel], refs[s], spec)
    return refs, dev


def _jitter(x: np.ndarray, sid: np.ndarray, spec: SpatialSpec) -> float:
    """The series' own jitter (sample to sample, within scenes): a robust sigma."""
    same = sid[1:] == sid[:-1]
    steps = np.abs(np.diff(x))[same]
    steps = steps[np.isfinite(steps)]
    if spec.signal == "hue":
        steps = np.minimum(steps, 360 - steps)
    return MAD_SIGMA * float(np.median(steps)) if len(steps) else 0.0


def _abrupt_steps(scan: _Scan, scenes: list[Scene], explained: np.ndarray) -> None:
    """Flag the degradations outlined by abrupt steps (paired, at the video's edges, at
    cuts), marking them as paired, and unflag the clean side of lone steps."""
    spec, x, sid, t = scan.spec, scan.x, scan.sid, scan.t
    cuts = [sc.start_s for sc in scenes[1:]]
    edges_read = spec.direction == 0 or spec.pairs_only  # see spatial_steps.edge_steps
    # A spec read only from its steps has no other evidence: its steps are judged with the
    # series' own jitter allowed (see spatial_steps.NOISE_ALLOW), and a clear step may pair
    # with a weaker one. The others flag by deviation from the scene and keep strict steps.
    noise = scan.sigma if spec.pairs_only else 0.0
    points, weak = [], []
    if spec.across_cuts or edges_read:
        points = change_points(x, sid, t, cuts, spec, JITTER_SIGMAS * scan.sigma, explained,
                               noise=noise)
        if noise > 0:
            weak = [p for p in change_points(x, sid, t, cuts, spec,
                                             (JITTER_SIGMAS - NOISE_ALLOW) * scan.sigma,
                                             explained, noise=noise)
                    if all(p[0] != q[0] for q in points)]
    pairs = paired_steps(points, x, sid, t, spec, scan.samples, weak, noise,
                         typical(x[~explained], spec)) if spec.across_cuts else []
    for a, b, size in pairs:
        scan.flag[a:b] = scan.paired[a:b] = True
        scan.dev[a:b] = np.fmax(scan.dev[a:b], size)
    lone = edge_steps(points, pairs, x, sid, t, spec) if edges_read else []
    if spec.cut_steps:
        lone += cut_steps(points, pairs, lone, x, sid, t, spec, scan.samples)
    for a, b, c, d, size in lone:
        scan.flag[a:b] = scan.paired[a:b] = True
        scan.dev[a:b] = np.fmax(scan.dev[a:b], size)
        scan.flag[c:d] = False  # the scene's other side is its clean look


def _run_event(scan: _Scan, a: int, b: int, step: float) -> Event | None:
    """The event of the flagged run [a, b), or None when it is too weak or not confirmed."""
    samples, spec, flag, sid = scan.samples, scan.spec, scan.flag, scan.sid
    # the samples that flagged it say how far off it is (hysteresis only continues it)
    judged = flag[a:b] if scan.held is None else flag[a:b] & ~scan.held[a:b]
    d = scan.dev[a:b][judged if judged.any() else flag[a:b]]
    level = float(np.median(d[np.isfinite(d)])) if np.isfinite(d).any() else 0.0
    sev = severity(level, spec)
    if scan.paired[a:b].mean() >= PAIRED_SHARE:  # switched on and off inside shots: visible
        sev = max(sev, REPORT_SEVERITY)
    drop = None
    if spec.drop is not None:  # severity from the confirming signal's drop, where shown
        drop = level if spec.pairs_only else confirm_drop(samples, spec, flag, sid, a, b)
    if drop is not None:
        by_drop = drop_severity(drop, spec.drop)
        # how clearly it stands out: either measure (what finish.convincing asks of brief ones)
        strength, sev = max(sev, by_drop), max(by_drop, REPORT_SEVERITY)
    else:
        strength = sev
    plain = scan.absolute is not None and scan.absolute[a:b].mean() >= PLAIN_SHARE
    if plain:
        strength = max(strength, REPORT_SEVERITY)
    if strength < REPORT_SEVERITY or not confirmed(samples, spec, flag, sid, a, b):
        return None
    raw = samples[spec.signal][a:b] if spec.signal in samples else scan.x[a:b]
    if spec.levels is not None and spec.floor is not None and (
        spec.direction * (np.nanmedian(raw) - floor_raw(spec)) <= 0
    ):
        return None  # an absolute measure within what clean footage shows: not visible
    if spec.levels is not None or spec.grade is not None:
        sev = max(REPORT_SEVERITY, level_severity(float(np.nanmedian(raw)),
                                                  spec.levels or spec.grade))
        if spec.levels is not None or plain:
            strength = sev  # the absolute level is also how clearly it shows
    t, own = scan.t, own_scene_deviation(spec, scan.x, scan.refs, sid, a, b,
                                         JITTER_SIGMAS * scan.sigma)
    return Event(
        type=spec.type, subtype=spec.subtype,
        start_s=round(float(t[a]), 2), end_s=round(float(t[b - 1] + step), 2),
        severity=round(sev, 3),
        score=round(level / max(scan.sigma, spec.min_delta / 3.0), 2),
        evidence={
            "signal": spec.signal,
            "median_in_event": round(float(np.nanmedian(raw)), 4),
            "scene_baseline": round(run_baseline(spec, scan.refs, sid, a, b,
                                                 scan.paired[a:b].mean() >= PAIRED_SHARE), 4),
            "deviation": round(level, 4),
            **({} if own is None else {"own_scene_deviation": round(own, 4)}),
            "samples": int(b - a),
            **({"strength": round(strength, 3)} if round(strength, 3) != round(sev, 3)
               else {}),
        },
    )


def spatial_events(
    samples: dict[str, np.ndarray],
    scenes: list[Scene],
    spec: SpatialSpec,
    explained: np.ndarray | None = None,
    quiet: np.ndarray | None = None,
) -> tuple[list[Event], np.ndarray]:
    """Events of one spec, and the mask of samples they cover.

    `explained` marks samples already attributed to another degradation (noise raises the
    Laplacian, blocking adds edges, low contrast flattens it): they neither set this spec's
    baseline nor raise its events. `quiet` samples set the baseline but raise no event (the
    camera's own motion blur: leaving it out of the baseline would make the rest look soft).
    """
    t = samples["t"]
    none = np.zeros(len(t), dtype=bool)
    if len(t) < SPATIAL_MIN_SAMPLES or (spec.signal != "hue" and spec.signal not in samples):
        return [], none
    explained = none if explained is None else explained
    x = series(samples, spec)
    guard = None
    if spec.guard is not None and spec.guard[0] in samples:
        guard = np.log(np.maximum(samples[spec.guard[0]].astype(np.float64), 0) + 0.01)
    detail = None
    if spec.guard_sharpened and all(n in samples for n in SHARPNESS_SIGNALS):
        detail = {n: samples[n].astype(np.float64) for n in SHARPNESS_SIGNALS}
    if spec.chroma_floor is not None:  # no stable hue in a near-grey or colour-balanced picture
        length = np.hypot(samples["hue_x"], samples["hue_y"])
        least, coherence = spec.chroma_floor
        weak = (length < least) | (length < coherence * samples["saturation"] / 255.0)
        x = np.where(weak, np.nan, x)
    sid = scene_ids(t, scenes)
    refs, dev = _baselines(samples, spec, x, sid, len(scenes), explained, guard, detail)
    scan = _Scan(samples, spec, t, x, sid, refs, dev, _jitter(x, sid, spec))
    thr = max(spec.min_delta, JITTER_SIGMAS * scan.sigma)
    flag = smooth_mask((np.nan_to_num(dev, nan=0.0) > thr) & ~explained)
    by_hold = None
    if spec.hold is not None:
        above = (np.nan_to_num(dev, nan=0.0) > spec.hold * thr) & ~explained
        by_hold = hysteresis(flag, above, t, MERGE_GAP_S) & ~flag
        flag = flag | by_hold
    absolute = beyond_clean(samples, spec)
    if absolute is not None:  # plainly outside clean footage, whatever the scene does
        flag |= absolute & ~explained
        floor_dev = deviation(x, floor_level(spec), spec)
        dev = np.where(absolute, np.fmax(np.nan_to_num(dev, nan=0.0), floor_dev), dev)
    if spec.pairs_only:
        flag, dev = none.copy(), np.full(len(t), np.nan)
    elif spec.across_cuts:
        flag, dev = bridge_scenes(flag, x, sid, refs, dev, spec, thr)
        flag, dev = sandwich(flag, dev, x, sid, refs, t, spec, thr)
    scan.flag, scan.dev, scan.paired, scan.absolute = flag, dev, none.copy(), absolute
    scan.held = by_hold
    _abrupt_steps(scan, scenes, explained)
    scan.flag &= ~explained if quiet is None else ~(explained | quiet)
    step = float(np.median(np.diff(t))) if len(t) > 1 else 0.5
    events = []
    covered = none.copy()
    # the camera's own fast motion (quiet) is unjudged, not clean: a run goes on across it
    unjudged = None if quiet is None else quiet & ~explained
    for a, b in joined_runs(scan.flag, unjudged, t, MERGE_GAP_S):
        if t[b - 1] - t[a] + step < MIN_EVENT_S:
            continue
        event = _run_event(scan, a, b, step)
        if event is not None:
            covered[a:b] = True
            events.append(event)
    return events, covered


class SpatialDetector(Detector):
    """A family of spatial specs run in order, each against the samples that the kinds in
    `explained_by` (and, for a spec read only from its steps, its own type) explain."""

    specs: tuple[SpatialSpec, ...] = ()

    def explainers(self, spec: SpatialSpec) -> tuple[str, ...]:
        """The kinds whose stretches this spec ignores (by default the family's)."""
        return self.explained_by

    def quiet(self, ctx: Context) -> np.ndarray | None:
        """Samples that may raise no event of this family (by default none)."""
        return None

    def explaining(self, ctx: Context, kinds: tuple[str, ...]) -> np.ndarray:
        """The samples these kinds explain for this family (by default all they found)."""
        return ctx.explaining(kinds)

    def detect(self, ctx: Context) -> list[Event]:
        """Events of every spec. The samples of those that will be reported (not brief and
        mild: see finish.convincing) are explained by the type, sample by sample; a brief
        mild one explains only the later events lying mostly inside it (see BRIEF_SHARE)."""
        events: list[Event] = []
        quiet = self.quiet(ctx)
        t = ctx.sample_times
        for spec in self.specs:
            kinds = self.explainers(spec)
            mask = self.explaining(ctx, kinds)
            if spec.pairs_only:  # a second opinion only where the first found nothing
                mask |= ctx.explaining((spec.type,))
            found, _ = spatial_events(ctx.samples, ctx.scenes, spec, mask, quiet)
            brief = self.explaining(ctx, tuple(k + BRIEF for k in kinds))
            found = [e for e in found if covering(t, [e])[brief].sum()
                     < BRIEF_SHARE * covering(t, [e]).sum()]
            events.extend(found)
            shown = convincing(found)
            ctx.explain(spec.type, covering(t, shown))
            ctx.explain(spec.type + BRIEF, covering(t, [e for e in found if e not in shown]))
        return events
