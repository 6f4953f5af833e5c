"""Coded stretches: blocks up and grain down together, against the footage around them."""

from __future__ import annotations

import numpy as np

from tools.detectors import coded
from tools.detectors.base import Context
from tools.detectors.calibration import QUANTITIES, CleanVideo
from tools.detectors.compression import CompressionDetector
from tools.model import Scene

STEP = 0.5


def _broadcast(n: int = 360, seed: int = 0) -> tuple[dict[str, np.ndarray], list[Scene]]:
    """Clean footage cutting every 3 s, each shot with its own blockiness and grain."""
    rng = np.random.default_rng(seed)
    t = np.arange(n) * STEP
    shot = (t // 3.0).astype(int)
    blk = rng.uniform(1.0, 1.15, shot.max() + 1)[shot] * rng.uniform(0.97, 1.03, n)
    grain = rng.uniform(0.18, 0.26, shot.max() + 1)[shot] * rng.uniform(0.9, 1.1, n)
    scenes = [Scene(float(s * 3.0), float(min((s + 1) * 3.0, n * STEP)), s * 75, (s + 1) * 75)
              for s in range(shot.max() + 1)]
    return {"t": t, "blockiness": blk, "noise": grain}, scenes


def _cuts(scenes: list[Scene]) -> list[float]:
    return [s.start_s for s in scenes[1:]]


def _coded(samples, lo: float, hi: float, blk: float = 1.8, grain: float = 0.2):
    """A window re-encoded at a low quality: blocks x `blk`, grain x `grain`."""
    out = {k: v.copy() for k, v in samples.items()}
    inside = (out["t"] >= lo) & (out["t"] < hi)
    out["blockiness"][inside] *= blk
    out["noise"][inside] *= grain
    return out


def test_a_coded_window_over_whole_shots_is_found_with_its_edges(monkeypatch):
    samples, scenes = _broadcast()
    monkeypatch.setattr(coded, "value", lambda key: 0.2)
    found = coded.coded_stretches(samples["t"], coded.coding_measures(
        _coded(samples, 61.5, 88.5)), 0.2, _cuts(scenes))
    assert len(found) == 1
    _, _, start, end, level = found[0]
    assert abs(start - 61.5) <= 0.5 and abs(end - 88.5) <= 0.5
    assert level > 0.4


def test_blocks_alone_or_grain_alone_are_content(monkeypatch):
    samples, scenes = _broadcast()
    for blk, grain in ((1.8, 1.0), (1.0, 0.2)):  # a rate-control pulse; a calm shot
        measures = coded.coding_measures(_coded(samples, 61.5, 88.5, blk, grain))
        assert coded.coded_stretches(samples["t"], measures, 0.2, _cuts(scenes)) == []


def test_a_run_of_shots_that_looks_different_from_cut_to_cut_is_a_montage():
    samples, scenes = _broadcast()
    # from the cut at 60 s to the cut at 90 s: both ends at cuts
    measures = coded.coding_measures(_coded(samples, 60.0, 90.0))
    assert coded.coded_stretches(samples["t"], measures, 0.2, _cuts(scenes)) == []
    # the same stretch starting inside a shot is a coder switched on
    measures = coded.coding_measures(_coded(samples, 61.5, 90.0))
    assert len(coded.coded_stretches(samples["t"], measures, 0.2, _cuts(scenes))) == 1


def test_the_detector_reports_it_and_explains_its_samples(monkeypatch):
    samples, scenes = _broadcast()
    samples = _coded(samples, 61.5, 88.5)
    monkeypatch.setattr(coded, "value", lambda key: 0.2)
    det = CompressionDetector()
    ctx = Context.build({}, samples, scenes, 25.0, (det,))
    events = [e for e in det.detect(ctx) if e.evidence.get("signal") == "blockiness+grain"]
    assert len(events) == 1 and events[0].type == "compression"
    assert abs(events[0].start_s - 61.5) <= 0.5 and abs(events[0].end_s - 88.5) <= 0.5
    inside = (samples["t"] >= 63) & (samples["t"] < 87)
    assert ctx.explained["compression"][inside].all()
    assert not ctx.explained["compression"][samples["t"] < 50].any()


def test_the_limit_is_calibrated_above_what_a_clean_video_shows():
    assert "compression.coded" in QUANTITIES
    samples, scenes = _broadcast(seed=3)
    video = CleanVideo("clean", 25.0, {}, samples, scenes, [])
    (limit,) = coded._quiet_limit(video)
    assert coded.coded_stretches(samples["t"], coded.coding_measures(samples), limit,
                                 _cuts(scenes)) == []
    assert coded.coded_stretches(samples["t"], coded.coding_measures(samples), limit * 0.5,
                                 _cuts(scenes)) != [] or limit < 0.01


def _grainy(seed: int = 0) -> tuple[dict[str, np.ndarray], list[Scene]]:
    """A grainy broadcast whose grain hides its macroblock grid (kinks below zero)."""
    samples, scenes = _broadcast(seed=seed)
    rng = np.random.default_rng(seed + 1)
    shot = (samples["t"] // 3.0).astype(int)
    samples["mb"] = rng.uniform(-0.45, -0.2, shot.max() + 1)[shot] + rng.normal(0, 0.03,
                                                                               len(shot))
    return samples, scenes


def _window(samples, lo: float, hi: float, **changes) -> dict[str, np.ndarray]:
    out = {k: v.copy() for k, v in samples.items()}
    inside = (out["t"] >= lo) & (out["t"] < hi)
    for key, (how, by) in changes.items():
        out[key][inside] = out[key][inside] * by if how == "x" else out[key][inside] + by
    return out


def test_macroblock_kinks_with_the_grain_gone_are_a_coder_though_the_blocks_stay():
    # an MPEG-2 window over a grainy broadcast: kinks -0.3 -> 2.5, grain to a quarter, and
    # the 8-px blockiness hardly moves across its shots
    samples, scenes = _grainy()
    coded_window = _window(samples, 61.5, 88.5, mb=("+", 2.8), noise=("x", 0.25))
    found = coded.coded_stretches(samples["t"], coded.coding_measures(coded_window), 0.2,
                                  _cuts(scenes))
    assert len(found) == 1
    _, _, start, end, _ = found[0]
    assert abs(start - 61.5) <= 0.5 and abs(end - 88.5) <= 0.5
    # without the kinks measured, the same window is not a coder's
    no_kinks = {k: v for k, v in coded_window.items() if k != "mb"}
    assert coded.coded_stretches(samples["t"], coded.coding_measures(no_kinks), 0.2,
                                 _cuts(scenes)) == []


def test_kinks_rising_while_the_grain_stays_are_no_coder():
    # a blur lifting the kinks of footage whose grain hid its grid (-0.3 -> +0.2), with
    # what grain the measure still finds left
    samples, scenes = _grainy()
    blurred = _window(samples, 61.5, 88.5, mb=("+", 0.5))
    assert coded.coded_stretches(samples["t"], coded.coding_measures(blurred), 0.2,
                                 _cuts(scenes)) == []
