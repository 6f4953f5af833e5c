"""`agent answer` and `agent trace` end to end on a small real video."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agent.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    from bench.synth import make_video, needle

    path = tmp_path_factory.mktemp("video") / "flicker.mp4"
    make_video(path, 20, width=320, height=180, seed=1, needles=[needle("flicker", 3, 8, 13)])
    return path


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


def test_answer_json_and_traces(video, cache, tmp_path):
    res = invoke("answer", video, "When does flicker occur?", "--json", "--cache-dir", cache,
                 "--quiet")
    assert res.exit_code == 0, res.output
    ans = json.loads(res.stdout)
    assert set(ans) == {"answer", "choice", "segments", "confidence", "evidence", "trace_id",
                        "brain", "steps", "elapsed_s"}
    assert ans["brain"] == "local" and ans["choice"] is None and ans["steps"] >= 2
    assert ans["segments"], ans["answer"]
    seg = ans["segments"][0]
    assert set(seg) == {"start_s", "end_s", "label", "severity"}
    inter = max(0.0, min(seg["end_s"], 13) - max(seg["start_s"], 8))
    assert inter / (max(seg["end_s"], 13) - min(seg["start_s"], 8)) >= 0.5
    assert (cache / "traces" / f"{ans['trace_id']}.json").is_file()

    res = invoke("answer", video, "Is there flicker in the first half?", "--option", "Yes",
                 "--option", "No", "--cache-dir", cache, "--quiet")
    assert res.exit_code == 0, res.output
    assert "Choice: A. Yes" in res.stdout and "00:00:0" in res.stdout

    listed = invoke("trace", "list", "--cache-dir", cache, "--json")
    assert listed.exit_code == 0
    assert ans["trace_id"] in {r["trace_id"] for r in json.loads(listed.stdout)}
    shown = invoke("trace", "show", ans["trace_id"], "--cache-dir", cache)
    assert shown.exit_code == 0 and "find_events" in shown.stdout
    raw = invoke("trace", "show", ans["trace_id"], "--json", "--cache-dir", cache)
    assert json.loads(raw.stdout)["trace_id"] == ans["trace_id"]
    png = tmp_path / "trace.png"
    plotted = invoke("trace", "plot", ans["trace_id"], "-o", png, "--cache-dir", cache)
    assert plotted.exit_code == 0, plotted.output
    assert png.stat().st_size > 20_000


def test_missing_video_fails_in_one_line(cache):
    res = invoke("answer", "/no/such/video.mp4", "When?", "--cache-dir", cache)
    assert res.exit_code != 0
    assert "Traceback" not in res.output
    assert res.output.strip().count("\n") == 0 and "no such file" in res.output


def test_unknown_brain_and_trace_fail_cleanly(video, cache):
    res = invoke("answer", video, "When?", "--brain", "psychic", "--cache-dir", cache, "-q")
    assert res.exit_code != 0 and "valid brains: local, openai" in res.output
    assert "Traceback" not in res.output
    res = invoke("trace", "show", "does-not-exist", "--cache-dir", cache)
    assert res.exit_code != 0 and "Traceback" not in res.output


def test_index_command_still_works(video, cache):
    res = invoke("index", video, "--json", "--cache-dir", cache, "--quiet")
    assert res.exit_code == 0 and json.loads(res.stdout)["video"]["n_frames"] == 500


def test_zoom_in_decodes_the_window_and_sends_images_to_vision(video, cache):
    from agent.context import RunContext
    from agent.toolbox import Toolbox
    from tools.index import get_index

    idx = get_index(video, cache_dir=cache, progress=False)
    box = Toolbox(idx, RunContext(video=str(video), duration_s=idx.info.duration_s, vision=True))
    blocks = box.call("zoom_in", start_s=9, end_s=11, max_frames=3)
    assert isinstance(blocks, list) and blocks[0]["type"] == "text"
    data = json.loads(blocks[0]["text"])
    assert 45 <= data["frames_decoded"] <= 55 and data["fps"] == pytest.approx(25, abs=0.5)
    assert data["temporal"]["luma_swing_max"] > 20  # the flicker needle is there
    images = [b for b in blocks[1:] if b["type"] == "image_url"]
    assert len(images) == 3 and images[0]["image_url"]["url"].startswith("data:image/jpeg;base64,")
    box.ctx.vision = False
    quiet = json.loads(box.call("zoom_in", start_s=0, end_s=60, crop=[0, 0, 0.5, 0.5]))
    assert quiet["window"][1] - quiet["window"][0] <= 20.5  # long windows are cut
    assert quiet["crop"] == [0.0, 0.0, 0.5, 0.5] and len(quiet["frame_times"]) == 6


def test_answer_timeout_flag_reaches_the_openai_brain(video, cache, monkeypatch):
    monkeypatch.setenv("LVQ_TIMEOUT", "30")  # the flag wins over the environment
    res = invoke("answer", video, "When?", "--brain", "openai", "--model", "m",
                 "--base-url", "http://127.0.0.1:9/v1", "--timeout", "-3", "--cache-dir", cache,
                 "-q")
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "timeout -3" in res.output and "positive number of seconds" in res.output
