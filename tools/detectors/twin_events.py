"""Degradations judged against the same picture elsewhere: each sample's measures against the
median of its twins (tools/detectors/twins.py), where the video shows that picture again.

The scene-relative detectors and the stretches across shots judge a sample against other
content, and must allow for how much content alone moves a measure; on footage that repeats
(a short clip looped, an intro run again) a degradation covering whole shots then goes
unseen. Against its twins a sample's content cancels out, and what is left is the picture's
treatment: a blurred, darkened or recoloured stretch departs from the same frames shown
clean elsewhere. Each measure's limit is the least departure at which no clean calibration
video shows such a stretch, pushed out to the stated false-alarm rate (`bench calibrate`);
footage that never repeats has no twins and gets no events here.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from tools.detectors.calibration import CleanVideo, Quantity, declare, least_quiet, value
from tools.detectors.coded import KINK_OFFSET
from tools.detectors.colour import HUE_WEAK
from tools.detectors.series import (
    hysteresis,
    merge_runs,
    overlap_share,
    rolling_nanmedian,
    runs,
)
from tools.detectors.stretches import HOLD_SHARE, MERGE_S, MIN_STRETCH_S, SMOOTH_S, series
from tools.detectors.twin_motion import (
    replayed_shake,
    shake_at_samples,
    shake_level,
    without_replayed_shake,
)
from tools.detectors.twins import MIN_TWINS, reference, row_quantile, twin_index, twin_lags
from tools.model import Event, Scene

ROUNDS = 10  # judgements at most, each without the samples found degraded before
# Twin events of different types over one stretch: one degradation moves several measures
# (grain raises the halo, darkening lowers the sharpness); the type whose measure passes its
# limit furthest is the degradation, and one mostly inside it is its doing.
INSIDE_SHARE = 0.5
SEVERE_TIMES = 20.0  # a departure this many times the limit is as severe as it gets
JUDGED_AGAINST = "the same picture elsewhere in the video"  # a twin event's evidence says so
TWIN_BACKED = "twin_backed"  # evidence of a detector's event a twin stretch overlaps
ALSO_MEASURED = "also_measured"  # ... and the subtypes of other twin measures moved there
MACROBLOCKING = "macroblocking"


@dataclass(frozen=True)
class TwinMeasure:
    """A measure compared with the same picture elsewhere, and what its departure means."""

    key: str
    signal: str  # a sample signal, "luma" (the frame's mean at the sample) or "hue"
    direction: int  # +1 a degradation raises it, -1 lowers it, 0 either way (hue)
    type: str
    subtype: str
    offset: float  # added before the log (levels that reach 0)
    top: float  # the largest departure the calibration searches up to
    # read against the picture's contrast range to this power: a darker, flatter or
    # brighter picture scales the Laplacian's variance by the square of its gain and the
    # halo by the gain, and is not less or more sharp for it
    per_contrast: float = 0.0
    # judged only where the replays' own level is above zero: the macroblock kinks of footage
    # whose grain hides its grid (kinks inside the blocks as strong as on their borders) rise
    # when any blur takes the grain away, without a coder (a defocused broadcast: -0.31 -> +0.2)
    above_zero: bool = False


MEASURES: tuple[TwinMeasure, ...] = (
    TwinMeasure("sharpness_down", "sharpness", -1, "blur", "softness", 1.0, 8.0, 2.0),
    TwinMeasure("noise_up", "noise", +1, "noise", "grain", 1.0, 8.0),
    TwinMeasure("halo_up", "halo", +1, "sharpening", "halo", 2.0, 8.0, 1.0),
    TwinMeasure("blockiness_up", "blockiness", +1, "compression", "blocking", 0.01, 8.0),
    # the 16-px macroblock kinks of a low-quality H.264 window (grey levels; half a level
    # added, as clean encodes read 0.1-0.4 and a kink under that is not seen)
    TwinMeasure("mb_up", "mb", +1, "compression", MACROBLOCKING, KINK_OFFSET, 8.0,
                above_zero=True),
    TwinMeasure("luma_down", "luma", -1, "exposure", "too dark", 8.0, 8.0),
    TwinMeasure("luma_up", "luma", +1, "exposure", "too bright", 8.0, 8.0),
    TwinMeasure("contrast_down", "contrast_range", -1, "exposure", "low contrast", 8.0, 8.0),
    TwinMeasure("saturation_up", "saturation", +1, "colour", "oversaturation", 8.0, 8.0),
    TwinMeasure("saturation_down", "saturation", -1, "colour", "desaturation", 8.0, 8.0),
    # the turn of the picture's mean chroma direction from its twins', as log(1 + chord)
    TwinMeasure("hue", "hue", 0, "colour", "hue shift", 0.0, float(np.log(3.0))),
)


def _series(samples: dict[str, np.ndarray], frames: dict[str, np.ndarray],
            m: TwinMeasure) -> np.ndarray | None:
    """The measure at every sample on a log scale (hue: the chroma angle in degrees, NaN
    where the picture has too little colour for an angle to mean anything)."""
    if m.signal == "hue":
        hx, hy = samples.get("hue_x"), samples.get("hue_y")
        if hx is None or hy is None:
            return None
        hx, hy = np.asarray(hx, dtype=np.float64), np.asarray(hy, dtype=np.float64)
        return np.where(np.hypot(hx, hy) >= HUE_WEAK, np.degrees(np.arctan2(hy, hx)), np.nan)
    out = series(samples, frames, m)  # read as the stretches read it (signal, offset)
    if out is None:
        return None
    if m.per_contrast:
        cr = samples.get("contrast_range")
        if cr is None:
            return None
        out = out - m.per_contrast * np.log(np.maximum(np.asarray(cr, np.float64), 0.0) + 8.0)
    return out


def _departure(x: np.ndarray, twins: np.ndarray, m: TwinMeasure,
               excluded: np.ndarray | None) -> np.ndarray:
    """How far each sample lies from its twins' median in the degraded direction, beyond the
    twins' own spread (the upper quartile of their distances from their median): twins that
    disagree are not one picture, or not one treatment of it (a cut-scene that replays one
    motion at two zooms matches its own course every half loop, at two sharpness levels)."""
    if m.signal == "hue":  # circular: the twins' median angle, taken around the sample's own
        wrapped = lambda a: (a + 180.0) % 360.0 - 180.0  # noqa: E731
        rel = np.where(np.isfinite(x), x, 0.0)
        centred = np.where(twins >= 0, wrapped(x[np.maximum(twins, 0)] - rel[:, None]), np.nan)
        if excluded is not None:
            centred = np.where(excluded[np.maximum(twins, 0)], np.nan, centred)
        med = row_quantile(centred, 0.5)
        spread = row_quantile(np.abs(centred - med[:, None]), 0.75)
        enough = np.isfinite(centred).sum(axis=1) >= MIN_TWINS
        turn = np.where(enough & np.isfinite(x), np.abs(med) - spread, np.nan)
        # as a ratio like the others': a turn by theta moves the chroma vector by the chord
        # 2 sin(theta / 2) of its length
        chord = 2.0 * np.sin(np.radians(np.minimum(np.abs(turn), 180.0)) / 2.0)
        return np.sign(turn) * np.log1p(chord)
    ref, spread = reference(x, twins, excluded)
    if m.above_zero:  # the series is log(max(level, 0) + offset): zero is log(offset)
        ref = np.where(ref > np.log(m.offset) + 1e-9, ref, np.nan)
    return m.direction * (x - ref) - spread


def find_twin_stretches(t: np.ndarray, measures: dict[str, np.ndarray], twins: np.ndarray,
                        limits: dict[str, float]) -> dict[str, list[tuple[float, float, float]]]:
    """(start, end, departure) of every stretch of at least MIN_STRETCH_S each measure (keys
    of MEASURES) spends beyond its limit from its twins, after a SMOOTH_S running median.
    Judged again without the samples any measure found degraded, until that settles."""
    by_key = {m.key: m for m in MEASURES}
    n = len(t)
    step = float(np.median(np.diff(t))) if n > 1 else 0.5
    k = max(1, int(round(SMOOTH_S / step))) | 1

    def smoothed(key: str, excluded: np.ndarray) -> np.ndarray:
        return rolling_nanmedian(_departure(measures[key], twins, by_key[key], excluded), k)

    def flagged_by_any(flags: dict[str, np.ndarray]) -> np.ndarray:
        return np.any(list(flags.values()), axis=0) if flags else np.zeros(n, bool)

    flags = {key: np.zeros(n, dtype=bool) for key in measures}
    for _ in range(ROUNDS):
        excluded = flagged_by_any(flags)
        new = {key: np.nan_to_num(smoothed(key, excluded), nan=0.0) > limits[key]
               for key in measures}
        stable = all((new[key] == flags[key]).all() for key in measures)
        flags = new
        if stable:
            break
    excluded = flagged_by_any(flags)
    out: dict[str, list[tuple[float, float, float]]] = {}
    for key in measures:
        d = smoothed(key, excluded)
        held = np.nan_to_num(d, nan=-np.inf) >= HOLD_SHARE * limits[key]
        flagged = _bridged(hysteresis(flags[key], held, t, gap_s=0.0), d, HOLD_SHARE * limits[key])
        out[key] = []
        for a, b in merge_runs(runs(flagged), t, gap_s=MERGE_S):
            inside = d[a:b][flags[key][a:b]]
            level = float(np.nanmedian(inside)) if np.isfinite(inside).any() else 0.0
            start, end = float(t[a]), float(t[b - 1] + step)
            if level >= limits[key] and end - start >= MIN_STRETCH_S:
                out[key].append((start, end, level))
    return out


def _bridged(flagged: np.ndarray, d: np.ndarray, clean_below: float) -> np.ndarray:
    """Flagged runs joined across gaps where no sample was judged clean: parts of a loop
    have no twins (a still moment, a cut), and a degraded stretch is not split there."""
    out = flagged.copy()
    for a, b in runs(~flagged):
        if 0 < a and b < len(flagged) and not (np.nan_to_num(d[a:b], nan=np.inf)
                                               < clean_below).any():
            out[a:b] = True
    return out


def _twins(video: CleanVideo) -> np.ndarray:
    cuts = [sc.start_frame for sc in video.scenes[1:]]
    return video.once("twins", lambda: twin_index(twin_lags(video.frames, video.samples,
                                                            video.fps, cuts)))


def _quiet_limit(m: TwinMeasure):
    def measure(video: CleanVideo) -> list[float]:
        """The least limit at which this clean video shows no stretch of the measure."""
        x = _series(video.samples, video.frames, m)
        t = np.asarray(video.samples.get("t", np.zeros(0)), dtype=np.float64)
        if x is None or len(t) < 3:
            return []
        twins = _twins(video)
        if not (twins >= 0).any():
            return []

        def found(limit: float) -> bool:
            return bool(find_twin_stretches(t, {m.key: x}, twins, {m.key: limit})[m.key])

        return [_as_stored(least_quiet(found, m.top))]
    return measure


def _as_stored(limit: float) -> float:
    """Limits are kept as ratios (exp of the log departure), so that the calibration's
    margin lies a ratio beyond the most extreme clean one (for hue: a 14.4-degree turn
    beyond, which moves the chroma vector by a quarter of its length)."""
    return float(np.exp(limit))


def limit_of(m: TwinMeasure) -> float:
    """The calibrated limit of the measure's (log) departure."""
    return float(np.log(max(value(LIMITS[m.key].key), 1.0 + 1e-9)))


