"""Stretches: a picture measure that leaves its neighbourhood's level for seconds, across shots.

The scene-relative detectors judge each shot against its own better quartile, which cannot
see a degradation covering whole shots: real footage cuts every few seconds, and a 30-second
stretch of noise, darkness or blur spans many shots, each of them wholly degraded. Here each
sample is judged against the median of the footage *around* it instead (from EXCLUDE_S to
EXCLUDE_S + REACH_S away on both sides, whatever the cuts), after a short running median.
Samples found degraded by any measure leave the neighbourhood of every measure and the
judgement is repeated, so long stretches are found from their ends inwards and the footage
beside a blurred stretch is not judged against it (it would read as over-sharpened).

The limit of each measure is calibrated on clean real footage (`bench calibrate`): the
largest departure from its neighbourhood any clean calibration video shows, pushed out to
the stated false-alarm rate (tools/detectors/calibration.py).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np

from tools.detectors.calibration import CleanVideo, Quantity, declare, least_quiet, value
from tools.detectors.series import hysteresis, merge_runs, rolling_nanmedian, runs
from tools.model import Event

EXCLUDE_S = 8.0  # the neighbourhood starts this far away on each side ...
REACH_S = 45.0  # ... and reaches this much further
SMOOTH_S = 2.5  # running median before judging (a blip of content is not a stretch)
MIN_STRETCH_S = 3.0  # shortest stretch reported
MERGE_S = 2.0  # runs closer than this are one stretch
STEP_REACH_S = 2.5  # a stretch's edge is placed at the largest jump this close to it
CUT_NEAR_S = 0.5  # a stretch end this close to a shot cut (one sample) is the cut
# An end inside a shot must be a change of the picture there: the stretch's part of the shot
# differs from the rest of the shot by at least this share of the limit. Otherwise the shot as
# a whole looks different and the end only marks a moment inside it (a montage clip soft
# throughout, with a blink of focus 8 s in).
INSHOT_SHARE = 0.5
# ... and the rest must hold this much of the shot: its first or last 2 s (4 samples, about
# a GOP of the usual encoders) are too few to say the picture changed. Encoders code a
# shot's first frames apart (the key frame at a cut): the same second of a clean clip read
# sharpness 716 in one loop of a montage and 1,551-2,515 in another.
INSHOT_LEAST_S = 2.0
# A stretch switched on or off at once (a filter, a setting, a link changing) is told from
# the content's own slow changes (a scene fading to night over seconds) by its end: the mean
# of the measure over ABRUPT_S after the end's largest jump differs from the mean over
# ABRUPT_S before it by at least ABRUPT_SHARE of the stretch's departure. At one sample each
# side, a switch falls between two samples and moves the whole way there; a cartoon's 1.5-s
# fade from night (luma 15, 22, 35, 63, 87) moves at most 0.50 of its 1.25 in one sample.
# Such stretches have their own calibrated limit.
ABRUPT_S = 0.5
ABRUPT_SHARE = 0.6
# Hysteresis: a flagged run extends over the neighbouring samples that stay beyond this share
# of the limit (a steady degradation's departure swings with the content: a hand-held coin
# clip darkened by 0.15 reads 0.27-0.37 against a limit of 0.32).
HOLD_SHARE = 0.75
ROUNDS = 20  # judgements at most, each without the samples found degraded before
MIN_NEIGHBOURS = 0.25  # share of a full neighbourhood needed to judge a sample


@dataclass(frozen=True)
class Stretch:
    """One measure judged against its neighbourhood: which way is worse, what it means."""

    key: str
    signal: str  # a sample signal, or "luma" (the frame's mean, read at the sample frames)
    direction: int
    type: str
    subtype: str
    offset: float  # added before the log (levels that reach 0)


STRETCHES: tuple[Stretch, ...] = (
    # noise sigma is in grey levels: 1 is added, as grain below one grey level is not seen
    # (8-bit rounding alone is 0.29; clean encoded camera footage measures 0.17-0.35), and
    # the log ratio of such values (a flat cartoon going 0.05 -> 3) set the old limit
    Stretch("noise_up", "noise", +1, "noise", "grain", 1.0),
    Stretch("luma_down", "luma", -1, "exposure", "too dark", 8.0),
    Stretch("luma_up", "luma", +1, "exposure", "too bright", 8.0),
    Stretch("contrast_down", "contrast_range", -1, "exposure", "low contrast", 8.0),
    Stretch("saturation_up", "saturation", +1, "colour", "oversaturation", 8.0),
    Stretch("saturation_down", "saturation", -1, "colour", "desaturation", 8.0),
    Stretch("sharpness_down", "sharpness", -1, "blur", "softness", 1.0),
)
# Not judged across shots: blockiness (an encoder's rate control pulses it for seconds at a
# time on clean footage: 21 false 3-s stretches on the ffmpeg track's untouched parts, none
# found) and halo (beside a blurred stretch, clean footage reads as over-sharpened: 22 false
# on an NDQA set against 1 found). Their scene-relative detectors stay.


def series(samples: dict[str, np.ndarray], frames: dict[str, np.ndarray],
           s: Stretch) -> np.ndarray | None:
    """The stretch's measure at every sample, on a log scale (None when not measured)."""
    if s.signal == "luma":
        luma, idx = frames.get("luma"), samples.get("frame")
        if luma is None or idx is None or len(luma) == 0:
            return None
        x = np.asarray(luma, dtype=np.float64)[np.clip(np.asarray(idx, int), 0, len(luma) - 1)]
    elif s.signal in samples:
        x = np.asarray(samples[s.signal], dtype=np.float64)
    else:
        return None
    return np.log(np.maximum(x, 0.0) + s.offset)


