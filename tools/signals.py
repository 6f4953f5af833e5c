"""Per-frame quality measurements, vectorised: temporal ones on tiny frames, spatial on native ones.

Temporal signals (every frame, small grey image): mean luminance, contrast, frame-to-frame
difference, global motion from integral projections. Spatial signals (a few frames a second,
native resolution so the 8x8 coding grid and fine detail survive): sharpness, noise, impulse
noise, blockiness, halo (over-sharpening), detail ratio (blur), anisotropy (motion blur); tone
and colour from the small colour frame.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# Names of the per-frame (temporal) columns and the per-sample (spatial) columns.
FRAME_SIGNALS: tuple[str, ...] = (
    "luma", "contrast", "diff", "corr", "coarse_corr", "motion_x", "motion_y", "motion_conf"
)
SAMPLE_SIGNALS: tuple[str, ...] = (
    "sharpness",
    "noise",
    "impulse",
    "blockiness",
    "grid",
    "halo",
    "detail",
    "aniso",
    "black",
    "white",
    "contrast_range",
    "saturation",
    "hue_x",
    "hue_y",
    "comb",
    "mb",
)

# Immerkaer's 3x3 noise kernel [[1,-2,1],[-2,4,-2],[1,-2,1]] is this second difference in x and y.
_SECOND_DIFF = np.array([1, -2, 1], dtype=np.float32)
_SQUARE3 = np.ones((3, 3), np.uint8)


def _phase_motion(g: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Global translation of each frame against the previous one (phase correlation), with the
    correlation peak's strength; robust to objects moving on their own. Shape (N, 3)."""
    h, w = g.shape[1:]
    win = _hanning(w, h)
    out = np.empty((len(g), 3), dtype=np.float32)
    prev = first
    for i in range(len(g)):
        (dx, dy), resp = cv2.phaseCorrelate(prev, g[i], win)
        out[i] = (dx, dy, resp)
        prev = g[i]
    return out


_WINDOWS: dict[tuple[int, int], np.ndarray] = {}


def _hanning(w: int, h: int) -> np.ndarray:
    if (w, h) not in _WINDOWS:
        _WINDOWS[(w, h)] = cv2.createHanningWindow((w, h), cv2.CV_32F)
    return _WINDOWS[(w, h)]


COARSE_BLOCK = 8  # small-frame pixels averaged into one for the coarse structure


