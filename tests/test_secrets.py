"""The actual API key never leaves the brain: an endpoint that echoes a key of no known shape
back (in answers, tool arguments, errors) gets it masked in stdout, traces and bench results."""

from __future__ import annotations

import json

import pytest
import scripted_server as ss
from typer.testing import CliRunner

from agent.cli import app as agent_app
from bench.runner import RunConfig, run

CANARY = "canary-7f3a9"


def key_of(request: ss.Recorded) -> str:
    return request.headers["authorization"].removeprefix("Bearer ")


def echo(kind: str):
    """A responder putting the key the client sent into its reply."""
    def reply(request: ss.Recorded) -> ss.Reply:
        key = key_of(request)
        assert key == CANARY  # the key does reach the endpoint
        if kind == "probe":
            return ss.error(400, f"image input is not supported for key {key}")
        if kind == "tool":
            return ss.tool_call("find_events", {"type": f"flicker {key}"})
        if kind == "finish":
            return ss.tool_call("finish", {"answer": f"Flicker, says {key}.", "confidence": 0.5,
                                           "segments": [{"start_s": 1, "end_s": 2,
                                                         "label": key}]})
        if kind == "error":
            return ss.error(400, f"request refused for {key}")
        return ss.text(f"B, and your key is {key}")
    return reply


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    from bench.synth import make_video, needle

    root = tmp_path_factory.mktemp("secrets")
    make_video(root / "v.mp4", 12, width=160, height=90, seed=2, preset="ultrafast",
               needles=[needle("flicker", 3, 4, 9)])
    return root / "v.mp4"


@pytest.fixture
def canary_env(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.delenv("LVQ_OPENAI_API_KEY", raising=False)


def everything_under(root) -> str:
    return "\n".join(p.read_text(errors="replace") for p in root.rglob("*")
                     if p.is_file() and p.suffix in (".json", ".jsonl"))


def test_agent_answer_stdout_and_trace_hold_no_key(video, tmp_path, canary_env, vision_cache):
    cache = tmp_path / "cache"
    script = [echo("probe"), echo("tool"), echo("finish")]
    args = ["answer", str(video), "When does flicker occur?", "--brain", "openai", "--model",
            "m", "--cache-dir", str(cache), "--quiet"]
    with ss.ScriptedServer(script) as srv:
        res = CliRunner().invoke(agent_app, [*args, "--base-url", srv.url, "--json"])
        assert len(srv.chat_requests) == 3
    assert res.exit_code == 0, res.output
    ans = json.loads(res.stdout)
    assert ans["answer"] == "Flicker, says [redacted]."
    assert CANARY not in res.output
    traces = list((cache / "traces").glob("*.json"))
    assert len(traces) == 1 and "[redacted]" in traces[0].read_text()
    assert CANARY not in everything_under(cache) and CANARY not in vision_cache.read_text()

    with ss.ScriptedServer([echo("error")] * 2) as srv:  # the probe (no images), the turn
        res = CliRunner().invoke(agent_app, [*args, "--base-url", srv.url])
    assert res.exit_code == 4 and "request refused for" in res.output
    assert CANARY not in res.output and CANARY not in everything_under(cache)


def test_bench_results_hold_no_key(video, tmp_path, canary_env, monkeypatch):
    monkeypatch.setenv("LVQ_VISION", "on")
    items = tmp_path / "items.jsonl"
    items.write_text("".join(json.dumps({
        "id": f"q{k}", "benchmark": "t", "videos": [str(video)], "format": "mcq",
        "question": "When does flicker occur?", "options": ["0:00 - 0:04", "0:04 - 0:09"],
        "gold": "B"}) + "\n" for k in range(2)))
    out = tmp_path / "results" / "r.jsonl"
    cfg = RunConfig(track="uniform", brain="openai", model="m", frames=4, open_scoring=False,
                    max_steps=2)
    with ss.ScriptedServer([echo("text"), echo("error")]) as srv:
        run(items, out, RunConfig(**{**cfg.__dict__, "base_url": srv.url}))
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert recs[0]["response"] == "B, and your key is [redacted]" and recs[0]["error"] is None
    assert "request refused for [redacted]" in recs[1]["error"]
    assert CANARY not in out.read_text()
