"""The `openai` brain end to end: the real openai client against a scripted server on 127.0.0.1."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import json
import socket
import sys
import time
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

sys.path.insert(0, str(Path(__file__).parent))

import scripted_server as ss  # noqa: E402

from agent.brains.openai_brain import (  # noqa: E402
    ERROR_KEY,
    BrainConfigError,
    EndpointAuthError,
    EndpointFailed,
    EndpointUnreachable,
    InvalidResponse,
    ModelNotFound,
    OpenAIBrain,
    ToolsUnsupported,
    to_openai_messages,
)
from agent.brains.settings import vision_mode  # noqa: E402
from tools.errors import LvqError  # noqa: E402

SECRET = "sk-test-SECRET-5f1c9e2a7b"
IMG = "data:image/jpeg;base64,/9j/AAAA"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": name,
            "description": f"{name} tool",
            "parameters": {"type": "object", "properties": {"t": {"type": "number"}}},
        },
    }
    for name in ("overview", "find_events", "zoom_in", "finish")
]


@pytest.fixture
def server():
    with ss.ScriptedServer() as srv:
        yield srv


@pytest.fixture
def make_brain(server, monkeypatch):
    """A brain on the scripted server with the secret key in the environment, tiny backoff."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    for var in ("LVQ_OPENAI_API_KEY", "LVQ_OPENAI_BASE_URL", "LVQ_OPENAI_VISION"):
        monkeypatch.delenv(var, raising=False)

    def make(model: str = "scripted-model", **kw) -> OpenAIBrain:
        kw.setdefault("max_retries", 3)
        kw.setdefault("timeout", 5)
        return OpenAIBrain.from_env(
            base_url=server.url, model=model, backoff_s=0.01, max_backoff_s=0.05, **kw
        )

    return make


def convo(*extra) -> list:
    return [SystemMessage("You analyse video quality."), HumanMessage("When is flicker?"), *extra]


def zoom_exchange() -> list:
    """An assistant zoom_in call and its result carrying two frames."""
    call = AIMessage("", tool_calls=[{"name": "zoom_in", "args": {"t": 3.0}, "id": "c1"}])
    result = ToolMessage(
        content=[
            {"type": "text", "text": '{"window": [3.0, 4.0], "frames": [3.0, 3.5]}'},
            {"type": "image_url", "image_url": {"url": IMG}},
            {"type": "image_url", "image_url": {"url": IMG}},
        ],
        tool_call_id="c1",
        name="zoom_in",
    )
    return [call, result]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def image_parts(request: ss.Recorded) -> list[dict]:
    return [
        part
        for msg in request.messages
        if isinstance(msg.get("content"), list)
        for part in msg["content"]
        if part.get("type") == "image_url"
    ]


# ----------------------------------------------------------------------------- the brief's cases


def test_tool_call_is_parsed_and_request_is_openai_format(server, make_brain):
    server.push(ss.tool_call("find_events", {"t": 2.5}))
    msg = make_brain().step(convo(), TOOLS, None)
    assert isinstance(msg, AIMessage)
    assert [(c["name"], c["args"]) for c in msg.tool_calls] == [("find_events", {"t": 2.5})]
    assert msg.tool_calls[0]["id"].startswith("call_")
    sent = server.chat_requests[0].body
    assert sent["model"] == "scripted-model"
    assert [t["function"]["name"] for t in sent["tools"]] == [
        "overview",
        "find_events",
        "zoom_in",
        "finish",
    ]
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]


def test_rate_limit_then_success_is_retried(server, make_brain):
    server.push(ss.rate_limited(retry_after=0), ss.tool_call("overview", {}))
    msg = make_brain().step(convo(), TOOLS, None)
    assert msg.tool_calls[0]["name"] == "overview"
    assert len(server.chat_requests) == 2


@pytest.mark.parametrize("status", [500, 502, 503])
def test_server_errors_are_retried(server, make_brain, status):
    server.push(ss.error(status, "overloaded"), ss.text("done"))
    assert make_brain().step(convo(), TOOLS, None).content == "done"
    assert len(server.chat_requests) == 2


def test_retry_after_is_honoured(server, make_brain):
    server.push(ss.rate_limited(retry_after=0.4), ss.text("ok"))
    start = time.monotonic()
    make_brain().step(convo(), TOOLS, None)
    assert time.monotonic() - start >= 0.35


