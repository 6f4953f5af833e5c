"""A model whose tool calls keep failing is stopped early with a clear error and a non-zero
exit, never answered for with "no events seen"."""

from __future__ import annotations

import json

import pytest
import scripted_server as ss
from langchain_core.messages import AIMessage
from test_graph import ScriptedBrain, call, run
from typer.testing import CliRunner

from agent.brains.errors import OpenAIBrainError, ToolUseFailed
from agent.cli import app

runner = CliRunner()


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    """A 12 s video and an index cache shared by the CLI runs of this module."""
    from bench.synth import make_video

    root = tmp_path_factory.mktemp("tooluse")
    make_video(root / "v.mp4", 12, width=160, height=90, seed=3, preset="ultrafast")
    return root / "v.mp4", root / "cache"


def answer(clip, url: str, *extra: str):
    video, cache = clip
    args = ["answer", str(video), "When does flicker occur?", "--brain", "openai", "--model",
            "m", "--base-url", url, "--cache-dir", str(cache), "--quiet", *extra]
    return runner.invoke(app, args)


def test_repeated_malformed_call_stops_after_the_second_with_exit_2(clip, monkeypatch):
    monkeypatch.setenv("LVQ_VISION", "off")
    with ss.ScriptedServer([ss.tool_call("find_events", '{"type": "flicker",,')] * 12) as srv:
        res = answer(clip, srv.url)
    assert res.exit_code == 4, res.output  # the endpoint's model failed, not the caller
    assert len(srv.chat_requests) == 2  # the same failing call twice, then no third turn
    out = " ".join(res.output.split())
    assert "the model could not use the tools: it repeated a failing call" in out
    assert "find_events: malformed arguments" in out
    assert "No quality events" not in out
    trace = json.loads(max((clip[1] / "traces").glob("*.json")).read_text())
    assert trace["answer"]["error"].startswith("ToolUseFailed: the model could not use")
    assert any(s.get("text", "").startswith("stopped:") for s in trace["steps"])


def test_unknown_tools_under_new_names_stop_after_four_turns(clip, monkeypatch):
    monkeypatch.setenv("LVQ_VISION", "off")
    script = [ss.tool_call(f"measure_{k}", {}) for k in range(12)]
    with ss.ScriptedServer(script) as srv:
        res = answer(clip, srv.url)
    assert res.exit_code == 4, res.output  # the endpoint's model failed, not the caller
    assert len(srv.chat_requests) == 4
    out = " ".join(res.output.split())
    assert "4 turns in a row with only failing calls" in out
    assert "measure_3: measure_3 is not a valid tool" in out


def test_budget_spent_on_failing_calls_is_an_error_not_an_answer():
    brain = ScriptedBrain([call("nope_a", {}, "c1"), call("find_events", {"start_s": "x"}, "c2")])
    with pytest.raises(ToolUseFailed, match="none of its 2 tool calls succeeded") as info:
        run(brain, max_steps=3)  # the third turn's call is not run: the budget is spent
    assert isinstance(info.value, OpenAIBrainError)


def test_a_failure_followed_by_working_calls_is_fine():
    brain = ScriptedBrain([
        call("find_events", {"start_s": "x"}, "c1"),
        call("find_events", {"type": "blur"}, "c2"),
        call("find_events", {"start_s": "x"}, "c3"),  # the same failure again, but not stuck:
        AIMessage("Blur at 60-75 s."),  # ...it is counted, and this is the second
    ])
    with pytest.raises(ToolUseFailed, match="repeated a failing call"):
        run(brain, max_steps=8)
    ok = ScriptedBrain([call("find_events", {"start_s": "x"}, "c1"),
                        call("find_events", {"type": "blur"}, "c2"),
                        AIMessage("Blur at 60-75 s.")])
    out, _ = run(ok, max_steps=8)
    assert out["answer"]["answer"] == "Blur at 60-75 s."
