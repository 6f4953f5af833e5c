"""The calibration file, the calibrated confirmation of raw events, and the final gates."""

from __future__ import annotations

import json

import pytest

import tools.detectors.confirm  # noqa: F401 - declares its quantities
import tools.detectors.freeze  # noqa: F401
from tools.detectors import calibration as cal
from tools.detectors import gates
from tools.detectors.confirm import confirmed
from tools.model import Event


def _event(etype="blur", subtype="softness", a=10.0, b=20.0, sev=0.7, **evidence) -> Event:
    return Event(etype, a, b, sev, 1.0, subtype, evidence)


def test_calibration_file_covers_every_declared_threshold():
    """The committed file was made by `bench calibrate` from clean footage only, holds every
    threshold a detector declares, and each lies beyond the clean values it was read from."""
    data = json.loads(cal.CALIBRATION_FILE.read_text())
    assert data["made_by"] == "bench calibrate" and data["part"] == "calibration"
    assert data["clips"] and all(c["source"] for c in data["clips"])
    missing = set(cal.QUANTITIES) - set(data["thresholds"])
    assert not missing, f"run `bench calibrate`: no value for {sorted(missing)}"
    for key, entry in data["thresholds"].items():
        if entry["direction"] > 0:
            assert entry["value"] > entry["clean_max"], key
        else:
            assert entry["value"] < entry["clean_min"], key


def test_calibration_never_uses_evaluation_sources():
    from bench.generate.corpus import CALIBRATION_SOURCES, EVALUATION_SOURCES

    data = json.loads(cal.CALIBRATION_FILE.read_text())
    sources = {c["source"] for c in data["clips"]}
    assert sources <= CALIBRATION_SOURCES
    assert not sources & EVALUATION_SOURCES


def test_whole_video_event_within_clean_levels_is_dropped():
    limit = cal.value("whole.halo.p50")
    inside = _event("sharpening", "halo", 0, 180, 1.0, signal="halo", video_p50=limit * 0.9,
                    whole_video=True)
    beyond = _event("sharpening", "halo", 0, 180, 1.0, signal="halo", video_p50=limit * 1.1,
                    whole_video=True)
    assert not confirmed(inside)
    assert confirmed(beyond)


def test_lower_is_worse_limit_reads_the_other_way():
    limit = cal.value("end_run.sharpness.p90")
    assert confirmed(_event(a=100, b=180, signal="sharpness", run_p90=limit * 0.5))
    assert not confirmed(_event(a=100, b=180, signal="sharpness", run_p90=limit * 2))


def test_repeated_frames_need_more_holds_than_clean_footage_shows():
    holds = cal.value("repeats.holds")
    few = _event("stutter", "repeated frames", sev=0.9, holds=int(holds), median_hold_frames=6)
    many = _event("stutter", "repeated frames", sev=0.9, holds=int(holds) + 2,
                  median_hold_frames=6)
    assert not confirmed(few)
    assert confirmed(many)


def test_events_are_cut_to_the_video_and_not_listed_twice():
    a = _event("compression", "blocking", 0.0, 20.16, 0.59)
    b = _event("compression", "blocking", 0.0, 20.16, 1.0)
    out = gates.clipped(gates.deduplicated([a, b]), 20.0)
    assert len(out) == 1
    assert out[0].severity == 1.0 and out[0].end_s == 20.0
    other = _event("blur", "softness", 5.0, 8.0, 0.6)
    assert len(gates.deduplicated([a, other])) == 2


def test_gate_depends_on_duration_class():
    assert cal.duration_class(3.0) == "short"
    assert cal.duration_class(10.0) == "medium"
    assert cal.duration_class(60.0) == "long"
    assert cal.gate_key("blur", "softness", 3.0) == "blur/softness/short"


@pytest.mark.parametrize("key", sorted(cal.QUANTITIES))
def test_every_quantity_has_a_doc_and_direction(key):
    q = cal.QUANTITIES[key]
    assert q.doc and q.direction in (-1, 1)


def test_blocking_floor_is_calibrated_from_each_clean_videos_sample_tail():
    """The floor beyond which blocking is flagged outright comes from the calibration file
    (each clean video's 99th-percentile sample), not from a constant."""
    import numpy as np

    from tools.detectors.calibration import CleanVideo
    from tools.detectors.compression import BLOCKING
    from tools.detectors.spatial_events import beyond_clean
    from tools.detectors.spatial_spec import floor_raw

    assert BLOCKING.floor == "whole.blockiness.p99"
    assert floor_raw(BLOCKING) == cal.value("whole.blockiness.p99")
    q = cal.QUANTITIES["whole.blockiness.p99"]
    x = np.linspace(1.0, 2.0, 101)
    video = CleanVideo("v", 25.0, {}, {"blockiness": x}, [], [])
    assert q.measure(video) == pytest.approx([1.99])
    assert q.measure(CleanVideo("few", 25.0, {}, {"blockiness": x[:5]}, [], [])) == []
    floor = floor_raw(BLOCKING)
    samples = {"blockiness": np.r_[np.full(20, floor * 0.9), np.full(20, floor * 1.5)]}
    flagged = beyond_clean(samples, BLOCKING)
    assert not flagged[:15].any() and flagged[25:].all()


def test_gates_are_set_on_the_events_found_without_the_twins(monkeypatch):
    """The twins drop clean events whose picture recurs unchanged; footage that repeats too
    little has too few twins, so the gates are set as if they did not judge."""
    import numpy as np

    from bench import calibrate as bc
    from tools.detectors.calibration import CleanVideo

    seen = []

    def fake_derive(fps, frames, samples, raw_cuts, gated=True, twins=True):
        seen.append((gated, twins))
        return [], [Event(type="exposure", subtype="low contrast", start_s=0.0, end_s=3.0,
                          severity=0.62, score=1.0)]

    monkeypatch.setattr(bc, "derive", fake_derive)
    video = CleanVideo("clip", 25.0, {"t": np.arange(10) / 25.0}, {}, [], [])
    gates_found, found = bc._gates([video])
    assert seen == [(False, False)]
    assert gates_found["exposure/low contrast/short"]["value"] == pytest.approx(0.625)