LIMITS: dict[str, Quantity] = {m.key: declare(Quantity(
    key=f"twin.{m.key}", measure=_quiet_limit(m), direction=+1,
    default=_as_stored(m.top), log=True,
    doc=(f"least ratio of {'1 + the chroma turn (chord)' if m.signal == 'hue' else m.signal}"
         f"{'' if m.direction == 0 else (' up' if m.direction > 0 else ' down')} to the same "
         "picture elsewhere in the video (beyond its replays' own spread) at which a clean "
         "video shows no stretch"),
)) for m in MEASURES}


def twin_events(samples: dict[str, np.ndarray], frames: dict[str, np.ndarray],
                fps: float, cuts: list[int] | None = None,
                twins: np.ndarray | None = None) -> list[Event]:
    """Every stretch where some measure departs beyond its calibrated limit from the same
    picture shown elsewhere in the video; of overlapping ones of different types, the one
    whose measure passes its limit furthest."""
    t = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    if len(t) < 3:
        return []
    if twins is None:
        twins = twin_index(twin_lags(frames, samples, fps, cuts))
    if not (twins >= 0).any():
        return []
    by_key = {m.key: m for m in MEASURES}
    measures = {m.key: _series(samples, frames, m) for m in MEASURES}
    measures = {k: x for k, x in measures.items() if x is not None}
    limits = {k: limit_of(by_key[k]) for k in measures}
    found = find_twin_stretches(t, measures, twins, limits)
    events = []
    for key, stretches in found.items():
        m = by_key[key]
        for start, end, level in stretches:
            lim = limits[key]
            sev = _severity(level / max(lim, 1e-9))
            events.append(Event(
                type=m.type, subtype=m.subtype, start_s=round(start, 2), end_s=round(end, 2),
                severity=sev, score=round(level / max(lim, 1e-9), 2),
                evidence={"signal": m.signal, "departure": round(level, 4),
                          "limit": round(lim, 4),
                          "judged_against": JUDGED_AGAINST},
            ))
    return _strongest(events)