def departure(x: np.ndarray, step: float, direction: int,
              excluded: np.ndarray | None = None) -> np.ndarray:
    """How far each sample's running median lies beyond its neighbourhood's level (the mean
    of the two sides' medians), in the degraded direction (NaN where both sides are too thin
    to judge)."""
    n = len(x)
    if n == 0:
        return np.zeros(0)
    smooth = rolling_nanmedian(x, max(1, int(round(SMOOTH_S / step)) | 1))
    pool = x.copy()
    if excluded is not None:
        pool[excluded] = np.nan
    gap, reach = int(round(EXCLUDE_S / step)), max(1, int(round(REACH_S / step)))
    pad = np.pad(pool, (gap + reach, gap + reach), constant_values=np.nan)
    win = np.lib.stride_tricks.sliding_window_view(pad, reach)
    left = win[np.arange(n)]  # samples [i - gap - reach, i - gap)
    right = win[np.arange(n) + 2 * gap + reach + 1]  # samples (i + gap, i + gap + reach]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        sides = np.stack([np.nanmedian(left, axis=1), np.nanmedian(right, axis=1)])
        thin = np.stack([np.isfinite(w).sum(axis=1) < MIN_NEIGHBOURS * reach
                         for w in (left, right)])
        # each side counts the same, however much of it is left: a long stretch seen from
        # inside has clean footage on one side only
        ref = np.nanmean(np.where(thin, np.nan, sides), axis=0)
    return direction * (smooth - ref)


def _step_at(x: np.ndarray, i: int, step: float) -> int:
    """The sample after the largest jump of the measure within STEP_REACH_S of sample i:
    where the level really changes (the flagged run's edge lags it by the running median and
    by the neighbourhood it is judged against)."""
    k = max(1, int(round(STEP_REACH_S / step)))
    lo, hi = max(1, i - k), min(len(x) - 1, i + k)
    if hi < lo:
        return i
    jumps = np.abs(np.diff(x[lo - 1: hi + 1]))
    if not np.isfinite(jumps).any():
        return i
    return lo + int(np.nanargmax(jumps))


