"""Window statistics over a quality index: what a time window measured, how it compares.

Pure numpy over a `VideoIndex`: per-signal summaries of a window, per-distortion-type scores
against the whole video's typical level, the events inside it and a 0-100 quality figure;
equal segments; and per-second aggregates for plots and overviews. No decoding, no models.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tools.detectors import SPATIAL_SPECS
from tools.detectors.twin_events import ALSO_MEASURED
from tools.model import Event

# Per-frame brightness swing that counts as a flicker hit, and the detector's density cut.
FLICKER_SWING = 1.5
FLICKER_SHARE = 0.25


@dataclass(frozen=True)
class Overlap:
    """An event and how much of it falls in a window."""

    event: Event
    overlap_s: float


def clamp_window(
    start_s: float | None, end_s: float | None, duration_s: float, min_len_s: float = 0.5
) -> tuple[float, float]:
    """A window inside [0, duration]: order fixed, None as the video's edge, at least min_len."""
    d = max(float(duration_s), 0.0)
    a = 0.0 if start_s is None else float(start_s)
    b = d if end_s is None else float(end_s)
    if not np.isfinite(a):
        a = 0.0
    if not np.isfinite(b):
        b = d
    a, b = min(a, b), max(a, b)
    a, b = min(max(a, 0.0), d), min(max(b, 0.0), d)
    if b - a < min_len_s:
        mid = 0.5 * (a + b)
        a, b = max(0.0, mid - min_len_s / 2), min(d, mid + min_len_s / 2)
    return round(a, 3), round(b, 3)


def equal_segments(duration_s: float, n: int) -> list[tuple[float, float]]:
    """n equal windows covering the video."""
    n = max(1, int(n))
    edges = np.linspace(0.0, float(duration_s), n + 1)
    return [(round(float(a), 3), round(float(b), 3)) for a, b in zip(edges[:-1], edges[1:],
                                                                      strict=True)]


def overlaps(
    events: Iterable[Event],
    start_s: float,
    end_s: float,
    types: Sequence[str] | None = None,
    subtype: str = "",
    min_severity: float = 0.0,
) -> list[Overlap]:
    """Events of `types` (all when None/empty) overlapping [start_s, end_s], by start time."""
    out = []
    for e in events:
        if types and e.type not in types:
            continue
        if subtype and e.subtype and e.subtype != subtype:
            continue
        if e.severity < min_severity:
            continue
        ov = min(e.end_s, end_s) - max(e.start_s, start_s)
        if ov > 0 or (e.end_s == e.start_s and start_s <= e.start_s <= end_s):
            out.append(Overlap(e, round(max(ov, 0.0), 3)))
    return sorted(out, key=lambda o: (o.event.start_s, o.event.type))


def impairment(ovs: Sequence[Overlap], duration_s: float) -> float:
    """0 (clean) .. 1: the share of the window's viewing spoiled, weighting time by severity.

    1 - prod(1 - severity * covered fraction): one mild short event barely counts, a severe
    event over the whole window counts fully.
    """
    if duration_s <= 0 or not ovs:
        return 0.0
    keep = 1.0
    for o in ovs:
        keep *= 1.0 - float(np.clip(o.event.severity * o.overlap_s / duration_s, 0.0, 1.0))
    return float(1.0 - keep)


def quality(ovs: Sequence[Overlap], duration_s: float) -> float:
    """0..100 quality of a window from the events in it (100: nothing found)."""
    return round(100.0 * (1.0 - impairment(ovs, duration_s)), 1)


# ---------------------------------------------------------------- derived series


def flicker_swing(luma: np.ndarray) -> np.ndarray:
    """Per-frame brightness swing: |luma - mean of its two neighbours| (0 at the ends)."""
    m = luma.astype(np.float64)
    out = np.zeros(len(m))
    if len(m) >= 3:
        out[1:-1] = np.abs(m[1:-1] - 0.5 * (m[:-2] + m[2:]))
    return out


