"""The `openai` brain inside the whole agent graph, its timeouts and retries, and the
actual key value masked in everything an endpoint sends back."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import scripted_server as ss  # noqa: E402
from openai_common import (  # noqa: E402
    SECRET,
    TOOLS,
    convo,
    image_parts,
)

from agent.brains.openai_brain import (  # noqa: E402
    BrainConfigError,
    EndpointFailed,
    EndpointUnreachable,
    OpenAIBrain,
)

# ----------------------------------------------------------------------------- end to end


E2E_SECRET = "lvq-e2e-7d41c0ffee9a2b"  # not key-shaped, so trace redaction cannot hide a leak


@pytest.fixture(scope="module")
def flicker_index(tmp_path_factory):
    """A 12 s synthetic video with a flicker needle at 4-9 s, indexed (no CLIP)."""
    synth = pytest.importorskip("bench.synth")
    from tools.index import get_index

    root = tmp_path_factory.mktemp("e2e")
    video = root / "flicker.mp4"
    synth.make_video(
        video, 12, width=320, height=180, seed=1, needles=[synth.needle("flicker", 3, 4, 9)]
    )
    return get_index(video, cache_dir=root / "cache", progress=False, clip=False)


def _last_tool_json(request: ss.Recorded) -> dict:
    """The JSON result of the last tool message the brain sent."""
    tool_msgs = [m for m in request.messages if m["role"] == "tool"]
    return json.loads(tool_msgs[-1]["content"])


def _finish_from_events(request: ss.Recorded) -> ss.Reply:
    """Answer with the flicker events that find_events reported to the model."""
    found = _last_tool_json(request)
    segments = [
        {
            "start_s": e["start_s"],
            "end_s": e["end_s"],
            "label": "flicker",
            "severity": e.get("severity", 0.5),
        }
        for e in found["events"]
    ]
    spans = ", ".join(f"{s['start_s']:.1f}-{s['end_s']:.1f} s" for s in segments)
    args = {"answer": f"Flicker occurs at {spans}.", "segments": segments, "confidence": 0.8}
    return ss.tool_call("finish", args)


def test_full_graph_with_openai_brain(flicker_index, tmp_path, monkeypatch):
    run = pytest.importorskip("agent.run")
    monkeypatch.setenv("OPENAI_API_KEY", E2E_SECRET)
    monkeypatch.delenv("LVQ_OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("LVQ_OPENAI_VISION", raising=False)
    script = [
        ss.error(400, "model does not support image input"),  # the vision probe
        ss.tool_call("overview", {}),
        ss.tool_call("find_events", {"type": "flicker"}),
        _finish_from_events,
    ]
    cache = tmp_path / "cache"
    with ss.ScriptedServer(script) as srv:
        brain = OpenAIBrain.from_env(base_url=srv.url, model="scripted-model", backoff_s=0.01)
        ans = run.answer_question(
            flicker_index.info.path,
            "When does flicker occur?",
            brain=brain,
            cache_dir=cache,
            progress=False,
            index=flicker_index,
        )
    probe, *requests = srv.chat_requests
    assert len(image_parts(probe)) == 1 and "tools" not in probe.body
    assert len(requests) == 3 and not any(image_parts(r) for r in requests)
    assert all(r.headers["authorization"] == f"Bearer {E2E_SECRET}" for r in requests)
    assert all(
        {t["function"]["name"] for t in r.body["tools"]} >= {"overview", "finish"} for r in requests
    )
    assert [m["role"] for m in requests[2].messages][-2:] == ["assistant", "tool"]
    assert "overview" in requests[1].messages[-2]["tool_calls"][0]["function"]["name"]

    out = json.loads(ans.model_dump_json())
    assert out["brain"] == "openai" and out["steps"] == 3
    assert out["answer"].startswith("Flicker occurs at")
    assert out["segments"], "find_events should report the flicker needle"
    assert any(s["start_s"] < 9 and s["end_s"] > 4 for s in out["segments"])
    assert [e["tool"] for e in out["evidence"]] == ["overview", "find_events"]

    trace_files = list((cache / "traces").glob("*.json"))
    assert [p.stem for p in trace_files] == [ans.trace_id]
    text = trace_files[0].read_text()
    assert E2E_SECRET not in text and E2E_SECRET not in out["answer"]
    trace = json.loads(text)
    assert trace["tokens"]["total_tokens"] == 3 * ss.DEFAULT_USAGE["total_tokens"]
    assert [s.get("tool") for s in trace["steps"] if s["kind"] == "tool"] == [
        "overview",
        "find_events",
        "finish",
    ]


def test_full_graph_sends_zoom_frames_to_a_vision_model(flicker_index, tmp_path, monkeypatch):
    run = pytest.importorskip("agent.run")
    monkeypatch.delenv("LVQ_OPENAI_VISION", raising=False)
    script = [
        ss.text("Red."),  # the vision probe: images accepted
        ss.tool_call("zoom_in", {"start_s": 4.0, "end_s": 6.0, "max_frames": 2}),
        ss.tool_call("finish", {"answer": "Flicker at 4-9 s.", "confidence": 0.6}),
    ]
    with ss.ScriptedServer(script) as srv:
        brain = OpenAIBrain.from_env(base_url=srv.url, model="gpt-4o-mini", backoff_s=0.01)
        ans = run.answer_question(
            flicker_index.info.path,
            "When does flicker occur?",
            brain=brain,
            cache_dir=tmp_path,
            progress=False,
            index=flicker_index,
        )
    second = srv.chat_requests[2]
    assert [m["role"] for m in second.messages][-2:] == ["tool", "user"]
    parts = image_parts(second)
    assert len(parts) == 2 and parts[0]["image_url"]["url"].startswith("data:image/jpeg;base64,")
    assert "frame_times" in second.messages[-2]["content"]
    assert ans.answer == "Flicker at 4-9 s."


def test_full_graph_survives_429_malformed_call_and_text_answer(flicker_index, tmp_path):
    run = pytest.importorskip("agent.run")
    script = [
        ss.rate_limited(retry_after=0),
        ss.tool_call("measure_window", '{"start_s": 4, "end_s": 9'),  # truncated JSON
        ss.text("Flicker is visible from 0:04 to 0:09."),
    ]
    with ss.ScriptedServer(script) as srv:
        brain = OpenAIBrain(model="scripted-model", base_url=srv.url, backoff_s=0.01,
                            vision="off")
        ans = run.answer_question(
            flicker_index.info.path,
            "When does flicker occur?",
            brain=brain,
            cache_dir=tmp_path,
            progress=False,
            index=flicker_index,
        )
    requests = srv.chat_requests
    assert len(requests) == 3  # the 429 was retried once, then two brain turns
    result = requests[2].messages[-1]
    assert result["role"] == "tool" and "error" in result["content"].lower()
    assert ans.answer == "Flicker is visible from 0:04 to 0:09."
    assert ans.steps == 2


# ----------------------------------------------------------------------------- timeouts, keys


def test_slow_endpoint_fails_within_twice_the_timeout(server, monkeypatch):
    monkeypatch.setenv("LVQ_TIMEOUT", "1")
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    server.push(*[ss.delayed(ss.text("late"), 4)] * 5)
    brain = OpenAIBrain.from_env(base_url=server.url, model="m")
    assert brain.timeout == 1.0 and brain.max_retries == 4
    start = time.monotonic()
    with pytest.raises(EndpointUnreachable) as info:
        brain.step(convo(), TOOLS, None)
    assert time.monotonic() - start < 3.5  # two 1 s attempts and one backoff of at most 1 s
    assert len(server.chat_requests) == 2
    assert str(info.value) == (f"endpoint {server.url} unreachable: no answer within 1 s "
                               "(2 attempts); set LVQ_TIMEOUT to wait longer")


def test_retries_and_timeout_from_arguments_and_environment(server, monkeypatch):
    monkeypatch.setenv("LVQ_RETRIES", "0")
    server.push(ss.error(503, "down"))
    with pytest.raises(EndpointFailed, match="after 1 attempts"):
        OpenAIBrain(model="m", base_url=server.url).step(convo(), TOOLS, None)
    assert len(server.chat_requests) == 1
    brain = OpenAIBrain(model="m", base_url=server.url, timeout=2.5, max_retries=2)
    assert (brain.timeout, brain.max_retries, brain.timeout_retries) == (2.5, 2, 1)
    monkeypatch.setenv("LVQ_TIMEOUT", "soon")
    with pytest.raises(BrainConfigError, match="LVQ_TIMEOUT 'soon' invalid"):
        OpenAIBrain(model="m", base_url=server.url)


CANARY = "canary-7f3a9"  # not key-shaped: only the actual value can be masked


def _echo_key(kind: str):
    """A reply echoing the bearer key the client sent, as text, tool arguments or an error."""
    def reply(request: ss.Recorded) -> ss.Reply:
        key = request.headers["authorization"].removeprefix("Bearer ")
        if kind == "text":
            return ss.text(f"Your key is {key}.", model=f"model-{key}")
        if kind == "args":
            return ss.tool_call("find_events", {"type": f"flicker {key}", "list": [key]})
        if kind == "bad-args":
            return ss.tool_call("find_events", f'{{"type": "{key}",,')
        return ss.error(418, f"teapot says {key}")
    return reply


@pytest.mark.parametrize("kind", ["text", "args", "bad-args", "error"])
def test_actual_key_value_is_masked_in_everything_returned(server, monkeypatch, kind):
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.delenv("LVQ_OPENAI_API_KEY", raising=False)
    server.push(_echo_key(kind))
    brain = OpenAIBrain.from_env(base_url=server.url, model="m", vision="off")
    if kind == "error":
        with pytest.raises(EndpointFailed) as info:
            brain.step(convo(), TOOLS, None)
        assert CANARY not in str(info.value) and "teapot says" in str(info.value)
        return
    msg = brain.step(convo(), TOOLS, None)
    assert server.chat_requests[0].headers["authorization"] == f"Bearer {CANARY}"
    dumped = msg.model_dump_json()
    assert CANARY not in dumped and "[redacted]" in dumped


def test_key_given_as_argument_is_masked_too(server):
    server.push(_echo_key("text"))
    brain = OpenAIBrain(model="m", base_url=server.url, api_key="passed-key-51d0e", vision="off")
    assert brain.step(convo(), TOOLS, None).content == "Your key is [redacted]."


def test_full_graph_attaches_no_zoom_frames_when_the_probe_says_no(flicker_index, tmp_path):
    run = pytest.importorskip("agent.run")
    script = [
        ss.error(400, "this model does not support image input"),  # the vision probe
        ss.tool_call("zoom_in", {"start_s": 4.0, "end_s": 6.0, "max_frames": 2}),
        ss.tool_call("finish", {"answer": "Flicker at 4-9 s.", "confidence": 0.6}),
    ]
    with ss.ScriptedServer(script) as srv:
        brain = OpenAIBrain(model="llama3.2", base_url=srv.url, backoff_s=0.01)
        ans = run.answer_question(flicker_index.info.path, "When does flicker occur?",
                                  brain=brain, cache_dir=tmp_path, progress=False,
                                  index=flicker_index)
    probe, first, second = srv.chat_requests
    assert len(image_parts(probe)) == 1 and not image_parts(first) and not image_parts(second)
    assert second.messages[-1]["role"] == "tool" and "frame_times" in second.messages[-1]["content"]
    trace = json.loads((tmp_path / "traces" / f"{ans.trace_id}.json").read_text())
    zoom = next(s for s in trace["steps"] if s.get("tool") == "zoom_in")
    assert zoom["status"] == "success" and zoom["images"] == 0