def _fill_unjudged(flagged: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Samples deep inside a long stretch, with degraded footage all around them, cannot be
    judged: a gap of such samples between two flagged runs belongs to the stretch."""
    out = flagged.copy()
    for a, b in runs(~flagged):
        if 0 < a and b < len(flagged) and not np.isfinite(d[a:b]).any():
            out[a:b] = True
    return out


def _step(t: np.ndarray) -> float:
    return float(np.median(np.diff(t))) if len(t) > 1 else 0.5


def _quiet_limit(s: Stretch, abrupt: bool = False):
    def measure(video: CleanVideo) -> list[float]:
        """The least limit at which this clean video shows no stretch of the measure (with
        `abrupt`, no stretch with an abrupt end inside a shot)."""
        x = series(video.samples, video.frames, s)
        t = np.asarray(video.samples.get("t", np.zeros(0)), dtype=np.float64)
        if x is None or len(t) < 3:
            return []
        cuts = [sc.start_s for sc in video.scenes[1:]]

        def found(limit: float) -> bool:
            return bool(find_stretches(t, {s.key: x}, {s.key: limit}, cuts,
                                       in_shot=False, abrupt=abrupt)[s.key])
        return [least_quiet(found, 8.0)]
    return measure


LIMITS: dict[str, Quantity] = {s.key: declare(Quantity(
    key=f"stretch.{s.key}", measure=_quiet_limit(s), direction=+1, default=1.0, log=False,
    doc=f"least departure of log {s.signal} ({'up' if s.direction > 0 else 'down'}) from the "
        f"footage {EXCLUDE_S:g}-{EXCLUDE_S + REACH_S:g} s around it at which a clean video "
        "shows no stretch",
)) for s in STRETCHES}
ABRUPT_LIMITS: dict[str, Quantity] = {s.key: declare(Quantity(
    key=f"stretch.{s.key}_abrupt", measure=_quiet_limit(s, abrupt=True), direction=+1,
    default=1.0, log=False,
    doc=f"least departure of log {s.signal} ({'up' if s.direction > 0 else 'down'}) from the "
        "footage around it at which a clean video shows no stretch with an abrupt end "
        f"inside a shot (the level moving {ABRUPT_SHARE:g} of the way within {ABRUPT_S:g} s)",
)) for s in STRETCHES}


def _with_flags(base: np.ndarray, flags: dict[str, np.ndarray]) -> np.ndarray:
    """The samples no neighbourhood may use: `base`, and any sample a measure flagged."""
    return base | np.any(list(flags.values()), axis=0) if flags else base


def _at_cut(x: float, cuts: np.ndarray) -> bool:
    return bool(len(cuts)) and float(np.min(np.abs(cuts - x))) <= CUT_NEAR_S


def _changes_in_shot(t: np.ndarray, x: np.ndarray, at: float, start: float, end: float,
                     cuts: np.ndarray, direction: int, least: float, step: float) -> bool:
    """Whether the stretch [start, end) differs from the rest of the shot holding `at` (one
    of its ends) by `least` in the degraded direction; False when the rest is too short to
    judge (the end is then the shot's cut)."""
    lo = float(cuts[cuts <= at].max()) if (cuts <= at).any() else -np.inf
    hi = float(cuts[cuts > at].min()) if (cuts > at).any() else np.inf
    shot = (t >= lo) & (t < hi) & np.isfinite(x)
    inside = shot & (t >= start) & (t < end)
    rest = shot & ~((t >= start) & (t < end))
    if rest.sum() * step < INSHOT_LEAST_S or not inside.any():
        return False
    return bool(direction * (np.median(x[inside]) - np.median(x[rest])) >= least)


def stretch_events(samples: dict[str, np.ndarray], frames: dict[str, np.ndarray],
                   cuts: list[float] | None = None,
                   known: list[Event] | None = None) -> list[Event]:
    """Every stretch some measure spends beyond its calibrated departure from the footage
    around it, at least MIN_STRETCH_S long, with at least one end inside a shot.

    `cuts` are the shot cuts (s). A degradation starts or ends while the picture goes on (a
    setting changes, a link degrades); a stretch both of whose ends are cuts is a shot, or
    a run of shots, that looks different from the others, which is what a montage of
    unrelated footage is made of. (Both ends are checked because a strong onset, heavy noise,
    can itself read as a cut.) `known`: events found before, whose footage is not a clean
    reference for the others (beside a colour-shifted stretch, clean footage would read as
    softer or duller than its neighbourhood)."""
    t = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    if len(t) < 3:
        return []
    measures = {s.key: series(samples, frames, s) for s in STRETCHES}
    measures = {k: x for k, x in measures.items() if x is not None}
    limits = {k: value(LIMITS[k].key) for k in measures}
    abrupt = {k: value(ABRUPT_LIMITS[k].key) for k in measures}
    by_key = {s.key: s for s in STRETCHES}
    out = []
    taken = np.zeros(len(t), dtype=bool)
    for e in known or []:
        taken |= (t >= e.start_s) & (t < e.end_s)
    any_end = find_stretches(t, measures, limits, cuts, taken)
    sudden = find_stretches(t, {k: x for k, x in measures.items() if abrupt[k] < limits[k]},
                            abrupt, cuts, taken, abrupt=True)
    for k in measures:
        s = by_key[k]
        for start, end, level, limit in _union(
                [(a, b, lv, limits[k]) for a, b, lv in any_end[k]]
                + [(a, b, lv, abrupt[k]) for a, b, lv in sudden.get(k, [])]):
            # how strong, against the plain limit: an abrupt stretch is found from a lower
            # one (it is surer to be a degradation), not seen as any worse
            plain = limits[k]
            sev = float(np.clip(0.3 + 0.7 * (level - plain) / max(2 * plain, 1e-9), 0.3, 1.0))
            out.append(Event(
                type=s.type, subtype=s.subtype, start_s=round(start, 2), end_s=round(end, 2),
                severity=round(sev, 3), score=round(level / max(limit, 1e-9), 2),
                evidence={"signal": s.signal, "departure": round(level, 4),
                          "limit": round(limit, 4),
                          "judged_against": "footage around it (across shots)"},
            ))
    return out


def _union(found: list[tuple[float, float, float, float]]) -> list[
        tuple[float, float, float, float]]:
    """Overlapping stretches of one measure (start, end, departure, limit) as one: their
    union, with the departure and limit of the one that passes its limit furthest."""
    out: list[tuple[float, float, float, float]] = []
    for f in sorted(found):
        if out and f[0] < out[-1][1]:
            a, b, lv, lim = out[-1]
            best = max((lv, lim), f[2:], key=lambda p: p[0] / max(p[1], 1e-9))
            out[-1] = (a, max(b, f[1]), *best)
        else:
            out.append(f)
    return out


def _abrupt(x: np.ndarray, j: int, entering: bool, direction: int, level: float,
            step: float, degraded: np.ndarray) -> bool:
    """Whether the measure moves at least ABRUPT_SHARE of `level` (towards worse when
    `entering`, back when leaving) between the ABRUPT_S before sample j and the ABRUPT_S
    from it, from or into footage that no other measure or event found `degraded` (where
    another degradation starts, the measure may jump by its doing)."""
    w = max(1, int(round(ABRUPT_S / step)))
    before, after = x[max(0, j - w): j], x[j: j + w]
    if degraded[max(0, j - w): j].any() if entering else degraded[j: j + w].any():
        return False
    if not (np.isfinite(before).any() and np.isfinite(after).any()):
        return False
    jump = direction * (np.nanmean(after) - np.nanmean(before))
    return bool((jump if entering else -jump) >= ABRUPT_SHARE * level)


def find_stretches(t: np.ndarray, measures: dict[str, np.ndarray], limits: dict[str, float],
                   cuts: list[float] | None = None, taken: np.ndarray | None = None,
                   in_shot: bool = True,
                   abrupt: bool = False) -> dict[str, list[tuple[float, float, float]]]:
    """(start, end, departure) of every stretch of each measure (keys of STRETCHES); `taken`
    samples are never a reference. `in_shot`: an end inside a shot must also be a change of
    the picture there (off for calibrating the limits, which judges the departure alone: the
    check can only take stretches away, so the false-alarm rate stays at most the stated
    one). `abrupt`: only stretches with an abrupt end inside a shot count (see ABRUPT_S)."""
    step = _step(t)
    cut_times = np.asarray(sorted(cuts or []), dtype=np.float64)
    direction = {s.key: s.direction for s in STRETCHES}
    flags = {k: np.zeros(len(t), dtype=bool) for k in measures}
    base = np.zeros(len(t), dtype=bool) if taken is None else taken
    for _ in range(ROUNDS):  # judged afresh each round without what the last one found
        degraded = _with_flags(base, flags)
        new = {k: np.nan_to_num(departure(x, step, direction[k], degraded), nan=0.0)
               > limits[k] for k, x in measures.items()}
        stable = all((new[k] == flags[k]).all() for k in measures)
        flags = new
        if stable:
            break
    degraded = _with_flags(base, flags)
    out: dict[str, list[tuple[float, float, float]]] = {}
    for k, x in measures.items():
        d = departure(x, step, direction[k], degraded)
        held = np.nan_to_num(d, nan=-np.inf) >= HOLD_SHARE * limits[k]
        flagged = _fill_unjudged(hysteresis(flags[k], held, t, gap_s=0.0), d)
        others = _with_flags(base, {m: f for m, f in flags.items() if m != k})
        out[k] = []
        for a, b in merge_runs(runs(flagged), t, gap_s=MERGE_S):
            ja, jb = _step_at(x, a, step), _step_at(x, b, step)
            start = float(t[ja]) if a > 0 else float(t[0])
            end = float(t[jb]) if b < len(t) else float(t[-1] + step)
            least = INSHOT_SHARE * limits[k]
            inside = d[a:b][flags[k][a:b]]
            level = float(np.nanmedian(inside)) if np.isfinite(inside).any() else limits[k]
            # judged without every sample any measure flagged, the run may no longer stand
            # out (rounds that did not settle, another measure's flags moving its reference)
            if level < limits[k] or end - start < MIN_STRETCH_S or not any(
                    inner and (not abrupt or _abrupt(x, j, entering, direction[k], level, step,
                                                     others))
                    and (not in_shot or _changes_in_shot(t, x, at, start, end, cut_times,
                                                         direction[k], least, step))
                    for at, inner, j, entering in (
                        (start, a > 0 and not _at_cut(start, cut_times), ja, True),
                        (end - 1e-6, b < len(t) and not _at_cut(end, cut_times), jb, False))):
                continue
            out[k].append((start, end, level))
    return out


def merged(events: list[Event], found: list[Event]) -> list[Event]:
    """The scene detectors' events with the stretches added. A stretch lying mostly inside an
    event of another type is that event's doing (grain raises halo, a colour shift moves
    saturation: the detectors that ran first explain it); one mostly inside an event of its
    own type adds nothing but its severity; one that reaches further widens that event to
    their union; the others are new events."""
    events = list(events)

    def share(f: Event, e: Event) -> float:
        return max(0.0, min(e.end_s, f.end_s) - max(e.start_s, f.start_s)) / max(
            f.end_s - f.start_s, 1e-6)

    for f in found:
        if any(e.type != f.type and share(f, e) >= 0.5 for e in events):
            continue
        same = [i for i, e in enumerate(events) if e.type == f.type and share(f, e) > 0]
        if not same:
            events.append(f)
            continue
        for i in same:
            e = events[i]
            if share(f, e) >= 0.5:
                events[i] = replace(e, severity=max(e.severity, f.severity))
            else:
                events[i] = replace(e, start_s=min(e.start_s, f.start_s),
                                    end_s=max(e.end_s, f.end_s),
                                    severity=max(e.severity, f.severity))
    return events
