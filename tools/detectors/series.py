"""Small helpers on boolean masks and severities that every detector shares."""

from __future__ import annotations

import warnings

import numpy as np


def runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) index pairs of consecutive True values."""
    if not mask.any():
        return []
    edges = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True))


def smooth_mask(mask: np.ndarray, width: int = 3) -> np.ndarray:
    """Majority vote over `width` samples: drops isolated blips, fills single gaps."""
    if len(mask) < width:
        return mask
    k = np.convolve(mask.astype(np.float64), np.ones(width), mode="same")
    return k >= (width // 2 + 1)


def dilated(mask: np.ndarray, n: int) -> np.ndarray:
    """The mask grown by `n` samples on each side."""
    out = mask.copy()
    for k in range(1, n + 1):
        out[k:] |= mask[:-k]
        out[:-k] |= mask[k:]
    return out


def merge_runs(found: list[tuple[int, int]], t: np.ndarray, gap_s: float) -> list[tuple[int, int]]:
    """Runs (of `runs`) joined where the next starts within `gap_s` of the last one's end."""
    merged: list[tuple[int, int]] = []
    for a, b in found:
        if merged and t[a] - t[merged[-1][1] - 1] <= gap_s:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged


def hysteresis(flag: np.ndarray, above: np.ndarray, t: np.ndarray,
               gap_s: float) -> np.ndarray:
    """The flagged samples, and the runs of `above` samples (joined across gaps up to
    `gap_s`) that hold a flagged one."""
    out = flag.copy()
    for a, b in merge_runs(runs(above), t, gap_s=gap_s):
        if flag[a:b].any():
            out[a:b] |= above[a:b]
    return out


def ramp(value: float, lo: float, hi: float) -> float:
    """0.2 at `lo`, 1.0 at `hi`, linear between, clipped to 0..1."""
    return float(np.clip(0.2 + 0.8 * (value - lo) / max(hi - lo, 1e-9), 0.0, 1.0))


def level_severity(value: float, levels: tuple[float, float]) -> float:
    """0.2 at the first visible level, 1.0 at the severe one, log-linear between."""
    lo, hi = levels
    f = np.log(max(value, 1e-12) / lo) / np.log(hi / lo)
    return float(np.clip(0.2 + 0.8 * f, 0.0, 1.0))


def overlap_share(x_start: float, x_end: float, spans: list[tuple[float, float]]) -> float:
    """The share of [x_start, x_end) that the spans cover (summed, so overlapping spans
    count twice)."""
    cover = sum(max(0.0, min(x_end, b) - max(x_start, a)) for a, b in spans)
    return cover / max(x_end - x_start, 1e-9)


def joined_runs(flag: np.ndarray, unjudged: np.ndarray | None, t: np.ndarray,
                gap_s: float) -> list[tuple[int, int]]:
    """Runs of `flag` joined across gaps up to `gap_s`, and across any gap of `unjudged`
    samples alone (samples nobody judged do not end a run; it starts and ends flagged)."""
    found = runs(flag)
    if unjudged is not None:
        found = []
        for a, b in runs(flag | unjudged):
            on = np.flatnonzero(flag[a:b])
            if len(on):
                found.append((a + int(on[0]), a + int(on[-1]) + 1))
    return merge_runs(found, t, gap_s=gap_s)


def rolling_nanmedian(x: np.ndarray, k: int) -> np.ndarray:
    """The running median of `x` over k samples, centred, NaN-aware (NaN where the window
    holds no number)."""
    if k <= 1 or len(x) < k:
        return x.copy()
    pad = np.pad(x, (k // 2, k - 1 - k // 2), constant_values=np.nan)
    win = np.lib.stride_tricks.sliding_window_view(pad, k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmedian(win, axis=1)
