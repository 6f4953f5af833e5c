"""The agent loop as a LangGraph StateGraph: brain -> tools -> brain ... -> final.

Nodes and routing only. The brain decides; the ToolNode runs the toolbox (errors come back
to the brain as error results, never crash the run); `final` turns the `finish` call into the
answer. A step budget bounds the brain turns: on the last turn the brain is told to finish,
and if it still does not, an answer is built from the evidence gathered so far. A brain whose
tool calls keep failing is stopped with ToolUseFailed (agent.tooluse), never given a made-up
answer.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.runtime import Runtime

from agent import prompts, tooluse
from agent.brains.base import ERROR_KEY, Brain
from agent.context import RunContext
from agent.state import AgentState
from agent.timefmt import hms
from agent.toolbox import Toolbox
from agent.trace import text_of

ELAPSED_KEY = "lvq_elapsed_s"  # a tool result's response_metadata: seconds the call took


def tool_error_message(exc: Exception) -> str:
    """What the brain reads when a tool fails: the error, and that it may try again."""
    msg = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    return f"error: {msg}"


def _results(messages: list[BaseMessage]) -> list[tuple[str, dict[str, Any]]]:
    """(tool name, parsed JSON) of every successful tool result, in order."""
    out = []
    for m in messages:
        if isinstance(m, ToolMessage) and getattr(m, "status", "success") != "error":
            try:
                data = json.loads(text_of(m.content))
            except (ValueError, TypeError):
                continue
            if isinstance(data, dict):
                out.append((m.name or "", data))
    return out


def collect_evidence(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """One line per successful measuring tool call: the tool, its window, its finding."""
    ev = []
    for name, data in _results(messages):
        if name == "finish":
            continue
        row: dict[str, Any] = {"tool": name, "finding": str(data.get("summary", ""))}
        if isinstance(data.get("window"), list):
            row["window"] = data["window"]
        ev.append(row)
    return ev


def seen_events(messages: list[BaseMessage]) -> list[dict[str, Any]]:
    """Every distinct event that appeared in a tool result."""
    seen: dict[tuple, dict[str, Any]] = {}
    for _, data in _results(messages):
        lists = [data.get("events", [])] + [w.get("events", []) for w in data.get("windows", [])
                                            if isinstance(w, dict)]
        for evs in lists:
            for e in evs or []:
                if isinstance(e, dict) and {"type", "start_s", "end_s"} <= set(e):
                    seen.setdefault((e["type"], e["start_s"], e["end_s"]), e)
    return sorted(seen.values(), key=lambda e: e["start_s"])


def fallback_answer(messages: list[BaseMessage], reason: str) -> dict[str, Any]:
    """An answer built from the evidence when the brain did not finish in time."""
    evs = seen_events(messages)
    if evs:
        listed = "; ".join(f"{e['type']} {hms(e['start_s'])}-{hms(e['end_s'])} "
                           f"(severity {e.get('severity', 0):.2f})" for e in evs[:8])
        text = f"{reason}. Events seen so far: {listed}."
    else:
        text = f"{reason}. No quality events were seen in the windows inspected."
    segs = [{"start_s": e["start_s"], "end_s": e["end_s"], "label": e["type"],
             "severity": float(e.get("severity", 0.0))} for e in evs]
    return {"answer": text, "choice": None, "segments": segs, "confidence": 0.1,
            "forced": True}


_LETTER = re.compile(
    r"(?i:answer|choice|option)\s*(?:is|:)?\s*\**\(?([A-Z])\)?\**(?![\w])|"
    r"^\s*\**\(?([A-Z])(?:[).:]|\**\s*$)",
    re.MULTILINE,
)


def extract_letter(text: str, letters: list[str]) -> str | None:
    """The option letter a prose answer names ("The answer is B", "B. ..."), if unambiguous."""
    found = {(m.group(1) or m.group(2)).upper() for m in _LETTER.finditer(text or "")}
    found &= set(letters)
    return found.pop() if len(found) == 1 else None


def _finish_result(messages: list[BaseMessage]) -> dict[str, Any] | None:
    """The validated arguments of a successful finish call in the last tool round."""
    for m in reversed(messages):
        if not isinstance(m, ToolMessage):
            break
        if m.name == "finish" and getattr(m, "status", "success") != "error":
            try:
                data = json.loads(text_of(m.content))
            except ValueError:
                return None
            data.pop("summary", None)
            return data
    return None


def build_graph(brain: Brain, toolbox: Toolbox, max_steps: int = 12,
                checkpointer: BaseCheckpointSaver | None = None):
    """A compiled graph running `brain` over `toolbox` for at most `max_steps` brain turns.

    Invoke or stream with {"messages": [system, question]} and optionally
    context=RunContext(...); the result's "answer" is the finish arguments (or a forced
    answer), "steps" the turns taken. With a `checkpointer` every super-step is saved under
    the config's thread_id, so a run that failed can be resumed by streaming None.
    search_frames is offered only when the index has CLIP embeddings.
    """
    max_steps = max(1, int(max_steps))
    tools = toolbox.offered()
    schemas = toolbox.openai_schemas(tools)

    def ctx_of(runtime: Runtime | None) -> RunContext:
        ctx = getattr(runtime, "context", None) if runtime is not None else None
        return ctx if isinstance(ctx, RunContext) else toolbox.ctx

    def stop_if_stuck(ctx: RunContext, messages: list[BaseMessage], at_end: bool = False) -> None:
        try:
            tooluse.check(messages, at_end)
        except tooluse.ToolUseFailed as exc:
            if ctx.trace:
                ctx.trace.note(f"stopped: {exc}")
            raise

    def brain_node(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        ctx = ctx_of(runtime)
        stop_if_stuck(ctx, list(state["messages"]))
        steps = int(state.get("steps", 0))
        new: list[BaseMessage] = []
        nudged = bool(state.get("nudged"))
        if steps + 1 >= max_steps and not nudged:
            new.append(HumanMessage(prompts.part("tool_guidance.md", "budget")))
            nudged = True
            if ctx.trace:
                ctx.trace.note(f"last step ({steps + 1} of {max_steps}): told to finish now")
        t0 = time.perf_counter()
        reply = brain.step(list(state["messages"]) + new, schemas, ctx)
        if not isinstance(reply, AIMessage):
            reply = AIMessage(content=text_of(getattr(reply, "content", reply)))
        if ctx.trace:
            ctx.trace.brain_step(steps + 1, reply, time.perf_counter() - t0)
        return {"messages": [*new, reply], "steps": steps + 1, "nudged": nudged}

    def record(request: Any, execute: Any) -> Any:
        t0 = time.perf_counter()
        call = request.tool_call
        args = call.get("args") or {}
        if isinstance(args, dict) and ERROR_KEY in args:
            result = ToolMessage(
                f"error: {args[ERROR_KEY]}; call the tool again with a JSON object of arguments",
                tool_call_id=call["id"], name=call["name"], status="error",
            )
        else:
            result = execute(request)
        ctx = ctx_of(getattr(request, "runtime", None))
        if isinstance(result, ToolMessage):
            elapsed = time.perf_counter() - t0
            result.response_metadata = {**result.response_metadata,
                                        ELAPSED_KEY: round(elapsed, 4)}
            if ctx.trace:
                ctx.trace.tool_step(dict(request.tool_call), result, elapsed)
        return result

    tool_node = ToolNode(tools, handle_tool_errors=tool_error_message, wrap_tool_call=record)

    def after_brain(state: AgentState) -> str:
        last = state["messages"][-1]
        calls = getattr(last, "tool_calls", None) or []
        if not calls:
            return "final"
        if int(state.get("steps", 0)) >= max_steps and not any(
            c.get("name") == "finish" for c in calls
        ):
            return "final"
        return "tools"

    def after_tools(state: AgentState) -> str:
        if _finish_result(state["messages"]) is not None:
            return "final"
        return "final" if int(state.get("steps", 0)) >= max_steps else "brain"

    def final_node(state: AgentState, runtime: Runtime[RunContext]) -> dict[str, Any]:
        ctx = ctx_of(runtime)
        msgs = list(state["messages"])
        done = _finish_result(msgs)
        if done is not None:
            return {"answer": done}
        last = msgs[-1] if msgs else None
        if isinstance(last, AIMessage) and not last.tool_calls and text_of(last.content).strip():
            text = text_of(last.content).strip()
            ans = {"answer": text, "choice": extract_letter(text, ctx.letters), "segments": [],
                   "confidence": 0.3, "forced": True}
            note = "the brain answered in text: answer parsed from it"
        else:
            stop_if_stuck(ctx, msgs, at_end=True)
            ans = fallback_answer(msgs, f"Step budget exhausted after {state.get('steps', 0)} "
                                        "steps before a final answer")
            note = "budget exhausted: answer built from the evidence seen"
        if ctx.trace:
            ctx.trace.note(note)
        return {"answer": ans}

    g = StateGraph(AgentState, context_schema=RunContext)
    g.add_node("brain", brain_node)
    g.add_node("tools", tool_node)
    g.add_node("final", final_node)
    g.add_edge(START, "brain")
    g.add_conditional_edges("brain", after_brain, ["tools", "final"])
    g.add_conditional_edges("tools", after_tools, ["brain", "final"])
    g.add_edge("final", END)
    return g.compile(checkpointer=checkpointer)


def recursion_limit(max_steps: int) -> int:
    """LangGraph super-steps needed for max_steps brain turns (brain + tools each, + final)."""
    return 2 * max(1, int(max_steps)) + 5
