"""Repeated frames: frame drops (a frame shown again in place of a lost one) and stutter
(frames held for several frame times in a row), from the per-frame difference."""

from __future__ import annotations

import numpy as np

from tools.detectors.base import Context, Detector
from tools.detectors.series import runs
from tools.model import Event

# Frames whose pixels spread less than this (grey-level standard deviation) are blank.
FLAT_STD = 3.0
# A frame repeats the previous one when its difference is at most this (grey levels of the
# small frame) and at most this share of its scene's median difference.
FROZEN_DIFF = 0.08
FROZEN_SHARE = 0.25
# A hold shows only where the picture around it moves: the frames within AROUND_S of it
# (s, on each side alike, held ones left out) must change by at least FROZEN_SHARE of the scene's
# median change, and the held frames by at most FROZEN_SHARE of what those frames change
# (as a frozen frame against its scene). In a still moment (a coin at rest, a launch pad
# before lift-off) a coarse encoder codes frames as near copies, and nobody can see one
# near copy among others.
# They must also change at all: by more than FROZEN_DIFF, the change under which a frame
# counts as unchanged (VP9 codes a still launch pad as frames 0.01 and 0.3 grey levels apart).
# A repeated frame also stands apart from the changes around it, not only from their median:
# it changes by at most FROZEN_SHARE of their lower quartile (AROUND_Q). An encoder's frame
# qualities alternate (VP9's alt-ref hierarchy on a still shot gives frame changes spread over
# a decade, 0.03 to 0.8 grey levels): their small end is no repeat, while a repeated frame
# (an exact copy, coded as the encoder's residual) lies far under all its moving neighbours.
AROUND_S = 0.5
AROUND_Q = 0.25
# Holds longer than this (seconds) are still content, not repeats; holds this close (seconds)
# form one cluster, one event.
MAX_HOLD_S = 2.5
CLUSTER_GAP_S = 2.5
# A cluster counts with this many holds, or with one hold of LONG_HOLD_FRAMES or more.
MIN_HOLDS = 3
LONG_HOLD_FRAMES = 4
# Stutter: holds of LONG_HOLD_FRAMES+ are the rule (the median hold, or more than this share
# of the holds), or more than STUTTER_LONG_SHARE of the held time lies in them and one freeze
# lasts STUTTER_FREEZE+ frames.
STUTTER_LONG_MAJORITY = 0.5
STUTTER_LONG_SHARE = 0.6
STUTTER_FREEZE = 10  # frames


def scene_typical(diff: np.ndarray, sid: np.ndarray) -> np.ndarray:
    """Each frame's scene median frame difference (0 where unknown)."""
    out = np.zeros(len(diff))
    for s in np.unique(sid):
        sel = sid == s
        d = diff[sel]
        out[sel] = float(np.nanmedian(d)) if np.isfinite(d).any() else 0.0
    return out


def _side_quantile(d: np.ndarray, q: float = 0.5) -> float:
    d = d[np.isfinite(d)]
    return float(np.quantile(d, q)) if len(d) else np.nan


def visible(run: tuple[int, int], diff: np.ndarray, held: np.ndarray, typical: np.ndarray,
            fps: float) -> bool:
    """Whether the picture around a hold moves enough, on both sides, for the hold to show,
    and the hold lies apart from (under) even the smaller changes there."""
    a, b = run
    k = max(1, int(round(AROUND_S * fps)))
    before = np.arange(max(0, a - k), a)
    after = np.arange(b, min(len(diff), b + k))
    moving = [diff[i[~held[i]]] for i in (before, after)]
    sides = [_side_quantile(d) for d in moving]
    if not np.isfinite(sides).any():
        return False
    around = float(np.nanmin(sides))
    apart = float(np.nanmin([_side_quantile(d, AROUND_Q) for d in moving]))
    own = diff[a:b]
    own = own[np.isfinite(own)]
    return (around > max(FROZEN_SHARE * float(typical[a]), FROZEN_DIFF)
            and float(own.max(initial=0.0)) <= FROZEN_SHARE * apart)


def frozen(diff: np.ndarray, sid: np.ndarray, typical: np.ndarray | None = None) -> np.ndarray:
    """Frames that repeat the previous one: no change at all, far below the scene's own
    frame-to-frame change (a static shot still shows camera noise, a repeated frame does not).
    `typical`: each frame's scene median change, when already known."""
    if typical is None:
        typical = scene_typical(diff, sid)
    return np.nan_to_num(diff, nan=1.0) <= frozen_limit(typical)


