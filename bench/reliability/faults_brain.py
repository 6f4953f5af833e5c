"""Endpoint faults, each played by the tests' scripted OpenAI-compatible server: what the brain
does with a dead endpoint, rate limits, errors, slowness, garbage and odd replies."""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path

from langchain_core.messages import HumanMessage, SystemMessage

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
import scripted_server as ss  # noqa: E402

from agent.brains.openai_brain import ERROR_KEY, OpenAIBrain  # noqa: E402
from tools.errors import LvqError, exit_code_of  # noqa: E402

TOOLS = [{"type": "function", "function": {"name": n, "description": n, "parameters": {
    "type": "object", "properties": {"t": {"type": "number"}}}}} for n in ("overview", "finish")]
Row = tuple[str, str, str, bool]


def _convo() -> list:
    return [SystemMessage("You analyse video quality."), HumanMessage("When is flicker?")]


def _step(replies: list, **kw) -> tuple[object, int, float]:
    """One brain step against a server scripted with `replies`: (message or error, requests, s)."""
    kw.setdefault("max_retries", 2)
    kw.setdefault("timeout", 5)
    with ss.ScriptedServer(replies) as srv:
        brain = OpenAIBrain(model="m", base_url=srv.url, backoff_s=0.01, max_backoff_s=0.05,
                            vision="off", **kw)
        t0 = time.monotonic()
        try:
            out: object = brain.step(_convo(), TOOLS, None)
        except Exception as exc:  # noqa: BLE001 - the row reports it
            out = exc
        return out, len(srv.chat_requests), time.monotonic() - t0


def _err(out: object) -> str:
    """An error as the command line shows it: its exit code and whether it is one line."""
    if not isinstance(out, BaseException):
        return f"no error: {getattr(out, 'content', out)!r}"
    kind = "clean" if isinstance(out, LvqError) else "UNEXPECTED"
    lines = str(out).count("\n") + 1
    return f"{kind} {type(out).__name__} exit {exit_code_of(out)}, {lines} line: {str(out)[:60]}"


def endpoint_down() -> Row:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    brain = OpenAIBrain(model="m", base_url=f"http://127.0.0.1:{port}/v1", backoff_s=0.01,
                        max_backoff_s=0.05, vision="off")
    t0 = time.monotonic()
    try:
        brain.step(_convo(), TOOLS, None)
        out: object = "answered"
    except Exception as exc:  # noqa: BLE001
        out = exc
    s = time.monotonic() - t0
    ok = isinstance(out, LvqError) and exit_code_of(out) == 4 and "\n" not in str(out) and s < 3
    return "endpoint down", "one line, exit 4, < 3 s", f"{_err(out)} ({s:.1f} s)", ok


def rate_limited(retry_after: float | None) -> Row:
    out, n, s = _step([ss.rate_limited(retry_after=retry_after), ss.text("ok")])
    got = getattr(out, "content", None)
    floor = retry_after or 0.0
    ok = got == "ok" and n == 2 and s >= 0.9 * floor
    name = f"429 with Retry-After {retry_after} s" if retry_after else "429 without Retry-After"
    return name, f"retried, answer after >= {floor} s", f"{n} requests, {got!r}, {s:.2f} s", ok


def error_then_success() -> Row:
    out, n, _ = _step([ss.error(500, "boom"), ss.text("fine")])
    got = getattr(out, "content", None)
    return "500 then success", "retried once, answer", f"{n} requests, {got!r}", got == "fine"


def slower_than_timeout() -> Row:
    out, n, s = _step([ss.delayed(ss.text("late"), 3.0)] * 3, timeout=0.5, max_retries=1)
    ok = isinstance(out, LvqError) and exit_code_of(out) == 4 and s < 2.5
    return ("slower than the timeout (0.5 s)", "one line, exit 4, < 2.5 s",
            f"{_err(out)} ({n} req, {s:.1f} s)", ok)


def non_json() -> Row:
    out, n, _ = _step([ss.garbage()] * 3)
    ok = isinstance(out, LvqError) and exit_code_of(out) == 4 and "\n" not in str(out)
    return "200 with non-JSON body", "one line, exit 4", _err(out), ok


def malformed_args() -> Row:
    out, _, _ = _step([ss.tool_call("overview", '{"t": 3.0,,')])
    calls = getattr(out, "tool_calls", [])
    ok = len(calls) == 1 and ERROR_KEY in calls[0]["args"]
    seen = f"call {calls[0]['name']} with {list(calls[0]['args'])}" if calls else _err(out)
    return "malformed tool arguments", "a call carrying the error", seen, ok


def plain_text() -> Row:
    out, _, _ = _step([ss.text("Flicker at 0:03.")])
    got = (getattr(out, "content", None), getattr(out, "tool_calls", None))
    return ("plain text, no tool call", "text answer, no calls", f"{got}",
            got == ("Flicker at 0:03.", []))


def empty_choices() -> Row:
    body = {"id": "x", "object": "chat.completion", "created": 0, "model": "m", "choices": []}
    out, _, _ = _step([ss.Reply(body=body)] * 3)
    ok = isinstance(out, LvqError) and exit_code_of(out) == 4 and "choices" in str(out)
    return "200 with empty choices", "one line naming it, exit 4", _err(out), ok


CHECKS: list[Callable[[], Row]] = [
    endpoint_down, lambda: rate_limited(0.5), lambda: rate_limited(None), error_then_success,
    slower_than_timeout, non_json, malformed_args, plain_text, empty_choices,
]
