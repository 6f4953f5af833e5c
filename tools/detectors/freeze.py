"""Frozen picture: the image stops for a second or more while the video runs on.

Like ffmpeg's `freezedetect`, a frame is held when it barely differs from the one before; but
"barely" is judged against the video's own motion, not against zero: an encoder leaves a
residual in a frozen stretch (libx264 at CRF 20: ~0.3 % of the clip's typical frame
difference), and sensor noise keeps a still camera shot well above that. The limit is the
stillest second any clean calibration video shows, pushed out to the stated false-alarm rate.
"""

from __future__ import annotations

import warnings

import numpy as np

from tools.detectors.calibration import CleanVideo, Quantity, declare, value
from tools.detectors.repeats import AROUND_S, FROZEN_SHARE
from tools.detectors.series import runs
from tools.model import Event

# Frame differences (mean absolute, grey levels of the small frame) above this are motion;
# the typical motion of a video is the median over such frames.
MOVING_DIFF = 0.05
# Shortest held stretch reported (seconds; a freeze of 2 s keeps some slack at its edges), and
# the window the calibration measures: still pictures of a cartoon hold up to 1.7 s.
MIN_S = 1.8
# Held parts this few frames apart are one freeze when the frames between re-code the same
# picture: an encoder's keyframe (MPEG-2 GOP) or golden/alt-ref refresh (VP9) inside a frozen
# stretch changes it by its coding error, a small share of the picture's own spread
# (diff / contrast, calibrated below), where a new drawing or a cut between two held
# pictures changes it by the order of that spread. The refresh and the frames converging
# after it take up to BRIDGE_FRAMES. The joined parts must reach MIN_S, and one of each two
# joined must show the encoder converged on the held picture: a frame differing by at most
# EXACT_DIFF (grey levels, mean absolute: one level on a thousandth of the pixels), a copy of
# its reference (VP9 in realtime mode, after refreshing a held picture, may keep re-coding it
# with a residual of a few thousandths and never copy it exactly again). A still live shot (a
# launch pad, a quiet landscape) keeps some change in every frame, so its near-held
# stretches are not joined across the changes between them.
BRIDGE_FRAMES = 3
EXACT_DIFF = 0.001
# A converged part's picture is on screen from the last frame that changed it: before its first
# held frame the encoder converges on the new held picture (VP9 on a still shot: ~0.3 s of
# residuals up to the shot's own motion), each such frame changing at most FROZEN_SHARE of
# what the frames in the CONVERGE_S before it change (the share that says a frame repeats
# the previous one, judged over the 0.5 s the repeats detector looks around a hold).
CONVERGE_S = AROUND_S
# Frames this flat (grey-level standard deviation) are blank, not frozen.
FLAT_STD = 3.0


# The typical motion a frame is judged against: frames that move, within this many seconds
# either side (a long video mixes still and busy shots; a freeze inside a quiet shot is
# judged against the quiet shot).
LOCAL_S = 10


