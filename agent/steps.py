"""Live progress of a run: one line per tool call, from the graph's streamed updates.

`agent answer` prints these on stderr while the graph runs (`graph.stream(...,
stream_mode="updates")`), so a person sees what the agent does as it does it; stdout stays
for the answer. Secrets are masked like everywhere else.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, ToolMessage

from agent.brains.redact import scrub
from agent.graph import ELAPSED_KEY
from agent.trace import text_of

ARGS_WIDTH = 70  # an argument summary longer than this is cut with "..."


def summarize_args(args: Any, width: int = ARGS_WIDTH) -> str:
    """`key=value` pairs of a tool call's arguments in one short line (values as JSON)."""
    if not isinstance(args, dict):
        text = str(args)
    else:
        text = " ".join(f"{k}={json.dumps(v, ensure_ascii=False, separators=(',', ':'))}"
                        for k, v in args.items() if v is not None)
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 3] + "..."


def took_text(seconds: Any) -> str:
    """A call's duration: milliseconds under a second, else seconds; '-' when unknown."""
    if not isinstance(seconds, int | float):
        return "-"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


class StepPrinter:
    """Turns the graph's `updates` chunks into one line per tool call, written by `write`.

    Each line: the brain step, the tool, its arguments in short, the seconds the call took,
    and `error: ...` when the call failed (the brain is told and may try again).
    """

    def __init__(self, write: Callable[[str], None], first_step: int = 0) -> None:
        self.write = write
        self.step = first_step
        self.calls: dict[str, dict[str, Any]] = {}
        self.lines = 0

    def __call__(self, update: dict[str, Any]) -> None:
        """Take one `stream_mode="updates"` chunk: {node name: that node's state update}."""
        for node, delta in (update or {}).items():
            if not isinstance(delta, dict):
                continue
            if "steps" in delta:
                self.step = int(delta["steps"])
            for m in delta.get("messages") or []:
                if isinstance(m, AIMessage):
                    for call in m.tool_calls or []:
                        self.calls[str(call.get("id"))] = call
                elif isinstance(m, ToolMessage) and node == "tools":
                    self.write(self.line(m))
                    self.lines += 1

    def line(self, result: ToolMessage) -> str:
        """The line of one finished tool call."""
        call = self.calls.get(str(result.tool_call_id), {})
        name = result.name or call.get("name") or "?"
        args = summarize_args(call.get("args") or {})
        took = (result.response_metadata or {}).get(ELAPSED_KEY)
        text = f"step {self.step:>2}  {name:<15} {took_text(took):>8}  {args}".rstrip()
        if getattr(result, "status", "success") == "error":
            err = " ".join(text_of(result.content).split())
            text += f"  -> {err[:80]}"
        return scrub(text)
