"""Every ```python block of docs/api.md runs, in order, against a small real video."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import scripted_server as ss

from tools.model import Event

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
CANARY = "docs-canary-key-5f1e9a"  # not shaped like a key: masked by value


def python_blocks(text: str) -> list[str]:
    """The ```python fenced blocks of a Markdown text, in order."""
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


def _finish_from_events(request: ss.Recorded) -> ss.Reply:
    """The model's last turn: the flicker spans that find_events reported to it."""
    found = json.loads([m for m in request.messages if m["role"] == "tool"][-1]["content"])
    segs = [{"start_s": e["start_s"], "end_s": e["end_s"], "label": "flicker",
             "severity": e.get("severity", 0.5)} for e in found["events"]]
    return ss.tool_call("finish", {"answer": f"Flicker, {len(segs)} span(s). Key {CANARY}.",
                                   "segments": segs, "confidence": 0.7})


def test_the_page_has_an_example_per_task():
    blocks = python_blocks(DOC.read_text())
    code = "\n".join(blocks)
    assert len(blocks) >= 6
    for call in ("api.index_video(", "api.events(", "api.answer(", "api.open_trace(",
                 ".report(", ".plot("):
        assert call in code, call


def test_docs_examples_run(make_clip, cache_dir, tmp_path, monkeypatch, capsys):
    src, _manifest = make_clip(20.0, 1, needles=[("flicker", 3, 8, 13)])
    shutil.copy(src, tmp_path / "video.mp4")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LVQ_OPENAI_MODEL", "scripted-model")
    monkeypatch.setenv("LVQ_OPENAI_API_KEY", CANARY)
    monkeypatch.setenv("LVQ_VISION", "off")
    script = [ss.tool_call("overview", {}), ss.tool_call("find_events", {"type": "flicker"}),
              _finish_from_events]
    ns: dict = {}
    with ss.ScriptedServer(script) as srv:
        monkeypatch.setenv("LVQ_OPENAI_BASE_URL", srv.url)
        for k, block in enumerate(python_blocks(DOC.read_text())):
            exec(compile(block, f"{DOC.name} python block {k + 1}", "exec"), ns)  # noqa: S102
    printed = capsys.readouterr().out

    # index: facts of the 20 s video
    assert abs(ns["index"].info.duration_s - 20.0) < 0.2 and "20.0 s" in printed
    # events: typed records, the flicker needle found
    events = ns["events"]
    assert isinstance(events, list) and events and all(isinstance(e, Event) for e in events)
    assert [e.start_s for e in events] == sorted(e.start_s for e in events)
    assert any(e.type == "flicker" and e.start_s < 13 and e.end_s > 8 for e in events)
    assert ns["flicker"] and {e.type for e in ns["flicker"]} == {"flicker"}
    assert "flicker" in printed and "severity" in printed
    # answer: text and cited times around the needle
    ans = ns["ans"]
    assert ans.answer and ans.brain == "local" and ans.trace_id in printed
    assert any(s.start_s < 13 and s.end_s > 8 for s in ans.segments)
    assert ns["mc"].choice == "A"
    # trace: the same run, its tool calls in order, its plot and report
    tr = ns["tr"]
    assert tr.trace_id == ans.trace_id and tr.question == "When does flicker occur?"
    assert [s.tool for s in tr.tool_steps][:2] == ["overview", "find_events"]
    assert tr.answer is not None and tr.answer.answer == ans.answer
    assert len(tr.rows()) == len(tr.steps)
    assert Path("trace.png").stat().st_size > 20_000
    page = Path("report.html").read_text()
    assert ns["rep"].notes == [] and tr.trace_id in page and "<table id=\"steps\"" in page
    # the model brain went over real HTTP to the scripted endpoint; its key is masked
    remote = ns["remote"]
    assert remote.brain == "openai" and remote.steps == 3 and "[redacted]" in remote.answer
    assert len(srv.chat_requests) == 3
    assert all(r.headers["authorization"] == f"Bearer {CANARY}" for r in srv.chat_requests)
    assert CANARY not in printed


@pytest.mark.parametrize("bad", ["../../etc/passwd", "no-such-trace"])
def test_open_trace_refuses_bad_ids(bad, cache_dir):
    from agent import api
    from tools.errors import EXIT_USAGE, LvqError, exit_code_of

    (cache_dir / "traces").mkdir(parents=True)
    (cache_dir / "traces" / "20260101-000000-abcdef.json").write_text(
        json.dumps({"trace_id": "20260101-000000-abcdef", "steps": []}))
    with pytest.raises(LvqError) as caught:
        api.open_trace(bad)
    assert exit_code_of(caught.value) == EXIT_USAGE