def _severity(times: float) -> float:
    """0.3 at the limit, growing with the log of how many times the limit the departure is,
    1.0 from SEVERE_TIMES on: the limits are tight (a quarter beyond the clean replays'
    largest departure), and a linear ramp gave every blur of a track video 1.0, which left
    a trend of growing blur with nothing to grow."""
    return round(float(np.clip(0.3 + 0.7 * np.log(max(times, 1.0)) / np.log(SEVERE_TIMES),
                               0.3, 1.0)), 3)


def _inside(e: Event, f: Event) -> bool:
    """Whether event e lies mostly (INSIDE_SHARE) inside event f."""
    return overlap_share(e.start_s, e.end_s, [(f.start_s, f.end_s)]) >= INSIDE_SHARE


def _strongest(events: list[Event]) -> list[Event]:
    """Of twin events over one stretch, the strongest type's, and those not mostly inside
    an event of another type kept before them. Macroblocking goes first and takes only the
    blur inside it: a coder at a high QP smooths detail away as far as a blur does (the
    sharpness falls further past its limit than the kinks rise past theirs), but a blur
    lowers the kinks, never raises them."""
    kept: list[Event] = []
    for e in sorted(events, key=lambda e: (e.subtype != MACROBLOCKING, -e.score)):
        if not any(k.type != e.type and _inside(e, k)
                   and (k.subtype != MACROBLOCKING or e.type == "blur") for k in kept):
            kept.append(e)
    return sorted(kept, key=lambda e: (e.start_s, e.type))


