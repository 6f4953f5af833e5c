"""The detector registry's contract: every detector behind one interface, in a fixed order."""

from __future__ import annotations

import numpy as np
import pytest

import tools.detectors as detectors
from tools.detectors import (
    DETECTORS,
    EXPLAINS,
    SPATIAL_SPECS,
    Context,
    Detector,
    detect_events,
)
from tools.model import EVENT_TYPES, Event, Scene
from tools.signals import SAMPLE_SIGNALS

FPS = 25.0


def _signals(duration_s: float = 40.0) -> tuple[dict, dict, list[Scene]]:
    """Clean frames and samples with a flicker burst and a blurred stretch, two shots."""
    rng = np.random.default_rng(3)
    n = int(duration_s * FPS)
    luma = np.full(n, 100.0) + rng.normal(0, 0.2, n)
    luma[250:450:2] += 12.0  # flicker from 10 s to 18 s
    frames = {
        "t": np.arange(n) / FPS, "luma": luma, "contrast": np.full(n, 50.0),
        "diff": np.full(n, 2.0) + rng.normal(0, 0.1, n), "corr": np.full(n, 0.98),
        "motion_x": rng.normal(0, 0.05, n), "motion_y": rng.normal(0, 0.05, n),
        "motion_conf": np.full(n, 0.6),
    }
    t = np.arange(0, duration_s, 0.5)
    m = len(t)
    base = {"sharpness": 300.0, "noise": 0.3, "impulse": 0.0, "blockiness": 1.05, "grid": 1.1,
            "halo": 8.0, "detail": 0.25, "aniso": 0.1, "black": 16.0, "white": 235.0,
            "contrast_range": 219.0, "saturation": 45.0, "hue_x": 0.2, "hue_y": 0.1,
            "comb": 0.001, "mb": 0.3}
    samples = {k: (v * (1 + 0.03 * rng.standard_normal(m))).astype(np.float32)
               for k, v in base.items()}
    blurred = (t >= 24.0) & (t < 34.0)
    samples["detail"][blurred] *= 0.4
    samples["sharpness"][blurred] *= 0.3
    assert set(base) == set(SAMPLE_SIGNALS)
    samples["t"] = t
    samples["frame"] = np.round(t * FPS).astype(np.int64)
    scenes = [Scene(0.0, 20.0, 0, 499), Scene(20.0, duration_s, 500, n - 1)]
    return frames, samples, scenes


def test_every_detector_has_a_unique_name_and_known_types():
    names = [d.name for d in DETECTORS]
    assert len(set(names)) == len(names) and all(names)
    for d in DETECTORS:
        assert isinstance(d, Detector)
        assert d.types and set(d.types) <= set(EVENT_TYPES), d
        assert set(d.explained_by) <= {"temporal"} | {t for x in DETECTORS for t in x.types}


def test_each_detector_returns_only_its_own_types():
    frames, samples, scenes = _signals()
    ctx = Context.build(frames, samples, scenes, FPS, DETECTORS)
    seen = set()
    for d in DETECTORS:
        found = d.detect(ctx)
        assert all(isinstance(e, Event) and e.type in d.types for e in found), (d, found)
        seen.update(e.type for e in found)
    assert {"flicker", "blur"} <= seen


def test_the_order_of_evaluation_is_the_documented_one():
    assert [d.name for d in DETECTORS] == [
        "repeats", "frame_rate", "flicker", "jitter", "exposure", "noise", "compression", "colour",
        "blur", "sharpening"]
    assert [s.signal for s in SPATIAL_SPECS] == [
        "black", "contrast_range", "noise", "impulse", "blockiness", "grid", "saturation",
        "saturation", "hue", "detail", "sharpness", "aniso", "halo"]
    assert EXPLAINS == {
        "noise": ("temporal", "sharpening"),
        "exposure": ("temporal",),
        "compression": ("temporal", "noise", "exposure"),
        "colour": ("temporal", "exposure"),
        "blur": ("temporal", "noise", "compression", "exposure"),
        "sharpening": ("temporal", "noise", "compression", "exposure"),
    }


def test_flicker_explains_its_samples_to_the_spatial_detectors():
    frames, samples, scenes = _signals()
    ctx = Context.build(frames, samples, scenes, FPS, DETECTORS)
    events = detectors.get("flicker").detect(ctx)
    assert events
    t = samples["t"]
    inside = (t >= events[0].start_s) & (t < events[0].end_s)
    assert ctx.explaining(("temporal",))[inside].all()
    assert not ctx.explaining(("temporal",))[t > events[0].end_s + 1.0].any()


def test_a_chosen_set_of_detectors_runs_alone():
    frames, samples, scenes = _signals()
    only = (detectors.get("flicker"),)
    assert {e.type for e in detect_events(frames, samples, scenes, FPS, only)} == {"flicker"}


def test_an_unknown_detector_lists_the_valid_ones():
    with pytest.raises(KeyError, match="valid: repeats, frame_rate, flicker"):
        detectors.get("nonesuch")