def local_motion(diff: np.ndarray, fps: float) -> np.ndarray:
    """Per frame, the typical motion of the moving frames within LOCAL_S seconds: medians of
    one-second blocks, then a running median of those (0 where nothing moves)."""
    d = np.nan_to_num(np.asarray(diff, dtype=np.float64), nan=0.0)
    n = len(d)
    block = max(1, int(round(fps)))
    k = -(-n // block)
    padded = np.full(k * block, np.nan)
    padded[:n] = np.where(d > MOVING_DIFF, d, np.nan)
    with warnings.catch_warnings():  # blocks (and windows) where nothing moves give NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        med = np.nanmedian(padded.reshape(k, block), axis=1)
        wide = np.concatenate([np.full(LOCAL_S, np.nan), med, np.full(LOCAL_S, np.nan)])
        local = np.nanmedian(np.lib.stride_tricks.sliding_window_view(wide, 2 * LOCAL_S + 1),
                             axis=1)
    return np.nan_to_num(np.repeat(local, block)[:n], nan=0.0)


def still_ratio(frames: dict[str, np.ndarray], fps: float) -> np.ndarray:
    """Each frame's difference to the previous one, over the typical motion around it."""
    diff = np.nan_to_num(np.asarray(frames["diff"], dtype=np.float64), nan=np.inf)
    typ = local_motion(frames["diff"], fps)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(typ > 0, diff / np.where(typ > 0, typ, 1.0), np.inf)


def _stillest_window(video: CleanVideo) -> list[float]:
    """The largest still ratio inside the stillest MIN_S window of a clean video."""
    r = still_ratio(video.frames, video.fps)
    w = max(2, int(round(MIN_S * video.fps)))
    if len(r) < w or not np.isfinite(r).any():
        return []
    r = np.where(np.isfinite(r), r, 1e6)
    return [float(np.lib.stride_tricks.sliding_window_view(r, w).max(axis=1).min())]


STILL_RATIO = declare(Quantity(
    key="freeze.still_ratio",
    doc="largest frame difference / typical motion inside the stillest 1.8 s of a clean video",
    measure=_stillest_window, direction=-1, default=0.03,
))


def change_share(frames: dict[str, np.ndarray]) -> np.ndarray:
    """Each frame's difference to the previous one over the picture's spread (inf unknown)."""
    diff = np.nan_to_num(np.asarray(frames["diff"], dtype=np.float64), nan=np.inf)
    if "contrast" not in frames:
        return np.full(len(diff), np.inf)
    spread = np.nan_to_num(np.asarray(frames["contrast"], dtype=np.float64), nan=0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(spread > 0, diff / np.where(spread > 0, spread, 1.0), np.inf)


def converged_from(diff: np.ndarray, a: int, fps: float) -> int:
    """The frame from which the picture held from frame `a` on is on screen: `a` - 1, or
    earlier over the frames converging on it (each changing at most FROZEN_SHARE of the
    median change of the CONVERGE_S before it, up to CONVERGE_S back)."""
    k = max(1, int(round(CONVERGE_S * fps)))
    j = a - 1
    while j > 0 and a - j <= k:
        before = diff[max(0, j - k):j]
        before = before[np.isfinite(before)]
        if not len(before) or not diff[j] <= FROZEN_SHARE * float(np.median(before)):
            break
        j -= 1
    return max(0, j)


def held_spans(frames: dict[str, np.ndarray], fps: float,
               limit: float) -> list[tuple[int, int, float, float]]:
    """Runs of held frames (a, b) with the time the held picture is on screen (start, end):
    from the frame before the run, or from where the encoder began converging on it when
    the run shows an exact copy."""
    t = np.asarray(frames["t"], dtype=np.float64)
    diff = np.nan_to_num(np.asarray(frames["diff"], dtype=np.float64), nan=np.inf)
    held = still_ratio(frames, fps) <= limit
    if "contrast" in frames:  # a blank picture (black, white) repeats itself: not a freeze
        held &= ~(np.nan_to_num(frames["contrast"], nan=255.0) < FLAT_STD)
    step = 1.0 / fps
    spans = []
    for a, b in runs(held):
        shown = converged_from(diff, a, fps) if (diff[a:b] <= EXACT_DIFF).any() else a - 1
        spans.append((a, b, float(t[max(0, shown)]),
                      float(t[b]) if b < len(t) else float(t[-1] + step)))
    return spans


def _bridged(spans: list[tuple[int, int, float, float]], frames: dict[str, np.ndarray],
             recode: float) -> list[list[tuple]]:
    """Held spans grouped when at most BRIDGE_FRAMES apart, one of the two converged (an
    exact copy among its frames) and the frames between change the picture by at most
    `recode` of its spread."""
    bridge = change_share(frames)
    exact = np.nan_to_num(np.asarray(frames["diff"], dtype=np.float64), nan=np.inf) <= EXACT_DIFF
    groups: list[list[tuple]] = []
    for span in spans:
        prev = groups[-1][-1] if groups else (0, -BRIDGE_FRAMES - 1)
        if (span[0] - prev[1] <= BRIDGE_FRAMES and (exact[prev[0]:prev[1]].any()
                or exact[span[0]:span[1]].any()) and bridge[prev[1]:span[0]].max() <= recode):
            groups[-1].append(span)
        else:
            groups.append([span])
    return groups


def _clean_bridge(video: CleanVideo) -> list[float]:
    """The least re-coding limit that would join a clean video's held parts into a freeze:
    over every chain of held parts <= BRIDGE_FRAMES apart lasting >= MIN_S, the largest
    change share between its parts (smallest such chain value)."""
    if len(video.frames.get("t", [])) < 3 or "diff" not in video.frames:
        return []
    spans = held_spans(video.frames, video.fps, value(STILL_RATIO.key))
    share = change_share(video.frames)
    best = np.inf
    for chain in _bridged(spans, video.frames, np.inf):
        gaps = [float(share[p[1]:q[0]].max()) for p, q in zip(chain, chain[1:], strict=False)]
        for i in range(len(chain)):
            for j in range(i + 1, len(chain)):
                if chain[j][3] - chain[i][2] >= MIN_S:
                    best = min(best, max(gaps[i:j]))
                    break  # longer chains from i only add gaps
    return [best] if np.isfinite(best) else []


RECODE = declare(Quantity(
    key="freeze.recode_share",
    doc="smallest change (diff / contrast) between held parts that would join them into a "
        ">= 1.8-s freeze on a clean video",
    measure=_clean_bridge, direction=-1, default=0.05,
))


def freeze_events(frames: dict[str, np.ndarray], fps: float) -> list[Event]:
    """Stretches of >= MIN_S whose frames stay below the calibrated still ratio (held parts
    joined across an encoder's refresh of the held picture)."""
    t = np.asarray(frames.get("t", []), dtype=np.float64)
    if len(t) < 3 or "diff" not in frames:
        return []
    limit = value(STILL_RATIO.key)
    ratio = still_ratio(frames, fps)
    spans = held_spans(frames, fps, limit)
    typ = local_motion(frames["diff"], fps)
    out = []
    for group in _bridged(spans, frames, value(RECODE.key)):
        start, end = min(p[2] for p in group), group[-1][3]
        if end - start < MIN_S:
            continue
        inside = np.concatenate([ratio[a:b] for a, b, _, _ in group])
        dur = end - start
        out.append(Event(
            type="freeze", subtype="frozen picture", start_s=round(start, 2),
            end_s=round(end, 2), severity=round(float(np.clip(0.4 + 0.12 * dur, 0, 1)), 3),
            score=round(dur, 2),
            evidence={"duration_s": round(dur, 2), "held_frames": int(len(inside)),
                      "refreshes": len(group) - 1,
                      "median_still_ratio": round(float(np.median(inside)), 5),
                      "limit": round(limit, 5),
                      "typical_diff": round(float(np.median(typ[group[0][0]:group[-1][1]])), 4)},
        ))
    return out
