"""Noise: grain (Gaussian, Poisson, speckle) and impulses (salt and pepper), judged on
absolute levels clean footage does not reach as well as against each scene."""

from __future__ import annotations

import numpy as np

from tools.detectors.spatial_events import SpatialDetector
from tools.detectors.spatial_spec import SpatialSpec

# Grain sigma: clean footage shows <= 0.65 (floor 1.2); visible from 3.6, severe at 28.
# Compression wipes grain: the better side of a step with blocking risen is no reference.
GRAIN = SpatialSpec(
    "noise", "grain", "noise", +1, np.log(1.6), np.log(6.0), offset=0.3, step=False,
    guard=("blockiness", +1, np.log(2.0)), levels=(3.6, 28.0), floor=1.2,
)
# Share of isolated black and white pixels: no natural picture has them (floor 0).
IMPULSE = SpatialSpec(
    "noise", "impulse", "impulse", +1, 0.005, 0.05, log=False, step=False, floor=0.0,
    levels=(0.01, 0.25),
)


class NoiseDetector(SpatialDetector):
    """Grain and impulse noise (over-sharpening lifts grain: its stretches explain it)."""

    name = "noise"
    types = ("noise",)
    explained_by = ("temporal", "sharpening")
    specs = (GRAIN, IMPULSE)