def test_persistent_5xx_gives_up_with_one_line(server, make_brain):
    server.push(*[ss.error(503, "down\nfor maintenance")] * 3)
    with pytest.raises(EndpointFailed) as info:
        make_brain(max_retries=2).step(convo(), TOOLS, None)
    assert len(server.chat_requests) == 3
    assert "503" in str(info.value) and "3 attempts" in str(info.value)
    assert "\n" not in str(info.value)


def test_timeout_then_success_is_retried(server, make_brain):
    server.push(ss.delayed(ss.text("late"), 1.5), ss.text("on time"))
    msg = make_brain(timeout=0.3).step(convo(), TOOLS, None)
    assert msg.content == "on time"
    assert len(server.chat_requests) == 2


def test_dropped_connection_is_retried(server, make_brain):
    server.push(ss.disconnect(), ss.text("back"))
    assert make_brain().step(convo(), TOOLS, None).content == "back"
    assert len(server.chat_requests) == 2


def test_malformed_arguments_become_an_error_call(server, make_brain):
    server.push(ss.tool_call("find_events", '{"t": 3.0,,'))
    brain = make_brain()
    msg = brain.step(convo(), TOOLS, None)
    (call,) = msg.tool_calls
    assert call["name"] == "find_events"
    assert set(call["args"]) == {ERROR_KEY}
    assert call["args"][ERROR_KEY].startswith("malformed arguments")
    # the error round-trips: the history with the bad call is valid OpenAI input
    error = ToolMessage('{"error": "malformed arguments"}', tool_call_id=call["id"])
    server.push(ss.text("sorry"))
    assert brain.step(convo(msg, error), TOOLS, None).content == "sorry"
    sent = server.chat_requests[1].messages
    assert json.loads(sent[2]["tool_calls"][0]["function"]["arguments"]) == call["args"]
    assert sent[3] == {"role": "tool", "tool_call_id": call["id"], "content": error.content}


def test_non_object_arguments_become_an_error_call(server, make_brain):
    server.push(ss.tool_call("overview", "[1, 2]"))
    (call,) = make_brain().step(convo(), TOOLS, None).tool_calls
    assert ERROR_KEY in call["args"]


def test_final_text_without_finish_is_plain_content(server, make_brain):
    server.push(ss.text("<think>look at 3 s</think>\nFlicker occurs from 0:03 to 0:04."))
    msg = make_brain().step(convo(), TOOLS, None)
    assert msg.content == "Flicker occurs from 0:03 to 0:04."
    assert msg.tool_calls == []


def test_images_sent_after_tool_results_when_vision_on(server, make_brain):
    server.push(ss.text("seen"))
    brain = make_brain(vision="on")
    assert brain.vision is True
    brain.step(convo(*zoom_exchange()), TOOLS, None)
    sent = server.chat_requests[0].messages
    assert [m["role"] for m in sent] == ["system", "user", "assistant", "tool", "user"]
    assert isinstance(sent[3]["content"], str) and "frames" in sent[3]["content"]
    assert sent[4]["content"][0]["type"] == "text"
    assert "zoom_in" in sent[4]["content"][0]["text"]
    expected = {"type": "image_url", "image_url": {"url": IMG}}
    assert image_parts(server.chat_requests[0]) == [expected, expected]


def test_no_images_when_vision_off(server, make_brain):
    server.push(ss.text("measured"))
    brain = make_brain(vision="off")
    assert brain.vision is False
    brain.step(convo(*zoom_exchange()), TOOLS, None)
    request = server.chat_requests[0]
    assert image_parts(request) == []
    assert [m["role"] for m in request.messages] == ["system", "user", "assistant", "tool"]
    assert "omitted" in request.messages[3]["content"]


def test_run_context_can_switch_images_off(server, make_brain):
    class Ctx:
        vision = False

    server.push(ss.text("ok"))
    make_brain(vision="on").step(convo(*zoom_exchange()), TOOLS, Ctx())
    assert image_parts(server.chat_requests[0]) == []


