"""Interlacing: the comb teeth two fields of different moments leave on moving edges.

The `comb` signal is the share of pixels where two neighbouring rows jut out from their own
neighbours in opposite directions: the row-to-row alternation of two fields showing different
moments. Progressive footage shows it almost nowhere (a thin horizontal line juts out alone);
some clean footage (dithered cartoons) shows a steady share of it. A stretch is interlaced
where the share rises above its shot's own quiet level (the shot's lower quartile: interlacing
combs only what moves, a dithered cartoon's comb share is steady) by more than any clean
calibration video's ever does (over 3 samples), for at least MIN_S.

Strong random noise also makes rows jut out from their neighbours by chance. It is told apart
by direction: comb teeth are row-to-row alternation, so they put fine-detail energy into the
vertical second differences only and the picture's anisotropy (`aniso`) rises well above its
shot's (track interlace windows: 3.3-4.5 against 0.5-0.8 around them), while noise raises
every direction alike and drives it towards 0 (0.03-0.07 against 0.75-0.8 under per-pixel and
temporal noise of amplitude 30-40). A stretch whose anisotropy falls below ISOTROPY of the rest
of its shot's is not combing. Combing of fields made by blending frames (motion interpolation
to 50p, then woven) lowers it a little, as the blend softens edges across the motion (0.47
against 0.69 around it on a woven cartoon), not to a tenth as noise does.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tools.detectors.base import scene_ids
from tools.detectors.calibration import CleanVideo, Quantity, declare, value
from tools.detectors.frame_drop import SUBTYPE as RATE_DROP
from tools.detectors.series import overlap_share, runs
from tools.model import Event

MIN_S = 2.0
GAP_S = 6.0  # combing shows only while something moves: pauses this long are one stretch
# Added to the comb share before comparing (a video with no comb teeth at all would make any
# trace of them a large ratio): one alternating pair in 10,000 pixels. Progressive frames show
# none in most samples (the median sample of 13 of the 27 clean clips has none); a clean
# camera clip's busiest sample shows 0 to 1.4e-4 (the coin, the cockatoo).
OFFSET = 1e-4
# Anisotropy inside a stretch below this share of its shot's is noise, not comb teeth.
ISOTROPY = 0.5


def comb_rise(samples: dict[str, np.ndarray], scenes: list | None = None) -> np.ndarray:
    """The comb share (median of 3 samples) over its shot's lower quartile, both offset."""
    comb = np.nan_to_num(np.asarray(samples.get("comb", []), np.float64), nan=0.0)
    if len(comb) < 3:
        return np.zeros(len(comb))
    padded = np.concatenate(([comb[0]], comb, [comb[-1]]))
    smooth = np.median(np.lib.stride_tricks.sliding_window_view(padded, 3), axis=1)
    t = np.asarray(samples.get("t", np.arange(len(comb))), np.float64)
    return (smooth + OFFSET) / (quiet_level(comb, t, scenes) + OFFSET)


def quiet_level(comb: np.ndarray, t: np.ndarray, scenes: list | None) -> np.ndarray:
    """Per sample, the comb share's lower quartile over its shot (of at least 3 samples; the
    whole video's otherwise): what the shot shows while nothing combs."""
    base = np.full(len(comb), float(np.percentile(comb, 25)))
    for s in scenes or []:
        m = (t >= s.start_s) & (t < s.end_s)
        if m.sum() >= 3:
            base[m] = float(np.percentile(comb[m], 25))
    return base


def _highest_rise(v: CleanVideo) -> list[float]:
    rise = comb_rise(v.samples, v.scenes)
    return [float(rise.max())] if len(rise) else []


COMB_RISE = declare(Quantity(
    key="interlace.comb_rise", measure=_highest_rise, direction=+1, default=10.0,
    doc="highest comb share (3 samples) over its shot's lower quartile, in a clean video"))


def interlace_events(samples: dict[str, np.ndarray], scenes: list | None = None) -> list[Event]:
    """Stretches whose comb share rises above its shot's quiet level more than clean
    footage's ever does."""
    t = np.asarray(samples.get("t", []), np.float64)
    comb = np.asarray(samples.get("comb", []), np.float64)
    if len(t) < 3 or len(comb) != len(t):
        return []
    limit = value(COMB_RISE.key)
    rise = comb_rise(samples, scenes)
    step = float(np.median(np.diff(t)))
    merged: list[list[int]] = []
    for a, b in runs(rise > limit):
        if merged and t[a] - t[merged[-1][1] - 1] <= GAP_S + step:
            merged[-1][1] = b
        else:
            merged.append([a, b])
    out = []
    for a, b in merged:
        start, end = float(t[a]), float(t[b - 1] + step)
        if end - start < MIN_S or isotropic(samples, scenes, a, b):
            continue
        level = float(np.median(comb[a:b]))
        r = float(np.median(rise[a:b]))
        sev = float(np.clip(0.4 + 0.3 * np.log2(max(r / limit, 1.0)), 0, 1))
        out.append(Event(
            type="interlace", subtype="combing", start_s=round(start, 2), end_s=round(end, 2),
            severity=round(sev, 3), score=round(r, 2),
            evidence={"comb_share": round(level, 5), "rise": round(r, 2),
                      "clean_limit": round(limit, 2), "samples": int(b - a)},
        ))
    return out


