"""What the openai-brain tests share: the scripted server and a brain on it, the tool
list, a short conversation, and helpers that read the recorded requests."""

import os

os.environ.setdefault("HF_HUB_OFFLINE", "1")

import socket
import sys
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

sys.path.insert(0, str(Path(__file__).parent))

import scripted_server as ss  # noqa: E402

from agent.brains.openai_brain import OpenAIBrain  # noqa: E402

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
