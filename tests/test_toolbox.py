"""Toolbox: schemas from signatures, argument validation and clamping, compact results."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agent.context import RunContext
from agent.toolbox import TOOL_NAMES, ToolArgError, Toolbox, resolve_type
from tools.index import VideoIndex
from tools.model import Event, Scene, VideoInfo


def make_index(duration: float = 200.0, events: list[Event] | None = None,
               fps: float = 25.0) -> VideoIndex:
    """A VideoIndex from synthetic arrays: flat signals, sharpness and detail dip under blur."""
    n = int(duration * fps)
    t = np.arange(n) / fps
    frames = {"t": t, "luma": np.full(n, 100.0), "contrast": np.full(n, 40.0),
              "diff": np.full(n, 2.0), "motion_x": np.zeros(n), "motion_y": np.zeros(n)}
    ts = np.arange(0, duration, 0.5)
    m = len(ts)
    samples = {"t": ts, "frame": (ts * fps).astype(int), "sharpness": np.full(m, 300.0),
               "noise": np.full(m, 2.0), "impulse": np.zeros(m), "blockiness": np.ones(m),
               "grid": np.ones(m), "halo": np.full(m, 5.0), "detail": np.full(m, 0.3),
               "black": np.full(m, 10.0),
               "white": np.full(m, 240.0), "contrast_range": np.full(m, 230.0),
               "saturation": np.full(m, 80.0), "hue_x": np.full(m, 0.1),
               "hue_y": np.full(m, 0.05)}
    events = events or []
    for e in events:
        if e.type == "blur":
            samples["sharpness"][(ts >= e.start_s) & (ts < e.end_s)] = 30.0
            samples["detail"][(ts >= e.start_s) & (ts < e.end_s)] = 0.1
        if e.type == "flicker":
            sel = (t >= e.start_s) & (t < e.end_s)
            frames["luma"][sel] = 100 + 40 * (np.arange(sel.sum()) % 2)
            frames["diff"][sel] = 40.0
    info = VideoInfo("/nonexistent/video.mp4", duration, fps, n, 640, 360, "h264", False)
    mid = duration / 2
    scenes = [Scene(0.0, mid, 0, int(mid * fps) - 1), Scene(mid, duration, int(mid * fps), n - 1)]
    return VideoIndex(info, frames, samples, scenes, sorted(events, key=lambda e: e.start_s))


BLUR = Event("blur", 60.0, 75.0, 0.6, 8.0, "softness", {"signal": "sharpness"})
FLICKER = Event("flicker", 140.0, 150.0, 0.8, 20.0, "brightness oscillation", {"luma_swing": 40})


@pytest.fixture
def box() -> Toolbox:
    idx = make_index(events=[BLUR, FLICKER])
    return Toolbox(idx, RunContext(video=idx.info.path, duration_s=200.0,
                                   options=["first", "second"]))


def test_schemas_come_from_signatures(box):
    schemas = {s["function"]["name"]: s["function"] for s in box.openai_schemas()}
    assert list(schemas) == list(TOOL_NAMES)
    fe = schemas["find_events"]["parameters"]
    assert set(fe["properties"]) == {"type", "start_s", "end_s", "min_severity"}
    assert "required" not in fe or fe["required"] == []
    assert "seconds" in fe["properties"]["start_s"]["description"]
    mw = schemas["measure_window"]["parameters"]
    assert mw["required"] == ["start_s", "end_s"]
    fin = schemas["finish"]["parameters"]
    seg = fin["properties"]["segments"]["anyOf"][0]["items"]
    assert set(seg["properties"]) == {"start_s", "end_s", "label", "severity"}
    assert "$ref" not in json.dumps(schemas) and "$defs" not in json.dumps(schemas)
    for s in schemas.values():
        assert s["description"]


def test_find_events_resolves_synonyms_and_clamps(box):
    out = json.loads(box.call("find_events", type="blurry", start_s=-50, end_s=1e6))
    assert out["window"] == [0.0, 200.0]
    assert out["type"] == "blur" and out["count"] == 1
    assert out["events"][0]["start_s"] == 60.0
    out = json.loads(box.call("find_events", type="strobing", start_s=0, end_s=100))
    assert out["type"] == "flicker" and out["count"] == 0
    assert out["summary"].startswith("no flicker")
    swapped = json.loads(box.call("find_events", start_s=150, end_s=50))
    assert swapped["window"] == [50.0, 150.0] and swapped["count"] == 2


def test_bad_arguments_raise_clear_errors(box):
    with pytest.raises(ToolArgError, match="valid types"):
        box.call("find_events", type="purple elephants")
    with pytest.raises(ToolArgError, match="2 to 12"):
        box.call("compare_windows", windows=[[0, 10]])
    with pytest.raises(ToolArgError, match=r"\[start_s, end_s\]"):
        box.call("compare_windows", windows=[[0, 10, 20], [30, 40]])
    with pytest.raises(ToolArgError, match="valid: A, B"):
        box.call("finish", answer="x", choice="C")
    with pytest.raises(ToolArgError, match="unavailable"):
        box.call("search_frames", query="a red car")
    with pytest.raises(ToolArgError, match="crop"):
        box.call("zoom_in", start_s=0, end_s=1, crop=[0.5, 0.5, 0.5, 0.5])


def test_measure_and_compare(box):
    m = json.loads(box.call("measure_window", start_s=55, end_s=80))
    assert m["window"] == [55.0, 80.0]
    assert m["worst_severity"] == 0.6 and m["quality"] < 100
    assert m["type_scores"]["blur"] > 1.0  # sharpness fell tenfold
    assert m["signals"]["sharpness"]["window"] < m["signals"]["sharpness"]["video"]
    c = json.loads(box.call("compare_windows", windows=[[0, 50], [50, 100], [130, 160]]))
    assert c["worst_first"][0] == 2  # the flicker (0.8) beats the blur (0.6)
    assert c["windows"][0]["quality"] == 100.0
    only_blur = json.loads(box.call("compare_windows", windows=[[0, 50], [50, 100],
                                                                [130, 160]], type="blur"))
    assert only_blur["worst_first"][0] == 1


def test_finish_validates_and_clamps(box):
    out = json.loads(box.call("finish", answer=" ok ", choice="b.", confidence=3,
                              segments=[{"start_s": 190, "end_s": 260, "label": "x"}]))
    assert out["choice"] == "B" and out["confidence"] == 1.0 and out["answer"] == "ok"
    assert out["segments"] == [{"start_s": 190.0, "end_s": 200.0, "label": "x",
                                "severity": 0.0}]


def test_overview_is_compact_json(box):
    text = box.call("overview")
    assert ": " not in text.split('"summary"')[0]  # compact separators
    out = json.loads(text)
    assert out["events_total"] == 2 and len(out["timeline"]) == 10
    assert out["by_type"]["blur"]["count"] == 1
    assert out["scenes"]["cuts_s"] == [100.0]


def test_resolve_type():
    assert resolve_type(None) == (None, "")
    assert resolve_type("any") == (None, "")
    assert resolve_type("frame_drop") == ("frame_drop", "")
    assert resolve_type("washed out") == ("exposure", "too bright")