def repeated(diff: np.ndarray) -> np.ndarray:
    """Frames that repeat the previous one (no change, far below the video's typical change)."""
    d = np.nan_to_num(diff.astype(np.float64), nan=1.0)
    typical = float(np.median(d)) if len(d) else 0.0
    return d <= min(0.08, 0.25 * typical)


def jerk(motion_x: np.ndarray, motion_y: np.ndarray) -> np.ndarray:
    """Per-frame jerk of global motion (px): how far it departs from its neighbours' mean."""
    vx, vy = motion_x.astype(np.float64), motion_y.astype(np.float64)
    out = np.zeros(len(vx))
    if len(vx) >= 3:
        out[1:-1] = np.hypot(vx[1:-1] - 0.5 * (vx[:-2] + vx[2:]),
                             vy[1:-1] - 0.5 * (vy[:-2] + vy[2:]))
    return out


def _spatial_series(samples: dict[str, np.ndarray], signal: str, log: bool,
                    offset: float) -> np.ndarray:
    if signal == "hue":
        return np.degrees(np.arctan2(samples["hue_y"], samples["hue_x"])).astype(np.float64)
    x = samples[signal].astype(np.float64)
    if not log:
        return x
    with np.errstate(divide="ignore"):
        return np.log(np.maximum(x, 0) + offset)


def _nanmedian(x: np.ndarray) -> float:
    x = x[np.isfinite(x)]
    return float(np.median(x)) if len(x) else float("nan")


def _r(x: float, nd: int = 4) -> float | None:
    return round(float(x), nd) if np.isfinite(x) else None


# ---------------------------------------------------------------- window statistics


def type_scores(index: Any, start_s: float, end_s: float) -> dict[str, float]:
    """How strongly each distortion type shows in the window against the whole video.

    Spatial types: the window's median departure from the video's median, in units of the
    detector's smallest reportable step (>= 1: as large as a reportable event). Temporal types:
    the share of flicker hits, repeated frames or jerky motion, in units of the detector's cut.
    """
    s, f = index.samples, index.frames
    scores: dict[str, float] = {}
    if len(s.get("t", [])):
        sel = (s["t"] >= start_s) & (s["t"] < end_s)
        if not sel.any():
            sel = np.abs(s["t"] - 0.5 * (start_s + end_s)) == np.min(
                np.abs(s["t"] - 0.5 * (start_s + end_s)))
        for spec in SPATIAL_SPECS:
            if spec.signal != "hue" and spec.signal not in s:
                continue
            x = _spatial_series(s, spec.signal, spec.log, spec.offset)
            ref, win = _nanmedian(x), _nanmedian(x[sel])
            if not (np.isfinite(ref) and np.isfinite(win)):
                continue
            d = win - ref
            if spec.signal == "hue":
                d = abs((d + 180.0) % 360.0 - 180.0)
            elif spec.direction == 0:
                d = abs(d)
            else:
                d = spec.direction * d
            score = max(0.0, d / spec.min_delta)
            scores[spec.type] = round(max(scores.get(spec.type, 0.0), score), 3)
    if len(f.get("t", [])) >= 3:
        sel = (f["t"] >= start_s) & (f["t"] < end_s)
        if sel.sum() >= 3:
            luma = f["luma"].astype(np.float64)
            diff = np.nan_to_num(f["diff"].astype(np.float64), nan=0.0)
            swing = flicker_swing(luma)
            dm = np.abs(np.diff(luma, prepend=luma[0]))
            hit = (swing > FLICKER_SWING) & (dm / np.maximum(diff, 1e-3) > 0.45)
            scores["flicker"] = round(float(hit[sel].mean()) / FLICKER_SHARE, 3)
            rep = repeated(f["diff"])
            share = float(rep[sel].mean()) - float(rep.mean())
            scores["frame_drop"] = round(max(0.0, share) / 0.1, 3)
            scores["stutter"] = scores["frame_drop"]
            jk = jerk(f["motion_x"], f["motion_y"])
            base = float(np.percentile(jk, 50))
            scores["jitter"] = round(max(0.0, float(np.median(jk[sel])) - base) / 0.25, 3)
    return scores