def frozen_limit(typical: np.ndarray | float) -> np.ndarray | float:
    """The change at or under which a frame repeats the previous one, for a scene's usual
    change `typical`."""
    return np.minimum(FROZEN_DIFF, FROZEN_SHARE * typical)


def hold_clusters(frames: dict[str, np.ndarray], sid: np.ndarray,
                  fps: float) -> list[list[tuple[int, int]]]:
    """Runs of repeated frames (up to MAX_HOLD_S long), grouped when CLUSTER_GAP_S apart."""
    t = frames["t"]
    typical = scene_typical(frames["diff"], sid)
    held = frozen(frames["diff"], sid, typical)
    if "contrast" in frames:  # a blank picture (washed out, black) repeats itself: not a freeze
        held &= ~(np.nan_to_num(frames["contrast"], nan=255.0) < FLAT_STD)
    found = [(a, b) for a, b in runs(held) if (b - a) <= MAX_HOLD_S * fps
             and visible((a, b), frames["diff"], held, typical, fps)]
    clusters: list[list[tuple[int, int]]] = []
    for run in found:
        if clusters and t[run[0]] - t[clusters[-1][-1][1] - 1] <= CLUSTER_GAP_S:
            clusters[-1].append(run)
        else:
            clusters.append([run])
    return clusters


def repeat_events(frames: dict[str, np.ndarray], sid: np.ndarray, fps: float) -> list[Event]:
    """Clusters of repeated frames, each a frame_drop or a stutter event."""
    t = frames["t"]
    return [e for cl in hold_clusters(frames, sid, fps)
            if (e := _cluster_event(cl, t, fps)) is not None]


def _cluster_event(cl: list[tuple[int, int]], t: np.ndarray, fps: float) -> Event | None:
    """The event of one cluster of holds, or None when it has too few (and none long)."""
    lengths = np.array([b - a for a, b in cl])
    held = int(lengths.sum())
    if len(cl) < MIN_HOLDS and lengths.max() < LONG_HOLD_FRAMES:
        return None
    start, end = int(cl[0][0]), int(cl[-1][1])
    span = max(1, end - start)
    # Stutter: holds of 4+ frames are the rule, or most of the held time lies in them and
    # one freeze lasts 10+ frames (a long freeze broken into pieces by coding noise; frame
    # drops keep 0-0.48 of their held time in 4+-frame holds over 24 needles of five NDQA
    # sets, and a short burst of them with a few 4-7-frame holds is no freeze); its
    # severity from how long a held frame typically stays frozen (weighted by frames held).
    long_holds = lengths >= LONG_HOLD_FRAMES
    long_share = float(lengths[long_holds].sum()) / max(held, 1)
    kind = "stutter" if np.median(lengths) >= LONG_HOLD_FRAMES or (
        long_holds.mean() > STUTTER_LONG_MAJORITY) or (
        long_share > STUTTER_LONG_SHARE and lengths.max() >= STUTTER_FREEZE) else "frame_drop"
    share = held / span
    typical_hold = float((lengths ** 2).sum()) / max(held, 1)
    gaps = np.diff([a for a, _ in cl])
    every = float(np.median(gaps)) if len(gaps) else 0.0
    regular = float(np.mean(np.abs(gaps - every) <= 1)) if len(gaps) else 0.0
    raw = 0.2 + 1.6 * share if kind == "frame_drop" else 0.3 + typical_hold / 30
    sev = float(np.clip(raw, 0, 1))
    return Event(
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
            # a frame-rate conversion repeats one frame in every k, like clockwork
            "cadence_frames": every,
            "cadence_regular": round(regular, 3),
        },
    )


class RepeatsDetector(Detector):
    """Frame drops and stutter: frames repeated in place, in clusters."""

    name = "repeats"
    types = ("frame_drop", "stutter")

    def detect(self, ctx: Context) -> list[Event]:
        """Repeated-frame events (none without per-frame signals)."""
        if not ctx.has_frames:
            return []
        return repeat_events(ctx.frames, ctx.frame_scenes, ctx.fps)