def _coarse_corr(seq: np.ndarray) -> np.ndarray:
    """Correlation of each frame's coarse structure (blocks of COARSE_BLOCK pixels averaged,
    normalised) with the previous frame's: grain, blur and tone changes leave it, a new shot
    does not. Shape (len(seq) - 1,)."""
    n1, h, w = seq.shape
    b = COARSE_BLOCK if min(h, w) >= 4 * COARSE_BLOCK else max(1, min(h, w) // 4)
    hb, wb = h // b, w // b
    c = seq[:, : hb * b, : wb * b].reshape(n1, hb, b, wb, b).mean(axis=(2, 4))
    c = c - c.mean(axis=(1, 2), keepdims=True)
    c /= np.maximum(c.std(axis=(1, 2), keepdims=True), 1e-3)
    return (c[1:] * c[:-1]).mean(axis=(1, 2))


def temporal_signals(gray: np.ndarray, prev: np.ndarray | None) -> dict[str, np.ndarray]:
    """Measure a chunk of consecutive small grey frames (N,H,W uint8); `prev` is the frame before.

    diff is the mean absolute difference to the previous frame (0 for a repeated frame); corr
    the correlation of the two frames' normalised pixels (1 = same structure), coarse_corr
    the same of their coarse structure (a noise or blur onset keeps it, a cut breaks both);
    motion_x/y the global translation (in small-frame pixels) by phase correlation and
    motion_conf the strength of its peak (low when there is no single global motion).
    """
    n, h, w = gray.shape
    # The chunk behind the frame before it, as float: frame i's predecessor is seq[i].
    seq = np.empty((n + 1, h, w), dtype=np.float32)
    seq[0] = prev if prev is not None else gray[0]
    seq[1:] = gray
    g, before = seq[1:], seq[:-1]
    means, stds = seq.mean(axis=(1, 2)), seq.std(axis=(1, 2))
    luma, contrast = means[1:], stds[1:]
    diff = cv2.absdiff(g.reshape(-1, w), before.reshape(-1, w)).reshape(n, h, w).mean(axis=(1, 2))
    # Structural similarity to the previous frame, blind to brightness and contrast changes:
    # a cut breaks it, a tone change (exposure, colour, flicker) does not.
    z = seq - means[:, None, None]
    z /= np.maximum(stds, 1e-3)[:, None, None]
    corr = (z[1:] * z[:-1]).mean(axis=(1, 2))
    coarse = _coarse_corr(seq)
    motion = _phase_motion(g, seq[0])  # windows its inputs in place: keep it last
    mx, my, mr = motion[:, 0], motion[:, 1], motion[:, 2]
    if prev is None:
        diff[0], corr[0], coarse[0], mx[0], my[0], mr[0] = np.nan, 1.0, 1.0, 0.0, 0.0, 1.0
    return {
        "luma": luma.astype(np.float32),
        "contrast": contrast.astype(np.float32),
        "diff": diff.astype(np.float32),
        "corr": corr.astype(np.float32),
        "coarse_corr": coarse.astype(np.float32),
        "motion_x": mx,
        "motion_y": my,
        "motion_conf": mr,
    }


def sharpness(gray: np.ndarray) -> float:
    """Variance of the Laplacian: high for crisp detail, falls with any kind of blur."""
    return _lap_var(gray)


def noise_sigma(gray: np.ndarray) -> float:
    """Immerkaer's noise estimate on the flatter half of the picture (edges excluded)."""
    resp = cv2.convertScaleAbs(cv2.sepFilter2D(gray, cv2.CV_16S, _SECOND_DIFF, _SECOND_DIFF))
    local = cv2.blur(resp, (7, 7))
    mask = cv2.compare(local, _median(local[::4, ::4]), cv2.CMP_LE)
    return float(np.sqrt(np.pi / 2.0) * _masked_mean(resp, mask, empty=0.0) / 6.0)


def impulse_fraction(gray: np.ndarray) -> float:
    """Share of isolated outlier pixels (salt-and-pepper): far from their 3x3 median."""
    outliers = cv2.compare(cv2.absdiff(gray, cv2.medianBlur(gray, 3)), 60, cv2.CMP_GT)
    return cv2.countNonZero(outliers) / gray.size


def _grid_ratio(profile: np.ndarray, period: int) -> tuple[float, int]:
    """How much stronger the gradient is on one phase of a `period` grid than on the rest."""
    n = (len(profile) // period) * period
    if n < 4 * period:
        return 1.0, 0
    phase = profile[:n].reshape(-1, period).mean(axis=0)
    best = int(np.argmax(phase))
    rest = np.concatenate((phase[:best], phase[best + 1 :])).mean()
    return float(phase[best] / max(rest, 1e-6)), best


def blockiness(gray: np.ndarray) -> tuple[float, float]:
    """(8x8 grid discontinuity, strongest other grid period's ratio): 1.0 means no blocks.

    The first is the classic coding-block measure on the native grid; the second catches
    pixelation whose blocks are larger than 8 pixels.
    """
    dx = cv2.reduce(cv2.absdiff(gray[:, 1:], gray[:, :-1]), 0, cv2.REDUCE_AVG, dtype=cv2.CV_32F)[0]
    dy = cv2.reduce(cv2.absdiff(gray[1:], gray[:-1]), 1, cv2.REDUCE_AVG, dtype=cv2.CV_32F)[:, 0]
    # Diffs between column 7|8 sit at index 7, 15, ...: phase 7 of an 8-grid.
    px8 = dx[: (len(dx) // 8) * 8].reshape(-1, 8).mean(axis=0)
    py8 = dy[: (len(dy) // 8) * 8].reshape(-1, 8).mean(axis=0)
    b8 = 0.5 * (px8[7] / max(px8[:7].mean(), 1e-6)) + 0.5 * (py8[7] / max(py8[:7].mean(), 1e-6))
    return float(b8), _best_grid(dx, dy, max(1, gray.shape[0] // 90))


def _best_grid(dx: np.ndarray, dy: np.ndarray, scale: int) -> float:
    """Largest min(x ratio, y ratio) over grid periods 3..39 x `scale`, at least 1.0.

    A period too long for either profile has ratio 1.0 there and cannot raise the maximum,
    nor can a period whose y ratio is already below it: both are skipped unmeasured.
    """
    best = 1.0
    for period in range(3 * scale, min(40 * scale, min(len(dx), len(dy)) // 4 + 1), scale):
        ry, _ = _grid_ratio(dy, period)
        if ry <= best:
            continue
        rx, _ = _grid_ratio(dx, period)
        best = max(best, min(rx, ry))
    return float(best)


def halo(gray: np.ndarray) -> float:
    """Ringing/overshoot next to strong edges, as over-sharpening leaves (unsharp-mask halos)."""
    detail = cv2.absdiff(gray, cv2.blur(gray, (5, 5)))
    grad = cv2.morphologyEx(gray, cv2.MORPH_GRADIENT, _SQUARE3)
    cut = max(24.0, _percentiles(grad[::4, ::4], (90,))[0])
    return _masked_mean(detail, cv2.compare(grad, cut, cv2.CMP_GT), empty=float("nan"))


def _masked_mean(img: np.ndarray, mask: np.ndarray, empty: float) -> float:
    """cv2.mean(img, mask)[0] of a uint8 image, to the bit, without its slow masked path."""
    n = cv2.countNonZero(mask)
    return cv2.sumElems(cv2.bitwise_and(img, mask))[0] * (1.0 / n) if n else empty


def _order_stats(img: np.ndarray, ks: list[int]) -> list[int]:
    """The k-th smallest values (0-based) of a uint8 image, from one histogram."""
    hist = cv2.calcHist([np.ascontiguousarray(img)], [0], None, [256], [0, 256])
    return np.searchsorted(np.cumsum(hist.ravel().astype(np.int64)), ks, side="right").tolist()


def _median(img: np.ndarray) -> float:
    """np.median of a uint8 image, to the bit."""
    half = img.size // 2
    if img.size % 2:
        return float(_order_stats(img, [half])[0])
    a, b = _order_stats(img, [half - 1, half])
    return (a + b) / 2


def _percentiles(img: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    """np.percentile(img, qs) of a uint8 image (linear interpolation), to the bit."""
    last = img.size - 1
    pos = [last * (q / 100) for q in qs]
    lows = [min(math.floor(p), last) for p in pos]
    ranks = sorted({*lows, *(min(i + 1, last) for i in lows)})
    at = dict(zip(ranks, _order_stats(img, ranks), strict=True))
    out = []
    for p, i in zip(pos, lows, strict=True):
        a, b, t = at[i], at[min(i + 1, last)], p - i
        # numpy's _lerp: from below under t = 0.5, from above from there.
        out.append(float(a + (b - a) * t if t < 0.5 else b - (b - a) * (1 - t)))
    return out


# Lab lightness (0..255 scale of 0..100) below which a pixel's colour is not judged: in the
# near-black, chroma is sensor and coding noise (HSV saturation explodes there).
LIT_FLOOR = 32
# Lab chroma to the 0..255 saturation scale (chroma 48 = 192: the most vivid clean clip).
CHROMA_SCALE = 4.0


def colour(bgr_small: np.ndarray) -> tuple[float, float, float]:
    """(mean saturation 0..255, hue vector x, hue vector y) of the lit pixels.

    Saturation is Lab chroma (perceptual: dark pixels carry little of it) x CHROMA_SCALE,
    over pixels with lightness >= LIT_FLOOR; the hue vector is the Lab hue angle weighted by
    that saturation / 255. A picture with almost nothing lit has no colour to judge: zeros.
    """
    lab = cv2.cvtColor(bgr_small, cv2.COLOR_BGR2Lab)
    lit = lab[..., 0] >= LIT_FLOOR
    if lit.mean() < 0.01:
        return 0.0, 0.0, 0.0
    a = lab[..., 1][lit].astype(np.float32) - 128.0
    b = lab[..., 2][lit].astype(np.float32) - 128.0
    sat = np.minimum(np.hypot(a, b) * CHROMA_SCALE, 255.0)
    h = np.arctan2(b, a)
    w = sat / 255.0
    return float(sat.mean()), float((w * np.cos(h)).mean()), float((w * np.sin(h)).mean())


def _lap_var(gray: np.ndarray) -> float:
    """Variance of the 3x3 Laplacian (cv2.meanStdDev sums the int16 response exactly)."""
    _, std = cv2.meanStdDev(cv2.Laplacian(gray, cv2.CV_16S, ksize=3))
    return float(std[0, 0] ** 2)


def detail_ratio(gray: np.ndarray) -> float:
    """Fine-to-coarse detail: Laplacian energy at half size over that at quarter size.

    A spectral slope rather than an amount: blur removes the finer band first, so the ratio
    falls, while content with little detail, or a change of brightness or contrast, scales
    both bands alike. Measured below native size, where coding noise does not dominate.
    """
    h, w = gray.shape
    half = cv2.resize(gray, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    quarter = cv2.resize(half, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    return _lap_var(half) / max(_lap_var(quarter), 1e-3)


_DIAGONAL = np.array([[1, 0, 0], [0, -2, 0], [0, 0, 1]], dtype=np.float32)


def anisotropy(gray: np.ndarray) -> float:
    """How much more fine detail one direction keeps than its perpendicular: the larger of
    |log| (horizontal / vertical) and |log| (diagonal / anti-diagonal) second-difference
    energy. Motion blur smears detail along the motion only, so this rises where it starts,
    while blur of every other kind, and content with little detail, leave it near 0."""
    energy = [_energy(cv2.filter2D(gray, cv2.CV_16S, k)) + 1e-3 for k in _ANISO_KERNELS]
    return max(abs(math.log(energy[0] / energy[1])), abs(math.log(energy[2] / energy[3])))


# Horizontal, vertical, diagonal and anti-diagonal second differences (uint8 in, exact int16
# out: |response| <= 1020).
_ANISO_KERNELS = tuple(
    np.ascontiguousarray(k, dtype=np.float32)
    for k in (_SECOND_DIFF[None, :], _SECOND_DIFF[:, None], _DIAGONAL, _DIAGONAL[:, ::-1])
)


def _energy(d: np.ndarray) -> float:
    """Mean square of an int16 response: its squares are exact in float32 (|d| <= 1020) and
    cv2.mean sums them exactly in double. (cv2.norm's NORM_L2SQR of int16 is not exact.)"""
    return float(cv2.mean(cv2.multiply(d, d, dtype=cv2.CV_32F))[0])


# A row differing from both rows around it, the same way, by this many grey levels is a
# comb tooth (the two fields of an interlaced frame show different moments).
COMB_STEP = 12


def combing(gray: np.ndarray) -> float:
    """Share of pixels where two neighbouring rows jut out in opposite directions (one above
    both of its neighbours, the next below both of its own), over 3 pixels of the row: the
    row-to-row alternation interlacing leaves along moving edges, where the lines of one field
    show the object and those of the other what was there a field before. A thin horizontal
    line of progressive footage juts out alone (one row, not an alternating pair), and grain
    rarely alternates over four rows and three columns at once.

    In uint8 with saturating differences: max(mid - up, 0) > COMB_STEP is mid - up > COMB_STEP.
    """
    up, mid, down = gray[:-2], gray[1:-1], gray[2:]

    def above(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return cv2.compare(cv2.subtract(a, b), COMB_STEP, cv2.CMP_GT)

    high = cv2.bitwise_and(above(mid, up), above(mid, down))
    low = cv2.bitwise_and(above(up, mid), above(down, mid))
    pairs = cv2.bitwise_or(cv2.bitwise_and(high[:-1], low[1:]), cv2.bitwise_and(low[:-1], high[1:]))
    runs = cv2.bitwise_and(cv2.bitwise_and(pairs[:, 1:-1], pairs[:, :-2]), pairs[:, 2:])
    return cv2.countNonZero(runs) / max(1, runs.shape[0] * runs.shape[1])


# The 16-px macroblock grid of H.264 and MPEG coders: the pixels either side of a block border
# (phases 15 and 0) against pixels well inside the blocks (phases 3-5 and 10-12, which hold
# one 4-px sub-block border each, as the border pair does).
MB = 16
_MB_EDGE = (MB - 1, 0)
_MB_INSIDE = (3, 4, 5, 10, 11, 12)


def _mb_profile(resp: np.ndarray, axis: int) -> float:
    """Mean |second difference| at the border phases minus inside, over one axis's profile
    (the frame's first and last line left out: their filter response reads the border)."""
    prof = cv2.reduce(cv2.convertScaleAbs(resp), axis, cv2.REDUCE_AVG, dtype=cv2.CV_32F).ravel()
    n = len(prof)
    if n < 4 * MB:
        return 0.0
    phase = np.arange(n) % MB
    inner = np.ones(n, dtype=bool)
    inner[[0, n - 1]] = False
    edge = prof[inner & np.isin(phase, _MB_EDGE)].mean()
    inside = prof[inner & np.isin(phase, _MB_INSIDE)].mean()
    return float(edge - inside)


def macroblocking(gray: np.ndarray) -> float:
    """How much more the picture kinks on the 16-px macroblock grid than inside its blocks,
    in grey levels (mean |[1, -2, 1]| at the borders minus inside, x and y averaged).

    A deblocked H.264 picture at a high QP keeps flat blocks that meet at softened kinks: its
    8-px blockiness hardly moves, but this rises (0.3 -> 0.5-1.0 on real clips at QP 44-51),
    while blur of any kind lowers it. Content has kinks of its own (a tiled cartoon's on the
    very grid), so it is judged against the same picture elsewhere (twin_events.py)."""
    k = _SECOND_DIFF.reshape(1, 3)
    # every other row (column) is enough for a profile along x (y): a fifth of the cost
    dx = cv2.filter2D(gray[::2], cv2.CV_16S, k)
    dy = cv2.filter2D(np.ascontiguousarray(gray[:, ::2]), cv2.CV_16S, k.T)
    return 0.5 * (_mb_profile(dx, 0) + _mb_profile(dy, 1))


def spatial_signals(gray: np.ndarray) -> dict[str, float]:
    """Detail measurements of one native-resolution grey frame."""
    b8, grid = blockiness(gray)
    return {
        "sharpness": sharpness(gray),
        "noise": noise_sigma(gray),
        "impulse": impulse_fraction(gray),
        "blockiness": b8,
        "grid": grid,
        "halo": halo(gray),
        "detail": detail_ratio(gray),
        "aniso": anisotropy(gray),
        "comb": combing(gray),
        "mb": macroblocking(gray),
    }


def colour_signals(bgr_small: np.ndarray) -> dict[str, float]:
    """Tone and colour of one small BGR frame: black/white points, range, saturation, hue."""
    small_gray = cv2.cvtColor(bgr_small, cv2.COLOR_BGR2GRAY)
    p1, p99 = _percentiles(small_gray[::2, ::2], (1, 99))
    sat, hx, hy = colour(bgr_small)
    return {
        "black": float(p1),
        "white": float(p99),
        "contrast_range": float(p99 - p1),
        "saturation": sat,
        "hue_x": hx,
        "hue_y": hy,
    }
