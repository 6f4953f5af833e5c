"""Compression: blocking on the 8x8 coding grid and pixelation (large flat blocks), graded
by their absolute level, which clean footage never reaches."""

from __future__ import annotations

import numpy as np

from tools.detectors.spatial_events import SpatialDetector
from tools.detectors.spatial_spec import SpatialSpec

BLOCKING = SpatialSpec("compression", "blocking", "blockiness", +1, np.log(1.35), np.log(3.0),
                       floor=2.2, grade=(2.0, 15.0))
PIXELATION = SpatialSpec("compression", "pixelation", "grid", +1, np.log(1.35), np.log(3.0),
                         floor=2.4, grade=(2.0, 14.0))


class CompressionDetector(SpatialDetector):
    """Blocking and pixelation (noise and lifted blacks move their measures: explained)."""

    name = "compression"
    types = ("compression",)
    explained_by = ("temporal", "noise", "exposure")
    specs = (BLOCKING, PIXELATION)
