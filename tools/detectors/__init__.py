"""Quality events: one detector per kind of degradation, behind one interface (base.py).

`detect_events` runs the registered detectors in order on one Context (each judges its
anomalies against each scene's own baseline, and marks what it explains for the ones after
it), then the cross-detector revisions, the whole-video and end-run judgement, and the
final filter of brief mild events. Temporal detectors work on every frame (repeated frames,
flicker, jitter); spatial ones on the per-sample series, a few per second.

To add a detector: a module with a `Detector` subclass (`name`, `types`, `detect`), and one
line in DETECTORS at the place its evaluation order asks for (after the detectors whose
stretches explain its deviations away).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from tools.detectors.base import DAMAGE, Context, Detector
from tools.detectors.blur import BlurDetector
from tools.detectors.colour import ColourDetector, hue_not_exposure
from tools.detectors.compression import CompressionDetector
from tools.detectors.corruption import inside_spans
from tools.detectors.exposure import ExposureDetector, washed_out
from tools.detectors.finish import finish
from tools.detectors.flicker import FlickerDetector
from tools.detectors.frame_drop import FrameRateDetector, cadence_look, pieces_of_rate_drops
from tools.detectors.jitter import JitterDetector, noise_not_jitter
from tools.detectors.noise import NoiseDetector
from tools.detectors.repeats import RepeatsDetector
from tools.detectors.sharpening import (
    SharpeningDetector,
    blur_or_sharpening,
    noise_of_sharpening,
)
from tools.detectors.spatial_spec import SpatialSpec
from tools.detectors.whole_video import judge_whole
from tools.model import Event, Scene

# In order of evaluation: a detector ignores the stretches its `explained_by` kinds found
# before it (flicker swings the tone; spatial ones: exposure, noise, compression, colour,
# blur, sharpening, each family's specs in order).
DETECTORS: tuple[Detector, ...] = (
    RepeatsDetector(),
    FrameRateDetector(),
    FlickerDetector(),
    JitterDetector(),
    ExposureDetector(),
    NoiseDetector(),
    CompressionDetector(),
    ColourDetector(),
    BlurDetector(),
    SharpeningDetector(),
)

# Rules across detectors, applied in this order to every detector's events: washed-out
# pictures (added before the hue shifts that explain exposure events drop any), blur or
# over-sharpening (judged beside every other event still present), noise that is
# over-sharpening's doing, jitter that is noise's
# or flicker's doing, exposure that is a hue shift's, regular cadences that are the footage's
# own look, repeats and jerks that are a frame-rate drop's.
Revision = Callable[[Context, list[Event]], list[Event]]
REVISIONS: tuple[Revision, ...] = (washed_out, blur_or_sharpening, noise_of_sharpening,
                                   noise_not_jitter, hue_not_exposure, cadence_look,
                                   pieces_of_rate_drops)

# Every spatial spec in order of evaluation, and the kinds that explain each type away.
SPATIAL_SPECS: tuple[SpatialSpec, ...] = tuple(
    s for d in DETECTORS for s in getattr(d, "specs", ()))
EXPLAINS: dict[str, tuple[str, ...]] = {
    t: d.explained_by for d in DETECTORS if d.explained_by for t in d.types}


def get(name: str) -> Detector:
    """The registered detector of this name (KeyError listing the valid ones)."""
    for d in DETECTORS:
        if d.name == name:
            return d
    raise KeyError(f"no detector {name!r}; valid: {', '.join(d.name for d in DETECTORS)}")


def detect_events(
    frames: dict[str, np.ndarray], samples: dict[str, np.ndarray], scenes: list[Scene],
    fps: float, detectors: tuple[Detector, ...] = DETECTORS,
    damaged: list[tuple[float, float]] | None = None,
) -> list[Event]:
    """Every quality event found in an index's signals, sorted by start time; `damaged`:
    the (start, end) s of stretches the decoder could not decode, explained for all."""
    ctx = Context.build(frames, samples, scenes, fps, detectors)
    if damaged:
        ctx.explain(DAMAGE, inside_spans(ctx.sample_times, damaged))
    events: list[Event] = []
    for detector in detectors:
        events.extend(detector.detect(ctx))
    for revise in REVISIONS:
        events = revise(ctx, events)
    return finish(judge_whole(ctx, events))


__all__ = ["DETECTORS", "EXPLAINS", "REVISIONS", "SPATIAL_SPECS", "Context", "Detector",
           "SpatialSpec", "detect_events", "get"]
