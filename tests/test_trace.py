"""Traces: atomic persistence, no secrets, listing, lookup by prefix, step table, plot."""

from __future__ import annotations

import json

import pytest
from langchain_core.messages import AIMessage, ToolMessage
from test_toolbox import BLUR, FLICKER, make_index

from agent.plot import plot_trace
from agent.run import answer_question
from agent.trace import (
    TraceError,
    TraceRecorder,
    find_trace,
    list_traces,
    load_trace,
    redact,
    step_rows,
)


def test_recorder_saves_atomically_without_secrets(tmp_path):
    rec = TraceRecorder("/v.mp4", "q?", ["Yes", "No"], "openai", 5, trace_id="20250101-000000-aa")
    msg = AIMessage("using key sk-abcdefghijklmnopqrstuvwx",
                    tool_calls=[{"name": "overview", "args": {}, "id": "1"}],
                    usage_metadata={"input_tokens": 7, "output_tokens": 3, "total_tokens": 10})
    rec.brain_step(1, msg, 0.25)
    rec.tool_step({"name": "overview", "args": {}, "id": "1"},
                  ToolMessage('{"summary":"ok","window":[0,10]}', tool_call_id="1",
                              name="overview"), 0.01)
    rec.finish({"answer": "fine", "choice": "A", "steps": 1})
    path = rec.save(tmp_path)
    assert path == tmp_path / "traces" / "20250101-000000-aa.json"
    assert not [p for p in path.parent.iterdir() if p.suffix == ".tmp"]
    text = path.read_text()
    assert "sk-abc" not in text and "[redacted]" in text
    data = json.loads(text)
    assert data["tokens"] == {"input_tokens": 7, "output_tokens": 3, "total_tokens": 10}
    assert data["steps"][1]["windows"] == [[0.0, 10.0]]
    assert data["steps"][1]["summary"] == "ok"


def test_redact():
    assert redact("Authorization: Bearer abcdefghijklmnop1234") == "Authorization: [redacted]"
    assert "secret123456" not in redact('{"api_key": "secret123456"}')
    assert redact("plain text") == "plain text"


def test_list_find_show_and_plot(tmp_path):
    idx = make_index(events=[BLUR, FLICKER])
    a1 = answer_question(idx.info.path, "When does flicker occur?", [], index=idx,
                         cache_dir=tmp_path)
    a2 = answer_question(idx.info.path, "Is there blur?", ["Yes", "No"], index=idx,
                         cache_dir=tmp_path)
    rows = list_traces(tmp_path)
    assert {r["trace_id"] for r in rows} == {a1.trace_id, a2.trace_id}
    assert rows[0]["created"] >= rows[1]["created"]
    assert find_trace(a2.trace_id[:-1], tmp_path).stem == a2.trace_id
    assert load_trace("last", tmp_path)["trace_id"] == max(a1.trace_id, a2.trace_id)
    with pytest.raises(TraceError, match="no trace"):
        find_trace("nope", tmp_path)
    tr = load_trace(a1.trace_id, tmp_path)
    assert tr["answer"]["segments"][0]["label"].startswith("flicker")
    table = step_rows(tr)
    assert [r["what"] for r in table if not r["what"].startswith("brain")] == [
        "overview", "find_events", "finish"]
    png = plot_trace(tr, tmp_path / "plot.png", index=idx)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000


def test_missing_trace_dir(tmp_path):
    assert list_traces(tmp_path) == []
    with pytest.raises(TraceError, match="no traces"):
        find_trace("last", tmp_path)
