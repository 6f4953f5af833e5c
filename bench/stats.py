"""Confidence intervals for accuracies whose standard error is clustered by video.

The standard error comes from bench.scoring.clustered_mean (cluster-robust, with the
small-sample factor G/(G-1)). With G clusters the interval uses Student's t with G-1 degrees
of freedom (Cameron & Miller's advice for few clusters), so a run over 5 videos is not given
the interval of 5 independent questions; an accuracy's interval is clipped to [0, 1].
"""

from __future__ import annotations

import math

# Two-sided 95 % quantiles of Student's t, t_{0.975}(df), for df = 1..30.
_T975 = (12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
         2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
         2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
         2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272)
Z975 = 1.959963984540054


def t975(df: float) -> float:
    """The 97.5 % quantile of Student's t with df degrees of freedom (inf: the normal's)."""
    if math.isnan(df) or df < 1:
        return math.nan
    if math.isinf(df):
        return Z975
    k = int(df)
    if k <= len(_T975):
        return _T975[k - 1]
    z = Z975  # Cornish-Fisher expansion: error below 1e-4 from df = 31 on
    return z + (z ** 3 + z) / (4 * k) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * k * k)


def ci95(mean: float, se: float, clusters: int,
         bounds: tuple[float, float] | None = (0.0, 1.0)) -> tuple[float, float]:
    """95 % interval mean ± t(G-1)·se over G clusters, clipped to `bounds`; NaN if undefined."""
    if clusters < 2 or math.isnan(mean) or math.isnan(se):
        return math.nan, math.nan
    half = t975(clusters - 1) * se
    lo, hi = mean - half, mean + half
    if bounds is not None:
        lo, hi = max(bounds[0], lo), min(bounds[1], hi)
    return lo, hi
