"""Streamed steps, resumable threads, retries and log level of `agent answer`: the real graph,
the real openai client against a scripted server on 127.0.0.1, the real SQLite checkpointer."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))

import scripted_server as ss  # noqa: E402

from agent.cli import app  # noqa: E402
from agent.threads import THREADS_FILE  # noqa: E402

KEY = "lvq-thread-key-9c3e1f0b77"  # not key-shaped: a leak would not be masked by shape
runner = CliRunner()


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    """A 12 s video with flicker at 4-9 s, indexed into its own cache (no CLIP)."""
    from bench.synth import make_video, needle
    from tools.index import get_index

    root = tmp_path_factory.mktemp("threads")
    video = root / "flicker.mp4"
    make_video(video, 12, width=320, height=180, seed=1, needles=[needle("flicker", 3, 4, 9)],
               preset="ultrafast")
    get_index(video, cache_dir=root / "cache", progress=False, clip=False)
    return video, root / "cache"


@pytest.fixture()
def model_env(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.delenv("LVQ_OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("LVQ_VISION", "off")


def answer(video, cache, *args):
    return runner.invoke(app, ["answer", str(video), "When does flicker occur?", "--cache-dir",
                               str(cache), *[str(a) for a in args]])


def model_args(srv, *extra):
    return ["--brain", "openai", "--model", "scripted-model", "--base-url", srv.url, *extra]


def finish_reply(request: ss.Recorded) -> ss.Reply:
    """finish with the flicker events the model was shown by find_events."""
    results = [json.loads(m["content"]) for m in request.messages if m["role"] == "tool"]
    found = next(r for r in results if "events" in r and r.get("summary", "").count("flicker"))
    segs = [{"start_s": e["start_s"], "end_s": e["end_s"], "label": "flicker",
             "severity": e.get("severity", 0.5)} for e in found["events"]]
    return ss.tool_call("finish", {"answer": "Flicker at the marked spans.", "segments": segs,
                                   "confidence": 0.7})


def test_steps_stream_on_stderr_and_json_stays_clean(indexed):
    video, cache = indexed
    res = answer(video, cache, "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)  # stdout holds exactly the answer
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("step ")]
    assert len(lines) == out["steps"] >= 2
    assert lines[0].split()[:3] == ["step", "1", "overview"]
    assert "find_events" in lines[1] and 'type="flicker"' in lines[1]
    assert lines[-1].split()[2] == "finish" and " ms" in lines[0]
    quiet = answer(video, cache, "--json", "--quiet")
    assert quiet.exit_code == 0 and "step " not in quiet.stderr
    assert json.loads(quiet.stdout)["answer"] == out["answer"]


def test_updates_arrive_while_the_model_is_still_working(indexed, model_env):
    """Each tool line is handed over before the next model request is made."""
    from agent.brains.openai_brain import OpenAIBrain
    from agent.run import answer_question
    from agent.steps import StepPrinter

    video, cache = indexed
    script = [ss.tool_call("overview", {}), ss.tool_call("find_events", {"type": "flicker"}),
              finish_reply]
    seen: list[tuple[str, int]] = []
    with ss.ScriptedServer(script) as srv:
        printer = StepPrinter(lambda line: seen.append((line, len(srv.chat_requests))))
        brain = OpenAIBrain.from_env(base_url=srv.url, model="scripted-model", backoff_s=0.01)
        ans = answer_question(video, "When does flicker occur?", brain=brain, cache_dir=cache,
                              progress=False, on_update=printer)
    assert [line.split()[2] for line, _ in seen] == ["overview", "find_events", "finish"]
    assert [n for _, n in seen] == [1, 2, 3]  # printed before the model was asked again
    assert ans.steps == 3 and ans.segments


def test_failed_run_resumes_from_its_last_checkpoint(indexed, model_env, tmp_path):
    video, cache0 = indexed
    cache = tmp_path / "cache"
    cache.mkdir()
    for entry in cache0.iterdir():  # the same index, a fresh thread database
        (cache / entry.name).symlink_to(entry)
    first = [ss.tool_call("overview", {}), ss.tool_call("find_events", {"type": "flicker"}),
             ss.tool_call("measure_window", {"start_s": 3, "end_s": 10}),
             ss.error(503, "upstream overloaded (scripted)")]
    with ss.ScriptedServer(first) as srv:
        res = answer(video, cache, *model_args(srv, "--thread", "run-1", "--retries", "0",
                                               "--json"))
        assert len(srv.chat_requests) == 4  # --retries 0: the 503 was not retried
    assert res.exit_code == 4, res.output
    assert res.stdout == ""
    assert "resume with the same command (--thread run-1)" in res.stderr
    assert [ln.split()[2] for ln in res.stderr.splitlines() if ln.startswith("step ")] == [
        "overview", "find_events", "measure_window"]

    with ss.ScriptedServer([finish_reply]) as srv:
        again = answer(video, cache, *model_args(srv, "--thread", "run-1", "--json"))
        sent = srv.chat_requests
    assert again.exit_code == 0, again.output
    assert len(sent) == 1, "resumed at step 4, not at step 0"
    called = [c["function"]["name"] for m in sent[0].messages if m["role"] == "assistant"
              for c in m.get("tool_calls") or []]
    assert called == ["overview", "find_events", "measure_window"]
    assert sum(m["role"] == "tool" for m in sent[0].messages) == 3
    offered = {t["function"]["name"] for t in sent[0].body["tools"]}
    assert "search_frames" not in offered and "finish" in offered  # no CLIP index here
    ans = json.loads(again.stdout)
    assert ans["steps"] == 4 and ans["segments"]
    assert [e["tool"] for e in ans["evidence"]] == ["overview", "find_events", "measure_window"]
    lines = [ln for ln in again.stderr.splitlines() if ln.startswith("step ")]
    assert len(lines) == 1 and lines[0].split()[:3] == ["step", "4", "finish"]

    trace = json.loads((cache / "traces" / f"{ans['trace_id']}.json").read_text())
    assert [s["tool"] for s in trace["steps"] if s["kind"] == "tool"] == [
        "overview", "find_events", "measure_window", "finish"]  # the whole run, both halves
    assert any("resumed after step 3" in s.get("text", "") for s in trace["steps"])

    db = cache / THREADS_FILE
    assert KEY.encode() not in db.read_bytes()
    with sqlite3.connect(db) as conn:
        threads = {r[0] for r in conn.execute("select distinct thread_id from checkpoints")}
    assert len(threads) == 1 and next(iter(threads)).endswith(":run-1")

    other = runner.invoke(app, ["answer", str(video), "Is it blurry?", "--cache-dir", str(cache),
                                "--thread", "run-1", "--json"])
    assert other.exit_code == 2 and "holds another question" in other.stderr
    assert other.stdout == ""


def test_retries_and_log_level_from_the_environment(indexed, model_env, monkeypatch):
    video, cache = indexed
    monkeypatch.setenv("LVQ_RETRIES", "1")
    monkeypatch.setenv("LVQ_LOG_LEVEL", "info")
    script = [ss.error(500, f"scripted failure for {KEY}"), ss.tool_call("overview", {}),
              ss.tool_call("find_events", {"type": "flicker"}), finish_reply]
    with ss.ScriptedServer(script) as srv:
        res = answer(video, cache, *model_args(srv, "--json", "-q"))
        assert len(srv.chat_requests) == 4  # one retry of the 500
    assert res.exit_code == 0, res.output
    assert "retry 1/1" in res.stderr and "INFO agent.brains.openai_brain" in res.stderr
    assert KEY not in res.stderr and KEY not in res.stdout
    monkeypatch.setenv("LVQ_LOG_LEVEL", "chatty")
    bad = answer(video, cache, "--json")
    assert bad.exit_code == 2 and "LVQ_LOG_LEVEL='chatty' invalid" in bad.stderr


def test_bad_thread_name_is_a_usage_error(indexed):
    video, cache = indexed
    res = answer(video, cache, "--thread", " ")
    assert res.exit_code == 2 and "--thread" in res.stderr and "Traceback" not in res.output


def test_verbose_flag_sets_the_level_over_the_environment(monkeypatch):
    import logging

    from agent.logs import log_level

    monkeypatch.setenv("LVQ_LOG_LEVEL", "error")
    assert log_level(0) == logging.ERROR
    assert (log_level(1), log_level(2)) == (logging.INFO, logging.DEBUG)
    monkeypatch.delenv("LVQ_LOG_LEVEL")
    assert log_level(0) == logging.WARNING
