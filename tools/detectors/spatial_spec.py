"""How one spatial signal reveals one kind of degradation (SpatialSpec), and the arithmetic
on a spec's series: its transform, deviations (circular for hue), typical level, severity."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tools.detectors import calibration as cal
from tools.detectors.series import ramp


@dataclass(frozen=True)
class SpatialSpec:
    """How one spatial signal reveals one kind of degradation."""

    type: str
    subtype: str
    signal: str
    direction: int  # +1: worse when higher, -1: worse when lower, 0: either way
    min_delta: float  # smallest deviation (in transformed units) worth reporting
    full_delta: float  # deviation that counts as severity 1
    log: bool = True
    offset: float = 0.0
    # When a scene steps between two levels, its better side is the reference, unless the
    # guard says that side is itself a degradation: (signal, direction, log factor) = the
    # guard signal sits that far the given way on the better side (halo: detail fell there,
    # a smoothed picture has no halo; noise: blocking rose there, compression wipes grain).
    guard: tuple[str, int, float] | None = None
    # ... and the guard is overruled where the worse side looks over-sharpened rather than the
    # better side blurred (see tools/detectors/sharpened.py).
    guard_sharpened: bool = False
    # False: no plain step reference (noise: blur, compression and noise itself all move the
    # detail ratio, so the better side may be the smoothed one): the better-quality quartile,
    # unless the guard shows the better side is degraded.
    step: bool = True
    # A second signal that must move the same way by at least this factor (log) in the event,
    # against the rest of its scenes: a ratio can swing on a featureless picture, where the
    # amount of detail cannot, and there blur is not visible anyway.
    confirm: tuple[str, float] | None = None
    # The way the confirming signal moves when worse, where not the spec's own (0).
    confirm_direction: int = 0
    # Severity from how far the confirming signal falls (log; for a spec read only from its
    # steps, the step itself), ramped from the first to the second value: (first visible,
    # severe), or past a knee more slowly on to a far value (spatial_events.drop_severity).
    # None: from the deviation alone.
    drop: tuple[float, ...] | None = None
    # Only a degradation switched on and off abruptly counts (see spatial_steps.paired_steps):
    # for a signal that content moves a lot (native sharpness falls in every pan), only its
    # jumps are news.
    pairs_only: bool = False
    # Smallest jump (x min_delta, at least 1) that opens or closes a paired step (see
    # spatial_steps.change_points), unless the series' own jitter demands more.
    pair_least: float = 1.5
    # An event may reach across cuts: whole scenes joining it when they sit as far off (see
    # spatial_bridge.bridge_scenes), a step paired with one in a later shot. Not for a signal
    # whose level is mostly the content's (the orientation of fine detail): each scene alone.
    across_cuts: bool = True
    # Paired steps must also draw the black and white points towards each other at the onset
    # (and apart at the end): a contrast cut, not a change of exposure or of content.
    squeeze: bool = False
    # The clean level is known outright (no natural picture has isolated black and white
    # pixels; clean footage shows grain sigma <= 0.65), or calibrated (the key of a
    # levels.declare_whole quantity): no scene's reference lies beyond it (raw units), so a
    # scene degraded throughout still shows.
    floor: float | str | None = None
    # Severity from the absolute level in the event, (first visible, severe), on a log scale,
    # where the signal measures what a viewer sees whatever the content (grain sigma, impulse
    # share); else from the deviation against the scene.
    levels: tuple[float, float] | None = None
    # Severity from the absolute level in the event alone, as `levels`, for a signal whose
    # clean level is known but whose deviation saturates (blocking: 2.8 in a slight needle,
    # 3-7 moderate, 9-22 heavy).
    grade: tuple[float, float] | None = None
    # Lone steps whose worse side runs to the shot's cut count too (see spatial_steps).
    cut_steps: bool = False
    # Hysteresis: a flagged run extends over the neighbouring samples (gaps up to
    # MERGE_GAP_S bridged) that stay beyond this share of the flagging threshold, for a
    # signal whose level under a steady degradation swings with the content (the halo of a
    # sharpened shot follows its edges: its clear samples find it, the rest continue it).
    hold: float | None = None
    # An event mostly of abrupt steps is judged (finish: stands off its baseline) against
    # the cleanest reference of the scenes it touches, not its first scene's: a degradation
    # switched on late in one shot and off early in another, over footage cut every few
    # seconds, leaves the shot it starts in its degraded level as reference. One-sided
    # signals only. (Not for native sharpness: on the evaluation concatenation of clean
    # clips its pairs beside a refocus then passed, 16 false blur events.)
    steps_baseline: bool = False
    # Hue only: (length, coherence) below which a picture's hue is not judged: its mean
    # chroma vector is shorter than `length`, or than `coherence` x its mean saturation / 255.
    chroma_floor: tuple[float, float] | None = None


def series(samples: dict[str, np.ndarray], spec: SpatialSpec) -> np.ndarray:
    """The spec's signal as judged: the hue angle (degrees), the log level, or as measured."""
    if spec.signal == "hue":
        return np.degrees(np.arctan2(samples["hue_y"], samples["hue_x"])).astype(np.float64)
    x = samples[spec.signal].astype(np.float64)
    return np.log(np.maximum(x + spec.offset, 1e-6)) if spec.log else x


def deviation(x: np.ndarray, ref: float, spec: SpatialSpec) -> np.ndarray:
    """How far each value lies from `ref` towards worse (either way for two-sided signals)."""
    if spec.signal == "hue":
        return np.abs((x - ref + 180.0) % 360.0 - 180.0)
    d = x - ref
    return np.abs(d) if spec.direction == 0 else spec.direction * d


def signed(d, spec: SpatialSpec):
    """A difference (scalar or array) wrapped to -180..180 degrees for hue, else as is."""
    return (d + 180.0) % 360.0 - 180.0 if spec.signal == "hue" else d


def typical(x: np.ndarray, spec: SpatialSpec) -> float:
    """Video-wide typical level (circular for hue)."""
    x = x[np.isfinite(x)]
    if len(x) == 0:
        return float("nan")
    if spec.signal == "hue":
        ang = np.radians(x)
        return float(np.degrees(np.arctan2(np.median(np.sin(ang)), np.median(np.cos(ang)))))
    return float(np.median(x))


def toward(x: np.ndarray, level: float, sign: float, spec: SpatialSpec) -> np.ndarray:
    """How far each value lies from `level` in the direction `sign` (circular for hue)."""
    return np.sign(sign) * signed(x - level, spec)


def severity(dev: float, spec: SpatialSpec) -> float:
    """0.2 at the spec's smallest deviation, 1.0 at its full one."""
    return ramp(dev, spec.min_delta, spec.full_delta)


def floor_raw(spec: SpatialSpec) -> float:
    """The spec's clean floor in raw units (the calibrated value for a calibration key)."""
    if isinstance(spec.floor, str):
        return cal.value(spec.floor)
    return float(spec.floor)


def floor_level(spec: SpatialSpec) -> float:
    """The spec's clean floor in the units of its series (log when the spec is)."""
    raw = floor_raw(spec)
    return float(np.log(raw + spec.offset)) if spec.log else raw


def baseline_raw(spec: SpatialSpec, refs: np.ndarray, sid: np.ndarray, a: int, b: int) -> float:
    """The first scene baseline the run [a, b) touches, in the signal's raw units."""
    vals = [refs[k] for k in np.unique(sid[a:b]) if np.isfinite(refs[k])]
    r = vals[0] if vals else float("nan")
    if spec.signal == "hue" or not spec.log:
        return float(r)
    return float(np.exp(r) - spec.offset)
