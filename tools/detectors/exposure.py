"""Exposure: too bright (lifted blacks, washed out) and low contrast (black and white points
drawn together)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tools.detectors.base import MERGE_GAP_S, MIN_EVENT_S, Context, scene_ids
from tools.detectors.series import merge_runs, runs, smooth_mask
from tools.detectors.spatial_events import SPATIAL_MIN_SAMPLES, SpatialDetector
from tools.detectors.spatial_spec import SpatialSpec
from tools.detectors.twin_events import ALSO_MEASURED
from tools.model import Event

TOO_BRIGHT = SpatialSpec("exposure", "too bright", "black", +1, 18.0, 120.0, log=False)
# A slight contrast cut (x0.8: a 0.22 log step) is visible only as an abrupt step: paired
# steps open from 0.45 x the smallest deviation when the black and white points close in.
LOW_CONTRAST = SpatialSpec("exposure", "low contrast", "contrast_range", -1, np.log(1.5),
                           np.log(4.0), pair_least=0.45, squeeze=True)

# A picture whose darkest pixels are this bright while it has all but lost its colour is
# washed out whatever its content (brightness pushed up until the channels clip): seen only
# in such needles over 30 3-min videos, where clean bright scenes keep saturation >= 60.
WASHED_BLACK = 140.0
WASHED_SATURATION = 15.0


# A flattened contrast draws the black point up and the white point down toward mid grey; a
# darkened picture moves both down (the blacks crushed to the floor, the whites fall): a "low
# contrast" reading whose black point is crushed (at most BLACK_CRUSHED) and has not risen
# above its shot's (within BLACK_SLACK grey levels) while its white point fell is the
# picture made darker.
BLACK_SLACK = 2.0
BLACK_CRUSHED = 8.0


class ExposureDetector(SpatialDetector):
    """Lifted blacks and flattened contrast, against each scene's own levels."""

    name = "exposure"
    types = ("exposure",)
    explained_by = ("temporal",)
    specs = (TOO_BRIGHT, LOW_CONTRAST)


def washed_out(ctx: Context, events: list[Event]) -> list[Event]:
    """The events with severe overexposure read from its absolute look: too-bright events
    whose darkest pixels are bright are severe, and washed-out stretches no scene reference
    showed (covering whole shots; white frames carry no structure to track) are added."""
    samples = ctx.samples
    if not all(k in samples for k in ("t", "black", "saturation")) or \
            len(samples["t"]) < SPATIAL_MIN_SAMPLES:
        return events
    events = list(events)
    t = samples["t"]
    flag = smooth_mask((samples["black"] >= WASHED_BLACK)
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
    for a, b in merge_runs(runs(flag), t, gap_s=MERGE_GAP_S):
        if t[b - 1] - t[a] + step < MIN_EVENT_S:
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


def darkened(events: list[Event], samples: dict[str, np.ndarray],
             scenes: list) -> list[Event]:
    """Low-contrast readings whose black point is crushed and did not rise while the white
    point fell, renamed "too dark" (their span and severity kept; the points in the
    evidence). Applied after the gates: the name changes, not whether it is reported."""
    if not all(k in samples for k in ("t", "black", "white")) or not scenes:
        return events
    t = np.asarray(samples["t"], dtype=np.float64)
    sid = scene_ids(t, scenes)
    black = np.asarray(samples["black"], dtype=np.float64)
    white = np.asarray(samples["white"], dtype=np.float64)
    out = []
    for e in events:
        if (e.type, e.subtype) == ("exposure", "low contrast"):
            inside = (t >= e.start_s) & (t < e.end_s)
            ref = np.isin(sid, np.unique(sid[inside])) & ~inside
            if inside.sum() >= SPATIAL_MIN_SAMPLES and ref.sum() >= SPATIAL_MIN_SAMPLES:
                b_in, b_ref = float(np.nanmedian(black[inside])), float(np.nanmedian(black[ref]))
                w_in, w_ref = float(np.nanmedian(white[inside])), float(np.nanmedian(white[ref]))
                if b_in <= min(b_ref + BLACK_SLACK, BLACK_CRUSHED) and \
                        w_in < w_ref - BLACK_SLACK:
                    also = [x for x in e.evidence.get(ALSO_MEASURED, []) if x != "too dark"]
                    e = replace(e, subtype="too dark", evidence={
                        **{k: v for k, v in e.evidence.items() if k != ALSO_MEASURED},
                        **({ALSO_MEASURED: also} if also else {}),
                        "black_in_event": round(b_in, 2),
                        "black_around": round(b_ref, 2), "white_in_event": round(w_in, 2),
                        "white_around": round(w_ref, 2)})
        out.append(e)
    return out
