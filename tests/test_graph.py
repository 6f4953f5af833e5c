"""The LangGraph loop with a scripted brain: tool calls, errors returned, budget, finish."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from test_toolbox import BLUR, make_index

from agent.context import RunContext
from agent.graph import build_graph, extract_letter, recursion_limit
from agent.toolbox import Toolbox
from agent.trace import TraceRecorder


class ScriptedBrain:
    """Returns predetermined messages in order and keeps what it was shown."""

    name = "scripted"

    def __init__(self, replies: list[AIMessage]) -> None:
        self.replies = list(replies)
        self.seen: list[list] = []

    def step(self, messages, tools, ctx) -> AIMessage:
        self.seen.append(list(messages))
        assert tools and tools[0]["type"] == "function"
        return self.replies.pop(0) if self.replies else AIMessage(
            "", tool_calls=[{"name": "overview", "args": {}, "id": f"x{len(self.seen)}"}])


def call(name: str, args: dict, cid: str) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": cid}],
                     usage_metadata={"input_tokens": 10, "output_tokens": 5, "total_tokens": 15})


def run(brain, max_steps=6, options=("Yes", "No")):
    idx = make_index(events=[BLUR])
    rec = TraceRecorder(idx.info.path, "Is there blur?", list(options), brain.name, max_steps)
    ctx = RunContext(video=idx.info.path, duration_s=200.0, question="Is there blur?",
                     options=list(options), max_steps=max_steps, trace=rec)
    graph = build_graph(brain, Toolbox(idx, ctx), max_steps)
    out = graph.invoke({"messages": [SystemMessage("sys"), HumanMessage("q")], "steps": 0},
                       context=ctx, config={"recursion_limit": recursion_limit(max_steps)})
    return out, rec


def test_tool_error_goes_back_to_brain_then_finish():
    brain = ScriptedBrain([
        call("find_events", {"type": "no such thing"}, "c1"),
        call("find_events", {"start_s": "not a number"}, "c2"),
        call("nonexistent_tool", {}, "c3"),
        call("find_events", {"type": "blur"}, "c4"),
        call("finish", {"answer": "Blur at 60-75 s", "choice": "A",
                        "segments": [{"start_s": 60, "end_s": 75, "label": "blur"}]}, "c5"),
    ])
    out, rec = run(brain, max_steps=8)
    assert out["answer"]["choice"] == "A"
    assert out["answer"]["segments"][0]["end_s"] == 75.0
    assert out["steps"] == 5
    errors = [m for m in out["messages"] if isinstance(m, ToolMessage) and m.status == "error"]
    assert len(errors) == 3
    assert "valid types" in errors[0].content
    assert "start_s" in errors[1].content
    assert "nonexistent_tool" in errors[2].content
    # the brain saw the error result before its next turn
    assert any(isinstance(m, ToolMessage) and m.tool_call_id == "c1" for m in brain.seen[1])
    tools = [s for s in rec.steps if s["kind"] == "tool"]
    assert [s["status"] for s in tools] == ["error", "error", "error", "success", "success"]
    assert tools[3]["windows"] == [[0.0, 200.0]]
    assert [s["tokens"]["total_tokens"] for s in rec.steps if s["kind"] == "brain"] == [15] * 5


def test_invalid_finish_is_retried():
    brain = ScriptedBrain([
        call("finish", {"answer": "x", "choice": "Q"}, "c1"),
        call("finish", {"answer": "No blur", "choice": "B"}, "c2"),
    ])
    out, _ = run(brain)
    assert out["answer"]["choice"] == "B" and out["steps"] == 2


def test_budget_nudges_then_forces_answer():
    brain = ScriptedBrain([call("find_events", {"type": "blur"}, f"c{i}") for i in range(10)])
    out, rec = run(brain, max_steps=3)
    assert out["steps"] == 3
    ans = out["answer"]
    assert ans["forced"] and ans["choice"] is None
    assert "budget exhausted" in ans["answer"].lower()
    assert ans["segments"][0]["label"] == "blur"  # built from the events seen
    last_turn = brain.seen[-1]
    assert isinstance(last_turn[-1], HumanMessage) and "finish" in last_turn[-1].content
    assert any(s["kind"] == "graph" and "budget" in s["text"] for s in rec.steps)


def test_plain_text_answer_is_parsed():
    brain = ScriptedBrain([AIMessage("The answer is B: no blur was found.")])
    out, _ = run(brain)
    assert out["answer"]["choice"] == "B" and out["answer"]["forced"]
    assert out["steps"] == 1


def test_extract_letter():
    assert extract_letter("Answer: C", ["A", "B", "C"]) == "C"
    assert extract_letter("B. second", ["A", "B"]) == "B"
    assert extract_letter("A or B", ["A", "B"]) is None
    assert extract_letter("I think so", ["A", "B"]) is None
