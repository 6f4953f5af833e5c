"""Twins: the moments of a video that show the same picture as a sample, found by the course
of the frames' mean luma around it.

Footage often shows the same picture more than once: a loop, a repeated intro, a replay, an
advert run twice, a clip concatenated from pieces of one source. Where it does, a sample's
own twins are the best reference its quality can have: the same content, so whatever differs
is the picture's treatment, not the scene. The course of the mean luma over a second around
a moment, brought to zero mean and unit spread, identifies it and is hardly moved by the
degradations the twins judge (blur, grain, sharpening, coding and colour keep the mean; a
brightness or contrast change scales and shifts it), so a degraded moment still finds its
clean twins. Footage that never repeats has no twins, and nothing is judged here.
"""

from __future__ import annotations

import numpy as np

from tools.detectors.series import runs

WINDOW_S = 0.5  # the signature: the mean luma this far either side of a sample's frame
SHIFT_S = 0.12  # a twin may lie this far off the sample's moment (samples fall every ~0.5 s)
# Two courses of one picture replayed correlate at 0.99 and above after re-encoding; 0.98
# leaves room for a degradation's small effect on the mean (grain, coding), and a course
# that matches this closely over a second by chance needs a second of near-identical motion.
MATCH = 0.98
LEAST_SWING = 0.05  # grey levels: a course flatter than this (a still picture) says nothing
MIN_GAP_S = 2.0  # a twin lies at least this far away (not the moment itself held still)
REACH_S = 150.0  # ... and at most this far (a montage's other clips stay out of reach)
MIN_TWINS = 3  # a reference needs at least this many twins
# The frame series whose courses make the signature: mean luma and its spread (contrast).
COURSES = ("luma", "contrast")


def _courses(series: list[np.ndarray], frames: np.ndarray, half: int
             ) -> tuple[np.ndarray, np.ndarray]:
    """The courses of each series around each of `frames`, each with its straight trend
    taken out, side by side, brought to unit length (a series that does not swing about its
    trend is left out: a still picture's course is the encoder's noise); and whether any
    series swings (a ramp or a still picture says nothing)."""
    n = len(series[0])
    w = np.clip(frames[:, None] + np.arange(-half, half + 1)[None, :], 0, n - 1)
    ramp = np.arange(-half, half + 1, dtype=np.float64)
    ramp /= np.sqrt((ramp ** 2).sum())
    parts = []
    for x in series:
        c = x[w]
        c = c - c.mean(axis=1, keepdims=True)
        c = c - (c @ ramp)[:, None] * ramp[None, :]
        sd = np.sqrt((c ** 2).mean(axis=1))
        parts.append(np.where((sd > LEAST_SWING)[:, None], c / np.where(sd > 0, sd, 1.0)[:, None],
                              0.0))
    z = np.concatenate(parts, axis=1)
    norm = np.sqrt((z ** 2).sum(axis=1))
    ok = norm > 0
    return z / np.where(ok, norm, 1.0)[:, None], ok


def twin_lags(frames: dict[str, np.ndarray], samples: dict[str, np.ndarray],
              fps: float, cuts: list[int] | None = None) -> np.ndarray:
    """match[l - 1, i]: sample i + l shows the same picture as sample i (l = 1 .. reach).

    Each sample's course is compared with the courses at its partner's frame and up to
    SHIFT_S either side (a loop's length is rarely a whole number of sample steps). A
    course with a shot cut (`cuts`: frame numbers) in it is no signature: one step
    dominates it, and every cut looks like every other."""
    idx = samples.get("frame")
    t = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    n = len(t)
    if COURSES[0] not in frames or idx is None or n < 3 or fps <= 0:
        return np.zeros((0, n), dtype=bool)
    series = [np.asarray(frames[k], dtype=np.float64) for k in COURSES if k in frames]
    idx = np.asarray(idx, dtype=np.int64)
    half = max(2, int(round(WINDOW_S * fps)))
    shift = max(1, int(round(SHIFT_S * fps)))
    z, ok = _courses(series, idx, half)
    if cuts:
        c = np.asarray(sorted(cuts), dtype=np.int64)
        pos = np.searchsorted(c, idx - half - shift)
        nxt = c[np.minimum(pos, len(c) - 1)]
        ok &= ~((pos < len(c)) & (nxt <= idx + half + shift))
    shifted = [_courses(series, idx + d, half) for d in range(-shift, shift + 1)]
    step = float(np.median(np.diff(t)))
    reach = min(n - 1, int(REACH_S / max(step, 1e-6)))
    match = np.zeros((reach, n), dtype=bool)
    for lag in range(1, reach + 1):
        a = z[: n - lag]
        best = np.max([np.einsum("ij,ij->i", zs[lag:], a) * oks[lag:] for zs, oks in shifted],
                      axis=0)
        match[lag - 1, : n - lag] = (ok[: n - lag] & (best >= MATCH)
                                     & (t[lag:] - t[: n - lag] >= MIN_GAP_S))
    return _isolated(match, int(np.ceil(2 * SHIFT_S / max(step, 1e-6))) + 1)