def isotropic(samples: dict[str, np.ndarray], scenes: list | None, a: int, b: int) -> bool:
    """Whether samples a..b are far less directional than the rest of their shot (under
    ISOTROPY of it; the whole video where the shot has no other samples): noise, not comb
    teeth. False when the index has no anisotropy (older indexes) or nothing to compare with."""
    aniso = np.asarray(samples.get("aniso", []), np.float64)
    t = np.asarray(samples.get("t", []), np.float64)
    if len(aniso) != len(t) or not len(t):
        return False
    inside = np.zeros(len(t), dtype=bool)
    inside[a:b] = True
    sid = scene_ids(t, scenes or [])
    shot = (sid == sid[a]) & ~inside
    around = shot if np.isfinite(aniso[shot]).any() else ~inside
    if not np.isfinite(aniso[inside]).any() or not np.isfinite(aniso[around]).any():
        return False
    return bool(np.nanmedian(aniso[inside]) < ISOTROPY * np.nanmedian(aniso[around]))


# A frame-rate drop holding each frame for this many frames, lying for at least this share
# inside an interlaced stretch, is the interlacing's doing: an interlaced frame carries two
# fields, so shown at the progressive rate it stands for two frames.
FIELD_HOLD = 2
FIELD_SHARE = 0.5
# A drop holding each frame for two whose own samples show comb teeth beyond the clean limit
# at least this often is interlaced footage shown at its frame rate, even where the teeth come
# and go with the motion too briefly for a stretch of their own (the 3-sample median of
# `comb_rise` passes a comb that shows in every other sample only now and then). A true
# halved rate repeats progressive pictures: no teeth (the track's three: none over the limit).
PAIR_COMBED = 2


def combed_field_pairs(events: list[Event], samples: dict[str, np.ndarray],
                       scenes: list | None = None) -> list[Event]:
    """The frame-rate drops that hold each frame for two and whose samples show comb teeth
    (PAIR_COMBED of them beyond the clean limit, directional as combing is) read as
    interlacing over the drop's span; every other event kept."""
    t = np.asarray(samples.get("t", []), np.float64)
    comb = np.nan_to_num(np.asarray(samples.get("comb", []), np.float64), nan=0.0)
    if len(t) < 3 or len(comb) != len(t):
        return events
    limit = value(COMB_RISE.key)
    raw = (comb + OFFSET) / (quiet_level(comb, t, scenes) + OFFSET)
    out = []
    for e in events:
        inside = np.flatnonzero((t >= e.start_s) & (t < e.end_s))
        over = inside[raw[inside] > limit] if len(inside) else inside
        if (e.type != "frame_drop" or e.subtype != RATE_DROP or len(over) < PAIR_COMBED
                or int(e.evidence.get("hold_frames", 0)) != FIELD_HOLD
                or isotropic(samples, scenes, int(inside[0]), int(inside[-1]) + 1)):
            out.append(e)
            continue
        r = float(np.median(raw[over]))
        out.append(Event(
            type="interlace", subtype="combing", start_s=e.start_s, end_s=e.end_s,
            severity=round(float(np.clip(0.4 + 0.3 * np.log2(max(r / limit, 1.0)), 0, 1)), 3),
            score=round(r, 2),
            evidence={"comb_share": round(float(np.median(comb[over])), 5), "rise": round(r, 2),
                      "clean_limit": round(limit, 2), "samples": int(len(inside)),
                      "combed_samples": int(len(over)), "frames_held": FIELD_HOLD}))
    return out


def without_field_pairs(events: list[Event]) -> list[Event]:
    """Drop the frame-rate drops that hold each frame for two inside an interlaced stretch
    (the interlacing's own rate; its event says so), keeping every other event."""
    combed = [e for e in events if e.type == "interlace"]
    if not combed:
        return events
    spans = [(e.start_s, e.end_s) for e in combed]
    pairs = [e for e in events if e.type == "frame_drop" and e.subtype == RATE_DROP
             and int(e.evidence.get("hold_frames", 0)) == FIELD_HOLD
             and overlap_share(e.start_s, e.end_s, spans) >= FIELD_SHARE]
    if not pairs:
        return events
    out = []
    for e in events:
        if any(p is e for p in pairs):
            continue
        if e.type == "interlace" and overlap_share(e.start_s, e.end_s, [(p.start_s, p.end_s)
                                                                        for p in pairs]) > 0:
            e = replace(e, evidence={**e.evidence, "frames_held": FIELD_HOLD})
        out.append(e)
    return out


# What comb teeth are also measured as: each tooth is a row jutting out from the rows above
# and below it, the isolated outlier the impulse-noise measure counts and the overshoot at
# edges the halo measure reads. Such an event lying for at least COMB_SHARE inside an
# interlaced stretch is the combing's doing (grain, measured on smooth areas, is not).
COMB_READINGS = (("noise", "impulse"), ("sharpening", "halo"))
COMB_SHARE = 0.5


def explained_by_combing(events: list[Event]) -> list[Event]:
    """The events without the impulse and halo readings of interlaced stretches' teeth."""
    spans = [(e.start_s, e.end_s) for e in events if e.type == "interlace"]
    if not spans:
        return events
    return [e for e in events if (e.type, e.subtype) not in COMB_READINGS
            or overlap_share(e.start_s, e.end_s, spans) < COMB_SHARE]