# The types a twin stretch can name; the others (freezes, frame drops, flicker, shake,
# interlacing, damage) are judged on the frames' course and never its doing.
TWIN_TYPES = frozenset(m.type for m in MEASURES)
MOVES_PICTURE = frozenset({"flicker", "jitter", "interlace", "corruption"})


def _measure_of(e: Event) -> TwinMeasure | None:
    """The twin measure an event's type and subtype are read from, if any."""
    for m in MEASURES:
        if e.type == m.type and (e.subtype == m.subtype or e.type in ("blur", "sharpening")):
            return m
    return None


def contradicted(e: Event, samples: dict[str, np.ndarray], frames: dict[str, np.ndarray],
                 twins: np.ndarray) -> bool:
    """Whether the same picture shown elsewhere says the event's own measure did not move:
    over most of the event the measure lies within its twins' own spread of theirs (twins
    inside the event left out). Content read as a defect by its shot (a cut-scene's own
    colours, a dark set) looks the same wherever the video shows it again."""
    m = _measure_of(e)
    if m is None or e.evidence.get("whole_video") or twins.shape[1] == 0:
        return False
    x = _series(samples, frames, m)
    t = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    if x is None or len(t) != len(x):
        return False
    inside = (t >= e.start_s) & (t < e.end_s)
    d = _departure(x, twins, m, inside)[inside]
    judged = np.isfinite(d)
    if judged.sum() < max(MIN_TWINS, 0.5 * inside.sum()):
        return False
    return bool(np.median(d[judged]) <= 0.0)


