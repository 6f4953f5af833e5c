"""Failed tool use: a model whose tool calls keep failing is stopped with a clear error.

A call fails when its result is an error (malformed arguments, an unknown tool, arguments a
tool rejects). The run stops when a failing call is made again unchanged (tools are
deterministic: it will fail again), or after MAX_FAILED_TURNS brain turns in a row in which
every call failed, or at the end of the budget when no call ever succeeded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from agent.brains.errors import ToolUseFailed
from agent.trace import text_of

MAX_FAILED_TURNS = 4
REASON_CHARS = 160


def _turns(messages: Sequence[BaseMessage]) -> list[tuple[AIMessage, list[ToolMessage]]]:
    """Each brain turn that called tools, with the results that answered it."""
    out: list[tuple[AIMessage, list[ToolMessage]]] = []
    for m in messages:
        if isinstance(m, AIMessage) and m.tool_calls:
            out.append((m, []))
        elif isinstance(m, ToolMessage) and out:
            out[-1][1].append(m)
    return out


def _failed(result: ToolMessage) -> bool:
    return getattr(result, "status", "success") == "error"


def _reason(result: ToolMessage) -> str:
    """The failure as one short line: the tool and what went wrong."""
    text = " ".join(text_of(result.content).split())
    for prefix in ("error: ", "Error: "):
        text = text.removeprefix(prefix)
    text = text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 1] + "…"
    return f"{result.name or 'tool'}: {text}"


def _key(call: dict[str, Any]) -> str:
    """A call's identity: its tool name and arguments."""
    return call.get("name", "") + " " + json.dumps(call.get("args"), sort_keys=True, default=str)


def tool_use_failure(messages: Sequence[BaseMessage]) -> str | None:
    """Why the run should stop because tool calls keep failing, or None."""
    failed_before: set[str] = set()
    streak = 0
    for ai, results in _turns(messages):
        calls = {c["id"]: c for c in ai.tool_calls}
        bad = [r for r in results if _failed(r)]
        for r in bad:
            key = _key(calls.get(r.tool_call_id, {"name": r.name}))
            if key in failed_before:
                return f"it repeated a failing call ({_reason(r)})"
            failed_before.add(key)
        streak = streak + 1 if results and len(bad) == len(results) else 0
        if streak >= MAX_FAILED_TURNS:
            return f"{streak} turns in a row with only failing calls (last {_reason(bad[-1])})"
    return None


def nothing_worked(messages: Sequence[BaseMessage]) -> str | None:
    """Why the run ended with nothing measured: calls were made and every one failed."""
    turns = _turns(messages)
    results = [r for _, rs in turns for r in rs]
    if not results or any(not _failed(r) for r in results):
        return None
    return f"none of its {len(results)} tool calls succeeded (last {_reason(results[-1])})"


def check(messages: Sequence[BaseMessage], at_end: bool = False) -> None:
    """Raise ToolUseFailed when the model cannot use the tools (see the module notes)."""
    why = tool_use_failure(messages) or (nothing_worked(messages) if at_end else None)
    if why:
        raise ToolUseFailed(f"the model could not use the tools: {why}")
