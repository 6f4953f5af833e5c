"""Colour: oversaturation and hue shifts (two-sided signals, each scene against the level
nearer the video's typical one), and washed-out colour switched on and off (its steps)."""

from __future__ import annotations

import numpy as np

from tools.detectors.base import Context
from tools.detectors.series import overlap_share
from tools.detectors.spatial_events import SpatialDetector
from tools.detectors.spatial_spec import SpatialSpec
from tools.model import Event

# Mean chroma vector length below which a picture's hue is not judged (a near-grey picture
# has no stable hue: its angle swings with a little noise or lighting). 0.045 on the HSV
# scale it was set on; the Lab chroma vector of the same frames is 1.44x shorter (median
# over the corpus clips), hence 0.031.
HUE_WEAK = 0.031
# ... nor when its colours cancel out: the saturation-weighted hue vector is shorter than
# this share of the mean saturation, so its angle follows the balance of the content (a face
# turning, a pan) rather than a cast. Hue events of four NDQA dev sets whose samples fall
# below 0.35: 17 false, 1 true (a 2-s glimpse); true ones elsewhere keep >= 0.56.
HUE_COHERENCE = 0.35

OVERSATURATION = SpatialSpec(
    "colour", "oversaturation", "saturation", +1, np.log(1.3), np.log(3.0), offset=20.0
)
# Washed-out colour: saturation falls. Content moves saturation a lot (a face turning, a
# grey sky panned into view), so only a fall switched on and off abruptly counts (paired
# steps, or one at the video's edge): the level of a colour filter jumps, content drifts.
DESATURATION = SpatialSpec(
    "colour", "desaturation", "saturation", -1, np.log(1.3), np.log(3.0), offset=20.0,
    pairs_only=True,
)
HUE_SHIFT = SpatialSpec("colour", "hue shift", "hue", 0, 20.0, 90.0, log=False,
                        chroma_floor=(HUE_WEAK, HUE_COHERENCE))

# Exposure events lying for at least HUE_SHARE inside hue shifts of at least HUE_STRONG
# are the shift's doing (see hue_not_exposure).
HUE_STRONG = 0.5
HUE_SHARE = 0.5


class ColourDetector(SpatialDetector):
    """Oversaturation, hue shifts and desaturation."""

    name = "colour"
    types = ("colour",)
    explained_by = ("temporal", "exposure")
    specs = (DESATURATION, OVERSATURATION, HUE_SHIFT)

    def explainers(self, spec: SpatialSpec) -> tuple[str, ...]:
        """The family's, but tone does not turn hue: exposure explains no hue shift; and a
        washed-out stretch (found first) is no reference for oversaturation: against it, the
        clean rest of its shot would read as oversaturated."""
        if spec.signal == "hue":
            return tuple(k for k in self.explained_by if k != "exposure")
        if spec is OVERSATURATION:
            return (*self.explained_by, "colour")
        return self.explained_by


def hue_not_exposure(ctx: Context, events: list[Event]) -> list[Event]:
    """Drop exposure events lying mostly inside a strong hue shift: rotating the colours moves
    the luma of every coloured pixel, which is the shift's doing, not a change of exposure."""
    hue = [(e.start_s, e.end_s) for e in events
           if e.subtype == "hue shift" and e.severity >= HUE_STRONG]
    return [e for e in events
            if e.type != "exposure" or overlap_share(e.start_s, e.end_s, hue) < HUE_SHARE]
