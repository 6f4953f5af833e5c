"""agent.api: typed events, traces as records, and the CLI as a thin layer over the API."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from agent import api
from agent.cli import app
from tools.errors import EXIT_STORAGE, exit_code_of

runner = CliRunner()


@pytest.fixture(scope="module")
def flicker(make_clip):
    path, _ = make_clip(20.0, 1, needles=[("flicker", 3, 8, 13)])
    return path


def _spy(monkeypatch, name: str) -> list:
    """Wrap agent.api.<name> so each call is recorded and still does the real work."""
    calls: list = []
    real = getattr(api, name)

    def spy(*a, **k):
        calls.append((a, k))
        return real(*a, **k)

    monkeypatch.setattr(api, name, spy)
    return calls


def test_cli_commands_are_the_api_functions(flicker, cache_dir, monkeypatch, tmp_path):
    indexed, answered, opened = (_spy(monkeypatch, n)
                                 for n in ("index_video", "answer", "open_trace"))
    res = runner.invoke(app, ["index", str(flicker), "--json", "-q"])
    assert res.exit_code == 0, res.output
    assert len(indexed) == 1 and indexed[0][1]["progress"] is False
    assert json.loads(res.stdout)["events"]

    res = runner.invoke(app, ["answer", str(flicker), "When does flicker occur?", "--json", "-q"])
    assert res.exit_code == 0, res.output
    tid = json.loads(res.stdout)["trace_id"]
    assert len(answered) == 1 and answered[0][0][1] == "When does flicker occur?"

    res = runner.invoke(app, ["trace", "show", "last"])
    assert res.exit_code == 0 and tid in res.stdout
    res = runner.invoke(app, ["report", tid[:17], "-o", str(tmp_path / "r.html")])
    assert res.exit_code == 0, res.output
    assert [c[0][0] for c in opened] == ["last", tid[:17]]
    assert (tmp_path / "r.html").stat().st_size > 10_000


def test_events_are_typed_sorted_and_filtered(flicker, cache_dir):
    idx = api.index_video(flicker, progress=False)
    every = api.events(idx)
    assert every == sorted(every, key=lambda e: (e.start_s, e.end_s, e.type))
    assert all(isinstance(e, api.Event) and 0 <= e.severity <= 1 for e in every)
    assert api.events(flicker, progress=False) == every  # from the cache, the same records
    only = api.events(idx, types=["flicker"])
    assert only and all(e.type == "flicker" for e in only)
    assert api.events(idx, types=["interlace"]) == [e for e in every if e.type == "interlace"]


def _write(cache_dir, trace_id: str, data: dict) -> None:
    folder = cache_dir / "traces"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{trace_id}.json").write_text(json.dumps({"trace_id": trace_id, **data}))


def test_a_failed_run_opens_with_its_error(cache_dir):
    _write(cache_dir, "20260101-000000-aaaaaa", {
        "question": "When?", "brain": "openai", "steps": [
            {"kind": "brain", "n": 1, "turn": 1, "text": "", "tool_calls": [
                {"name": "overview", "args": {}}], "tokens": {"total_tokens": 18}},
            {"kind": "tool", "n": 2, "tool": "overview", "args": {}, "status": "error",
             "summary": "boom", "windows": [[0, 5], "junk", [1, "x"]]},
            {"kind": "graph", "n": 3, "text": "run failed: EndpointError"}],
        "answer": {"error": "EndpointError: cannot reach http://127.0.0.1:9/v1"}})
    tr = api.open_trace("last")
    assert tr.answer is None and tr.error.startswith("EndpointError")
    assert [s.kind for s in tr.steps] == ["brain", "tool", "graph"]
    brain, tool, note = tr.steps
    assert brain.tool == "overview" and brain.tokens == 18
    assert tool.status == "error" and tool.windows == [[0.0, 5.0]] and tool.result == "boom"
    assert note.result.startswith("run failed") and tr.tool_steps == [tool]
    assert api.traces()[0]["trace_id"] == "20260101-000000-aaaaaa"


def test_a_damaged_trace_is_a_storage_error(cache_dir):
    folder = cache_dir / "traces"
    folder.mkdir(parents=True)
    (folder / "20260101-000000-bbbbbb.json").write_text("{not json")
    with pytest.raises(Exception) as caught:
        api.open_trace("20260101-000000-bbbbbb")
    assert exit_code_of(caught.value) == EXIT_STORAGE
