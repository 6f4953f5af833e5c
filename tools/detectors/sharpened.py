"""Blur or over-sharpening? A step in detail between two parts of a scene is the low side
blurred or the high side over-sharpened; the detectors see only the step. This tells which.

Blur wipes out strong edges first, so the halo beside them falls further than the overall
detail; unsharp masking lifts the Laplacian sharpness far more than the halo. Used where a
reference is chosen (a sharpening spec's guard) and where blur and sharpening events are
judged against the rest of their scenes (sharpening.blur_or_sharpening).
"""

from __future__ import annotations

import numpy as np

# On the log scale (measured on 38 blur and 10 sharpening needle parts of the NDQA dev sets):
# sharpened when sharpness rose >= 2x as far as the halo and the halo <= 1.6x as far as the
# detail, by at least 1.3 (3.7x): 9 of the 10 sharpening parts pass, none of the 38 blur parts.
SHARP_PER_HALO = 2.0
HALO_PER_DETAIL = 1.6
SHARPEN_MIN_RISE = 1.65
# Unsharp masking multiplies the grain too (its estimate rose 1.2 to 3.6 log over the 10
# sharpening needles of two dev sets), while a slight defocus, which also lifts sharpness far
# more than the halo on its sharp side, leaves the grain almost as it is (0.2).
SHARPEN_GRAIN_RISE = 0.5
SHARPNESS_SIGNALS = ("sharpness", "halo", "detail")
# Grain or over-sharpening? Unsharp masking of gain g lifts the overshoot beside strong edges
# (the halo) by about log g and the Laplacian variance by about 2 log g: the halo rises about
# half as far as the sharpness. Added grain lifts the Laplacian of the flat areas but hardly
# the high-pass beside strong edges, which the edge itself dominates. Halfway between (a
# quarter) and at most as far (a halo rising with no sharper Laplacian is no unsharp
# masking): a stretch whose halo rose that far against its sharpness was sharpened, and its
# grain and isolated pixels (overshoot clipped to black and white) are the sharpening's.
HALO_PER_SHARPNESS = (0.25, 1.0)
# Fewest finite samples on each side for a rise to be told.
RISE_MIN_SAMPLES = 3


def sharpened(samples: dict[str, np.ndarray], low: np.ndarray, high: np.ndarray) -> float | None:
    """The sharpness rise (log) when the `high` samples look over-sharpened against the `low`
    ones rather than `low` blurred against `high`; None when they do not (or cannot tell)."""
    rise = {name: log_rise(samples, name, low, high) for name in SHARPNESS_SIGNALS}
    if any(r is None for r in rise.values()):
        return None
    if min(rise.values()) <= 0 or rise["sharpness"] < SHARPEN_MIN_RISE:
        return None
    if rise["sharpness"] >= SHARP_PER_HALO * rise["halo"] and (
        rise["halo"] <= HALO_PER_DETAIL * rise["detail"]
    ):
        grain = log_rise(samples, "noise", low, high)  # unmeasurable grain decides nothing
        if grain is None or grain >= SHARPEN_GRAIN_RISE:
            return rise["sharpness"]
    return None


def sharpened_grain(samples: dict[str, np.ndarray], clean: np.ndarray,
                    noisy: np.ndarray) -> bool:
    """Whether the noise measured in the `noisy` samples is over-sharpening's doing: against
    the `clean` ones, the halo rose between HALO_PER_SHARPNESS times as far as the sharpness."""
    sharp = log_rise(samples, "sharpness", clean, noisy)
    halo = log_rise(samples, "halo", clean, noisy)
    lo, hi = HALO_PER_SHARPNESS
    return sharp is not None and halo is not None and sharp > 0 and (
        lo * sharp <= halo <= hi * sharp)


def log_rise(samples: dict[str, np.ndarray], name: str, low: np.ndarray,
             high: np.ndarray) -> float | None:
    """How far (log) a signal's median rises from the `low` samples to the `high` ones; None
    when it cannot be told (signal missing, fewer than 3 finite samples a side, a median
    at or below 0)."""
    if name not in samples:
        return None
    x = samples[name].astype(np.float64)
    lo, hi = x[low][np.isfinite(x[low])], x[high][np.isfinite(x[high])]
    if len(lo) < RISE_MIN_SAMPLES or len(hi) < RISE_MIN_SAMPLES or np.median(lo) <= 0 \
            or np.median(hi) <= 0:
        return None
    return float(np.log(np.median(hi) / np.median(lo)))
