"""The uniform track asks whether the model accepts images: a text-only model is refused in
one line (or given the frames' numbers when asked), a vision model gets exactly the frames its
records say."""

from __future__ import annotations

import base64
import json
import re

import cv2
import numpy as np
import pytest
import scripted_server as ss
from typer.testing import CliRunner

from agent.brains.errors import VisionRequired
from bench.cli import app
from bench.runner import RunConfig, run

OPTIONS = ["0:00 - 0:05", "0:05 - 0:10", "0:10 - 0:15"]


@pytest.fixture(scope="module")
def items(tmp_path_factory):
    """Two MCQ items about one 16 s video."""
    from bench.synth import make_video

    root = tmp_path_factory.mktemp("uniform")
    make_video(root / "v.mp4", 16, width=320, height=180, seed=4, preset="ultrafast")
    rows = [{"id": f"q{k}", "benchmark": "t", "videos": ["v.mp4"], "format": "mcq",
             "question": f"When does the blur occur? ({k})", "options": OPTIONS, "gold": "B"}
            for k in range(2)]
    path = root / "items.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def image_parts(request: ss.Recorded) -> list[str]:
    return [p["image_url"]["url"] for m in request.messages if isinstance(m["content"], list)
            for p in m["content"] if p.get("type") == "image_url"]


def text_only(request: ss.Recorded) -> ss.Reply:
    """A text model's server: any image content is a 400."""
    if image_parts(request):
        return ss.error(400, "image input is not supported by this model")
    return ss.text("B")


def config(url: str, model: str, **kw) -> RunConfig:
    return RunConfig(track="uniform", brain="openai", model=model, base_url=url, frames=6,
                     open_scoring=False, **kw)


def lines(path):
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_text_only_model_is_refused_in_one_line(items, tmp_path, monkeypatch, vision_cache):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real-000000")
    out = tmp_path / "r.jsonl"
    with ss.ScriptedServer([text_only] * 4) as srv:
        with pytest.raises(VisionRequired) as info:
            run(items, out, config(srv.url, "llama3.2"))
        assert str(info.value) == (
            f"model llama3.2 at {srv.url} does not accept images; the uniform track needs a "
            "vision model (pass --uniform-numbers, or set LVQ_UNIFORM_NUMBERS=1, for the "
            "measured-numbers variant)")
        assert len(srv.chat_requests) == 1 and len(image_parts(srv.chat_requests[0])) == 1
        assert not out.exists() or not lines(out)
        verdict = json.loads(vision_cache.read_text())[f"{srv.url} llama3.2"]
        assert verdict["accepts_images"] is False
        res = CliRunner().invoke(app, ["run", "--items", str(items), "--track", "uniform",
                                       "--brain", "openai", "--model", "llama3.2", "--base-url",
                                       srv.url, "--out", str(out), "--no-open-score"])
        assert len(srv.chat_requests) == 1  # the verdict was remembered: no second probe
    assert res.exit_code == 2
    assert "does not accept images; the uniform track needs a vision model" in res.output


def test_vision_model_gets_exactly_the_frames_its_records_say(items, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real-000000")
    out = tmp_path / "r.jsonl"
    with ss.ScriptedServer([ss.text("Red")] + [ss.text("B")] * 2) as srv:
        summary = run(items, out, config(srv.url, "gemma3:12b"))
        probe, *asked = srv.chat_requests
    recs = lines(out)
    assert [r["error"] for r in recs] == [None, None] and len(asked) == 2
    assert len(image_parts(probe)) == 1
    for rec, req in zip(recs, asked, strict=True):
        assert rec["prediction"] == "B" and rec["sent"]["mode"] == "images"
        urls = image_parts(req)
        assert len(urls) == rec["sent"]["frames"] == len(rec["frames"]) == 6
        for url in urls:
            jpeg = base64.b64decode(url.split(",", 1)[1])
            img = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
            assert [img.shape[1], img.shape[0]] == rec["sent"]["size"] == [320, 180]
        assert "You are given 6 frames" in req.messages[0]["content"][0]["text"]
    assert summary["sent"] == {"mode": "images", "frames": 6, "size": [320, 180]}


def test_numbers_variant_only_when_asked(items, tmp_path, monkeypatch):
    monkeypatch.setenv("LVQ_UNIFORM_NUMBERS", "1")
    out = tmp_path / "r.jsonl"
    with ss.ScriptedServer([text_only] * 2) as srv:
        run(items, out, config(srv.url, "qwen2.5-7b-instruct"))
        requests = srv.chat_requests
    recs = lines(out)
    assert len(requests) == 2 and not any(image_parts(r) for r in requests)  # no probe either
    for rec, req in zip(recs, requests, strict=True):
        assert rec["error"] is None
        assert rec["sent"] == {"mode": "numbers", "frames": 6, "size": [320, 180]}
        prompt = req.messages[0]["content"]
        assert "You are not shown the frames" in prompt and "given 6 frames" not in prompt
        table = prompt.split("time_s ", 1)[1].split("\n\n", 1)[0].splitlines()
        assert len(table) == 1 + 6 and re.match(r"[\d.]+ [\d.e+-]+", table[1])
    monkeypatch.delenv("LVQ_UNIFORM_NUMBERS")
    with pytest.raises(ValueError, match="made from numbers, not images"):
        run(items, out, config("http://127.0.0.1:9/v1", "qwen2.5-7b-instruct"))


def test_run_flags_uniform_numbers_and_timeout(items, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real-000000")
    for var in ("LVQ_UNIFORM_NUMBERS", "LVQ_TIMEOUT"):  # restored after the test
        monkeypatch.setenv(var, "")
    out = tmp_path / "r.jsonl"
    with ss.ScriptedServer([text_only] * 2) as srv:
        res = CliRunner().invoke(app, [
            "run", "--items", str(items), "--track", "uniform", "--brain", "openai", "--model",
            "qwen2.5-7b-instruct", "--base-url", srv.url, "--out", str(out), "--frames", "6",
            "--no-open-score", "--uniform-numbers", "--timeout", "7.5", "--quiet"])
        requests = srv.chat_requests
    assert res.exit_code == 0, res.output
    assert len(requests) == 2 and not any(image_parts(r) for r in requests)
    assert [r["sent"]["mode"] for r in lines(out)] == ["numbers", "numbers"]
    prov = json.loads((tmp_path / "r.summary.json").read_text())["provenance"]
    assert prov["sends"] == "numbers" and prov["timeout_s"] == 7.5
    assert prov["base_url_host"] == srv.url.split("//")[1].split("/")[0]
    bad = CliRunner().invoke(app, ["run", "--items", str(items), "--track", "uniform",
                                   "--timeout", "0", "--out", str(tmp_path / "x.jsonl")])
    assert bad.exit_code != 0 and bad.output.count("error:") == 1 and "timeout" in bad.output
