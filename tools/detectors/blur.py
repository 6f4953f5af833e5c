"""Blur: softness (the detail ratio falls, confirmed by native sharpness), heavy blur (native
sharpness collapses abruptly at its ends) and motion blur (fine detail smeared one way)."""

from __future__ import annotations

import numpy as np

from tools.detectors.base import Context
from tools.detectors.camera_motion import fast_motion
from tools.detectors.series import dilated
from tools.detectors.spatial_events import SpatialDetector
from tools.detectors.spatial_spec import SpatialSpec

# Blur severity from how far native sharpness falls (log): the detail ratio finds blur but
# saturates, while the sharpness drop grows with the blur (slight blur about 0.4-0.8,
# moderate 0.8-1.7, heavy beyond 2 on the table-S5 levels of 204 test needles). 0.2 at a
# fall of 1.25x, rising as before up to 0.55 (a fall of 1.22 log, where the local brain's
# "severe" starts), then on more slowly to 1.0 at 5.0 log: on real footage the fall goes on
# growing with the blur (ffmpeg gblur sigma 1.5 / 3 / 6 on the phone clip: 2.05 / 3.44 /
# 4.34, which read 0.85 / 1.0 / 1.0 on the old ramp and 0.65 / 0.81 / 0.92 now).
BLUR_DROP = (np.log(1.25), 2.5, 0.55, 5.0)

SOFTNESS = SpatialSpec(
    "blur", "softness", "detail", -1, np.log(1.15), np.log(1.6), offset=0.01,
    confirm=("sharpness", np.log(1.25)), drop=BLUR_DROP,
)
# Heavy blur (defocus) flattens both scales of the detail ratio alike; native sharpness
# still collapses, abruptly where the blur starts and ends.
HEAVY = SpatialSpec(
    "blur", "softness", "sharpness", -1, np.log(2.0), np.log(8.0), offset=1.0,
    pairs_only=True, pair_least=1.0, cut_steps=True, drop=BLUR_DROP,
)
# Motion blur smears detail along one direction: the anisotropy of fine detail rises
# (0.7 for a slight horizontal smear), and native sharpness must fall with it (a pan, or
# an object with long straight edges, turns it without blurring anything).
MOTION = SpatialSpec(
    "blur", "motion", "aniso", +1, 0.35, 1.2, log=False,
    confirm=("sharpness", np.log(1.15)), confirm_direction=-1, across_cuts=False,
    drop=BLUR_DROP,
)


class BlurDetector(SpatialDetector):
    """Softness, heavy blur and motion blur (noise, coding, lifted blacks and the camera's own
    fast motion explain theirs)."""

    name = "blur"
    types = ("blur",)
    explained_by = ("temporal", "noise", "compression", "exposure")
    specs = (SOFTNESS, HEAVY, MOTION)

    def quiet(self, ctx: Context) -> np.ndarray | None:
        """The samples taken while the camera moved fast for its footage, and one each side
        (a swing's blur starts and settles around it): its own motion blur, no event."""
        if not ctx.has_frames:
            return None
        return dilated(fast_motion(ctx.frames, ctx.sample_times, ctx.sample_scenes), 1)
