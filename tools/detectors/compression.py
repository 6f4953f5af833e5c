"""Compression: blocking on the 8x8 coding grid and pixelation (large flat blocks), graded
by their absolute level, which clean footage never reaches; and coded stretches (blocks up
and grain down together against the footage around them, across shots: tools/detectors/
coded.py)."""

from __future__ import annotations

import numpy as np

from tools.detectors.base import Context
from tools.detectors.coded import coded_events
from tools.detectors.spatial_events import SpatialDetector
from tools.detectors.spatial_spec import SpatialSpec, clean_floor
from tools.model import Event

# The blocking and pixelation measures of clean real footage stay below calibrated floors;
# samples plainly beyond them are flagged outright (spatial_events.beyond_clean).
BLOCKING = SpatialSpec("compression", "blocking", "blockiness", +1, np.log(1.35), np.log(3.0),
                       floor=clean_floor("blockiness", "8x8 blockiness", 2.2),
                       grade=(2.0, 15.0))
PIXELATION = SpatialSpec("compression", "pixelation", "grid", +1, np.log(1.35), np.log(3.0),
                         floor=clean_floor("grid", "large flat blocks", 2.4), grade=(2.0, 14.0))


class CompressionDetector(SpatialDetector):
    """Blocking and pixelation (noise and lifted blacks move their measures: explained)."""

    name = "compression"
    types = ("compression",)
    explained_by = ("temporal", "noise", "exposure")
    specs = (BLOCKING, PIXELATION)

    def detect(self, ctx: Context) -> list[Event]:
        """The scene-relative events, then the coded stretches across shots (their samples
        explained as compression, so blur and colour do not read the coder's smoothing)."""
        events = super().detect(ctx)
        taken = ctx.explaining(self.explained_by)
        found, covered = coded_events(ctx.samples, [s.start_s for s in ctx.scenes[1:]], taken)
        ctx.explain("compression", covered)
        return events + found