def signal_summary(index: Any, start_s: float, end_s: float) -> dict[str, Any]:
    """Medians of the main signals in the window, and the same over the whole video."""
    s, f = index.samples, index.frames
    out: dict[str, Any] = {}

    def put(name: str, x: np.ndarray, t: np.ndarray, nd: int = 3) -> None:
        sel = (t >= start_s) & (t < end_s)
        out[name] = {"window": _r(_nanmedian(x[sel]), nd) if sel.any() else None,
                     "video": _r(_nanmedian(x), nd)}

    if len(s.get("t", [])):
        for name in ("sharpness", "detail", "noise", "blockiness", "halo", "contrast_range",
                     "saturation", "black", "white"):
            if name in s:
                put(name, s[name].astype(np.float64), s["t"])
    if len(f.get("t", [])):
        put("luma", f["luma"].astype(np.float64), f["t"], 2)
        put("luma_swing", flicker_swing(f["luma"]), f["t"])
        put("frame_diff", np.nan_to_num(f["diff"].astype(np.float64)), f["t"])
        rep = repeated(f["diff"]).astype(np.float64)
        sel = (f["t"] >= start_s) & (f["t"] < end_s)
        out["repeated_share"] = {"window": _r(rep[sel].mean()) if sel.any() else None,
                                 "video": _r(rep.mean())}
        put("motion_jerk", jerk(f["motion_x"], f["motion_y"]), f["t"])
    return out


def window_stats(index: Any, start_s: float, end_s: float, types: Sequence[str] | None = None,
                 subtype: str = "") -> dict[str, Any]:
    """Everything one window measured: signals, type scores, events, quality (JSON-able)."""
    dur = max(end_s - start_s, 1e-6)
    ovs = overlaps(index.events, start_s, end_s, types, subtype)
    all_ovs = overlaps(index.events, start_s, end_s) if types else ovs
    worst = max((o.event.severity for o in ovs), default=0.0)
    return {
        "start_s": round(start_s, 3),
        "end_s": round(end_s, 3),
        "quality": quality(all_ovs, dur),
        "impairment": round(impairment(ovs, dur), 4),
        "worst_severity": round(worst, 3),
        "covered_s": round(covered(ovs, start_s, end_s), 3),
        "events": [event_dict(o.event, o.overlap_s) for o in ovs],
        "type_scores": type_scores(index, start_s, end_s),
        "signals": signal_summary(index, start_s, end_s),
    }


def span_union_s(spans: Iterable[tuple[float, float]]) -> float:
    """Seconds covered by at least one of the (start, end) spans (overlaps counted once)."""
    total, cur_a, cur_b = 0.0, None, None
    for a, b in sorted(spans):
        if b <= a:
            continue
        if cur_b is None or a > cur_b:
            if cur_b is not None:
                total += cur_b - cur_a
            cur_a, cur_b = a, b
        else:
            cur_b = max(cur_b, b)
    if cur_b is not None:
        total += cur_b - cur_a
    return total


def covered(ovs: Sequence[Overlap], start_s: float, end_s: float) -> float:
    """Seconds of [start_s, end_s] covered by at least one of the events (overlaps merged)."""
    return span_union_s((max(o.event.start_s, start_s), min(o.event.end_s, end_s))
                        for o in ovs)