def _isolated(match: np.ndarray, widest: int) -> np.ndarray:
    """Matches only where they stand apart: a sample matching over more consecutive lags than
    the shift allows has a course that fits anything slow (a pan, a fade), not its twin."""
    out = match.copy()
    for i in np.flatnonzero(match.any(axis=0)):
        for a, b in runs(match[:, i]):
            if b - a > widest:
                out[a:b, i] = False
    return out


def twin_index(match: np.ndarray) -> np.ndarray:
    """twins[i, k]: the k-th twin sample of sample i, -1 past its last (columns as many as
    the sample with the most twins has)."""
    reach, n = match.shape
    if reach == 0:
        return np.full((n, 0), -1, dtype=np.int32)
    out = np.full((n, 2 * reach), -1, dtype=np.int32)
    ids = np.arange(n, dtype=np.int32)
    for lag in range(1, reach + 1):
        m = match[lag - 1, : n - lag]
        out[: n - lag, lag - 1] = np.where(m, ids[lag:], -1)
        out[lag:, reach + lag - 1] = np.where(m, ids[: n - lag], -1)
    order = np.argsort(out < 0, axis=1, kind="stable")
    out = np.take_along_axis(out, order, axis=1)
    width = int((out >= 0).sum(axis=1).max()) if n else 0
    return out[:, :width]


def reference(x: np.ndarray, twins: np.ndarray, excluded: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """The median of `x` over each sample's twins (`excluded` ones left out) and the upper
    quartile of the twins' distances from it (how well they agree: a median distance says
    nothing of twins split half and half); NaN with fewer than MIN_TWINS of them."""
    n = len(x)
    if twins.shape[1] == 0:
        return np.full(n, np.nan), np.full(n, np.nan)
    pool = np.asarray(x, dtype=np.float64)
    if excluded is not None:
        pool = np.where(excluded, np.nan, pool)
    values = np.where(twins >= 0, pool[np.maximum(twins, 0)], np.nan)
    ref = row_quantile(values, 0.5)
    spread = row_quantile(np.abs(values - ref[:, None]), 0.75)
    enough = np.isfinite(values).sum(axis=1) >= MIN_TWINS
    return np.where(enough, ref, np.nan), np.where(enough, spread, np.nan)


def row_quantile(a: np.ndarray, q: float) -> np.ndarray:
    """The q-quantile of each row's finite values (linear between ranks; NaN for a row with
    none): numpy's nanquantile, without its row-by-row loop."""
    n, w = a.shape
    if w == 0:
        return np.full(n, np.nan)
    s = np.sort(a, axis=1)  # NaN last
    k = np.isfinite(s).sum(axis=1)
    pos = q * np.maximum(k - 1, 0)
    lo = np.floor(pos).astype(np.int64)
    hi = np.minimum(lo + 1, np.maximum(k - 1, 0))
    frac = pos - lo
    rows = np.arange(n)
    out = s[rows, lo] * (1 - frac) + s[rows, hi] * frac
    return np.where(k > 0, out, np.nan)
