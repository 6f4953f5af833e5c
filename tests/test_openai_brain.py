"""The `openai` brain end to end: the real openai client against a scripted server on 127.0.0.1."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import json
import sys
import time
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

sys.path.insert(0, str(Path(__file__).parent))

import scripted_server as ss  # noqa: E402
from openai_common import (  # noqa: E402
    IMG,
    SECRET,
    TOOLS,
    closed_port,
    convo,
    image_parts,
    zoom_exchange,
)

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