def judged_with_twins(events: list[Event], samples: dict[str, np.ndarray],
                      frames: dict[str, np.ndarray], fps: float,
                      scenes: list[Scene]) -> list[Event]:
    """The detectors' events judged against the same picture elsewhere: those it
    contradicts dropped (shake too: `twin_motion`, at frame resolution first), the twin
    stretches added (`with_twins`)."""
    if len(samples.get("t", ())) < 3:
        return events
    level = shake_level(events, frames, scenes, fps)
    events = without_replayed_shake(events, frames, level, fps)
    twins = twin_index(twin_lags(frames, samples, fps, [sc.start_frame for sc in scenes[1:]]))
    if not (twins >= 0).any():
        return events
    kept = [e for e in events if not contradicted(e, samples, frames, twins)]
    if level is not None and any(e.type == "jitter" for e in kept):
        shake = shake_at_samples(frames, samples, level)
        kept = [e for e in kept if not replayed_shake(e, shake, samples, twins)]
    return with_twins(kept, twin_events(samples, frames, fps, twins=twins))


def with_twins(events: list[Event], found: list[Event]) -> list[Event]:
    """The detectors' events with the twin stretches added. A twin stretch is judged against
    the same picture, so no event of another picture type explains it away (a whole-video
    look of the clip's own coding says nothing of a blurred minute); the events the twins
    contradict were dropped before (`contradicted`). A twin stretch mostly inside a temporal
    event that moves the picture's measures (flicker, shake, interlacing, damage) is that
    event's doing (repeated frames move none); one overlapping an event of its own type
    widens it, which keeps the severity its own detector graded. A macroblocked stretch
    takes the blur events mostly inside it."""
    temporal = [e for e in events if e.type not in TWIN_TYPES]
    found = [f for f in found if not any(e.type in MOVES_PICTURE and _inside(f, e)
                                         for e in temporal)]
    # blur lowers the macroblock kinks: softness mostly inside a macroblocked stretch is the
    # coder's smoothing, not a blur of its own
    coded = [f for f in found if f.subtype == MACROBLOCKING]
    out = [e for e in events if e.type != "blur" or not any(_inside(e, f) for f in coded)]
    for f in found:
        same = [i for i, e in enumerate(out) if e.type == f.type
                and min(e.end_s, f.end_s) > max(e.start_s, f.start_s)]
        if not same:
            out.append(f)
        for i in same:  # its own detector graded it: the twin stretch only widens it
            e = out[i]
            if _misnamed(e, f, found):
                out[i] = replace(f, start_s=min(e.start_s, f.start_s),
                                 end_s=max(e.end_s, f.end_s))
            else:  # backed by the same picture elsewhere: past the gates (gates.gated)
                evidence = {**e.evidence, TWIN_BACKED: True}
                me, mf = _measure_of(e), _measure_of(f)
                if me is not None and mf is not None and me is not mf:
                    # the twins measured another change of its type there too (a washed-out
                    # stretch whose weak colours turned): said, so a question naming it finds it
                    evidence[ALSO_MEASURED] = sorted({*evidence.get(ALSO_MEASURED, ()),
                                                      f.subtype})
                if _inside(f, e):  # (a stretch mostly inside it leaves its edges)
                    out[i] = replace(e, evidence=evidence)
                else:
                    out[i] = replace(e, start_s=min(e.start_s, f.start_s),
                                     end_s=max(e.end_s, f.end_s), evidence=evidence)
    return out


def _misnamed(e: Event, f: Event, found: list[Event]) -> bool:
    """Whether the twin stretch f names what the detector's event e of its type measured
    wrongly: e reads another twin measure (a hue shift where the saturation fell, too dark
    where the contrast fell), lies mostly inside f, and the twins find no stretch of e's own
    measure over it. Subtypes read from one measure (blur's, sharpening's) are one reading."""
    me, mf = _measure_of(e), _measure_of(f)
    if me is None or mf is None or me.key == mf.key or not _inside(e, f):
        return False
    return not any(_measure_of(g) is me and min(g.end_s, e.end_s) > max(g.start_s, e.start_s)
                   for g in found)


def judged_by_twins(e: Event) -> bool:
    """Whether the event is a twin stretch (judged against the same picture elsewhere)."""
    return e.evidence.get("judged_against") == JUDGED_AGAINST