def test_unreachable_endpoint_fails_fast_with_one_line(monkeypatch):
    monkeypatch.delenv("LVQ_OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    url = f"http://127.0.0.1:{closed_port()}/v1"
    brain = OpenAIBrain.from_env(base_url=url, model="m", backoff_s=0.01, max_backoff_s=0.05)
    start = time.monotonic()
    with pytest.raises(EndpointUnreachable) as info:
        brain.step(convo(), TOOLS, None)
    assert time.monotonic() - start < 3
    message = str(info.value)
    assert isinstance(info.value, LvqError)
    assert message.startswith(f"endpoint {url} unreachable: connection refused")
    assert "\n" not in message and SECRET not in message


def test_key_sent_in_header_but_never_exposed(server, make_brain):
    server.push(ss.tool_call("overview", {}), ss.error(401, f"Incorrect API key: {SECRET}"))
    brain = make_brain()
    msg = brain.step(convo(), TOOLS, None)
    assert server.chat_requests[0].headers["authorization"] == f"Bearer {SECRET}"
    assert SECRET not in repr(brain) and SECRET not in str(brain)
    assert repr(brain) == f"OpenAIBrain(base_url={server.url!r}, model='scripted-model')"
    assert SECRET not in msg.model_dump_json()
    with pytest.raises(EndpointAuthError) as info:
        brain.step(convo(), TOOLS, None)
    assert str(info.value) == "endpoint rejected the API key (401)"
    assert SECRET not in repr(info.value)


def test_secret_echoed_by_server_is_scrubbed(server, make_brain):
    server.push(ss.error(400, f"bad request for key {SECRET}"))
    with pytest.raises(EndpointFailed) as info:
        make_brain().step(convo(), TOOLS, None)
    assert SECRET not in str(info.value) and "[redacted]" in str(info.value)


def test_credentials_in_base_url_are_not_shown(monkeypatch):
    monkeypatch.delenv("LVQ_OPENAI_API_KEY", raising=False)
    brain = OpenAIBrain(model="m", base_url="http://user:pw@127.0.0.1:9/v1?key=abc")
    assert "pw" not in repr(brain) and "abc" not in repr(brain)
    assert brain.endpoint == "http://127.0.0.1:9/v1"


def test_usage_metadata_from_usage(server, make_brain):
    usage = {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
    server.push(ss.tool_call("overview", {}, usage=usage))
    msg = make_brain().step(convo(), TOOLS, None)
    assert msg.usage_metadata == {"input_tokens": 120, "output_tokens": 30, "total_tokens": 150}
    assert msg.response_metadata["model_name"] == "scripted-model"


# ----------------------------------------------------------------------------- more endpoints


def test_tool_call_written_as_text_is_recovered(server, make_brain):
    server.push(
        ss.text('<tool_call>{"name": "zoom_in", "arguments": {"t": 7}}</tool_call>'),
        ss.text('```json\n{"name": "overview", "parameters": {}}\n```'),
        ss.text('{"name": "not_a_tool", "arguments": {}}'),
    )
    brain = make_brain()
    first = brain.step(convo(), TOOLS, None)
    assert [(c["name"], c["args"]) for c in first.tool_calls] == [("zoom_in", {"t": 7})]
    assert first.content == ""
    assert brain.step(convo(), TOOLS, None).tool_calls[0]["name"] == "overview"
    third = brain.step(convo(), TOOLS, None)
    assert third.tool_calls == [] and "not_a_tool" in third.content


def test_model_without_tool_support_is_named(server, make_brain):
    server.push(ss.error(400, "registry.ollama.ai/library/gemma:2b does not support tools"))
    with pytest.raises(ToolsUnsupported, match="model 'gemma:2b' cannot call tools"):
        make_brain(model="gemma:2b").step(convo(), TOOLS, None)


def test_vllm_without_auto_tool_choice_is_tools_unsupported(server, make_brain):
    msg = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
    server.push(ss.error(400, msg))
    with pytest.raises(ToolsUnsupported):
        make_brain().step(convo(), TOOLS, None)


def test_unknown_model_is_named(server, make_brain):
    server.push(ss.error(404, "The model `nope` does not exist"))
    with pytest.raises(ModelNotFound, match="model 'nope' not found"):
        make_brain(model="nope").step(convo(), TOOLS, None)


@pytest.mark.parametrize(
    "reply",
    [
        ss.garbage(),
        ss.garbage('{"foo": 1}', "application/json"),
        ss.garbage("{not json", "application/json"),
        ss.Reply(body={"id": "x", "object": "chat.completion", "choices": []}),
    ],
    ids=["html", "no-choices", "bad-json", "empty-choices"],
)
def test_garbage_is_an_invalid_response(server, make_brain, reply):
    server.push(reply)
    with pytest.raises(InvalidResponse, match="endpoint returned an invalid response"):
        make_brain().step(convo(), TOOLS, None)
    assert len(server.chat_requests) == 1


def test_auto_vision_falls_back_when_images_rejected(server, make_brain, vision_cache):
    server.push(ss.text("Red"), ss.error(400, "Image input is not supported"), ss.text("ok"))
    brain = make_brain(model="gpt-4o-mini")
    assert brain.step(convo(*zoom_exchange()), TOOLS, None).content == "ok"
    probe, first, second = server.chat_requests
    assert len(image_parts(probe)) == 1 and image_parts(first) and not image_parts(second)
    assert brain.vision is False
    verdicts = json.loads(vision_cache.read_text())
    assert verdicts[f"{server.url} gpt-4o-mini"]["accepts_images"] is False


def test_no_tools_param_when_no_tools(server, make_brain):
    server.push(ss.text("final"))
    make_brain().step(convo(), [], None)
    assert "tools" not in server.chat_requests[0].body


def test_list_models(server, make_brain):
    assert make_brain().list_models() == ["scripted-model"]
    assert server.requests[-1].method == "GET"


# ----------------------------------------------------------------------------- config


def test_from_env_settings(server, monkeypatch):
    monkeypatch.setenv("LVQ_OPENAI_BASE_URL", server.url)
    monkeypatch.setenv("LVQ_OPENAI_MODEL", "Qwen/Qwen2.5-VL-7B-Instruct")
    monkeypatch.setenv("LVQ_OPENAI_API_KEY", "sk-lvq-key")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-other-key")
    monkeypatch.setenv("LVQ_OPENAI_VISION", "on")  # the older name still works
    server.push(ss.text("hi"))
    brain = OpenAIBrain.from_env()
    assert brain.name == "openai" and brain.vision is True
    brain.step(convo(), TOOLS, None)
    assert server.chat_requests[0].headers["authorization"] == "Bearer sk-lvq-key"


def test_missing_model_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("LVQ_OPENAI_MODEL", raising=False)
    with pytest.raises(BrainConfigError, match="set --model or LVQ_OPENAI_MODEL"):
        OpenAIBrain.from_env()


def test_no_key_sends_placeholder(server, monkeypatch):
    monkeypatch.delenv("LVQ_OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server.push(ss.error(401, "need key"))
    brain = OpenAIBrain.from_env(base_url=server.url, model="m")
    with pytest.raises(EndpointAuthError, match="set LVQ_OPENAI_API_KEY"):
        brain.step(convo(), TOOLS, None)
    assert server.chat_requests[0].headers["authorization"] == "Bearer none"


@pytest.mark.parametrize(
    ("arg", "env", "expected"),
    [(None, None, "auto"), ("ON", None, "on"), (None, "off", "off"), ("auto", "on", "auto")],
)
def test_vision_modes(arg, env, expected, monkeypatch):
    if env:
        monkeypatch.setenv("LVQ_VISION", env)
    assert vision_mode(arg) == expected


def test_bad_vision_mode_lists_choices(monkeypatch):
    with pytest.raises(BrainConfigError, match="auto, on, off"):
        vision_mode("maybe")
    monkeypatch.setenv("LVQ_VISION", "sometimes")
    with pytest.raises(BrainConfigError, match="LVQ_VISION 'sometimes' invalid"):
        OpenAIBrain(model="m", base_url="http://127.0.0.1:9/v1")


def test_unanswered_tool_calls_get_a_result_and_images_wait_for_all_results():
    call = AIMessage(
        "",
        tool_calls=[
            {"name": "zoom_in", "args": {}, "id": "a"},
            {"name": "overview", "args": {}, "id": "b"},
            {"name": "finish", "args": {}, "id": "c"},
        ],
    )
    zoom = ToolMessage(
        [{"type": "text", "text": "{}"}, {"type": "image_url", "image_url": IMG}],
        tool_call_id="a",
        name="zoom_in",
    )
    over = ToolMessage("{}", tool_call_id="b")
    history = [HumanMessage("q"), call, zoom, over, HumanMessage("answer now")]
    out = to_openai_messages(history, vision=True)
    assert [(m["role"], m.get("tool_call_id")) for m in out] == [
        ("user", None),
        ("assistant", None),
        ("tool", "a"),
        ("tool", "b"),
        ("tool", "c"),
        ("user", None),
        ("user", None),
    ]
    assert out[5]["content"][1] == {"type": "image_url", "image_url": {"url": IMG}}


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