def event_dict(e: Event, overlap_s: float | None = None) -> dict[str, Any]:
    """A compact event record: type, subtype, times, severity, score, a few evidence numbers."""
    d: dict[str, Any] = {
        "type": e.type,
        "subtype": e.subtype,
        "start_s": round(e.start_s, 2),
        "end_s": round(e.end_s, 2),
        "severity": round(e.severity, 3),
        "score": round(e.score, 2),
    }
    if overlap_s is not None and overlap_s < (e.end_s - e.start_s) - 0.01:
        d["overlap_s"] = round(overlap_s, 2)
    ev = {k: v for k, v in list(e.evidence.items())[:4]
          if isinstance(v, int | float | str) and not isinstance(v, bool)}
    if ev:
        d["evidence"] = ev
    if e.evidence.get("tint"):  # the colour a cast or hue shift pushes toward
        d["tint"] = e.evidence["tint"]
    if e.evidence.get("recoded_from"):  # retyped after grading: its severity is that scale's
        d["graded_as"] = e.evidence["recoded_from"]
    if e.evidence.get(ALSO_MEASURED):  # other changes of its type the twins measured there
        d[ALSO_MEASURED] = list(e.evidence[ALSO_MEASURED])
    return d


def rank_windows(stats: Sequence[dict[str, Any]]) -> list[int]:
    """Indices of windows from most to least degraded (worst severity, then impairment)."""
    return sorted(range(len(stats)),
                  key=lambda i: (-stats[i]["worst_severity"], -stats[i]["impairment"],
                                 stats[i]["quality"], i))


def trend(values: Sequence[float]) -> dict[str, float]:
    """Least-squares slope of a series over its positions, total change and spread."""
    y = np.asarray(values, dtype=np.float64)
    if len(y) < 2:
        return {"slope": 0.0, "change": 0.0, "std": 0.0, "corr": 0.0}
    x = np.arange(len(y), dtype=np.float64)
    slope = float(np.polyfit(x, y, 1)[0])
    corr = float(np.corrcoef(x, y)[0, 1]) if np.std(y) > 1e-9 else 0.0
    return {"slope": round(slope, 4), "change": round(slope * (len(y) - 1), 3),
            "std": round(float(np.std(y)), 3), "corr": round(corr, 3)}


# ---------------------------------------------------------------- per-second aggregates


def per_second(
    index: Any, bin_s: float | None = None, max_bins: int = 2000
) -> dict[str, np.ndarray]:
    """Main signals aggregated per bin (1 s, coarser for long videos) for plots and overviews.

    Keys: t (bin centres), luma, luma_swing (90th percentile), repeated (share), jerk,
    sharpness, noise, blockiness, saturation (medians; NaN where a bin has no sample).
    """
    d = float(index.info.duration_s)
    if bin_s is None:
        bin_s = max(1.0, float(np.ceil(d / max_bins))) if d > 0 else 1.0
    n = max(1, int(np.ceil(d / bin_s)))
    out: dict[str, np.ndarray] = {"t": (np.arange(n) + 0.5) * bin_s}

    def agg(t: np.ndarray, x: np.ndarray, fn) -> np.ndarray:
        idx = np.clip((t / bin_s).astype(np.int64), 0, n - 1)
        res = np.full(n, np.nan)
        order = np.argsort(idx, kind="stable")
        idx_s, x_s = idx[order], x[order]
        cuts = np.flatnonzero(np.diff(idx_s)) + 1
        for grp_i, grp_x in zip(np.split(idx_s, cuts), np.split(x_s, cuts), strict=True):
            if len(grp_i):
                vals = grp_x[np.isfinite(grp_x)]
                if len(vals):
                    res[grp_i[0]] = fn(vals)
        return res

    f, s = index.frames, index.samples
    if len(f.get("t", [])):
        t = f["t"].astype(np.float64)
        out["luma"] = agg(t, f["luma"].astype(np.float64), np.mean)
        out["luma_swing"] = agg(t, flicker_swing(f["luma"]), lambda v: np.percentile(v, 90))
        out["repeated"] = agg(t, repeated(f["diff"]).astype(np.float64), np.mean)
        out["jerk"] = agg(t, jerk(f["motion_x"], f["motion_y"]), np.median)
    if len(s.get("t", [])):
        t = s["t"].astype(np.float64)
        for name in ("sharpness", "noise", "blockiness", "saturation"):
            if name in s:
                out[name] = agg(t, s[name].astype(np.float64), np.median)
    return out
