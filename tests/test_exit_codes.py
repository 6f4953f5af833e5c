"""Documented exit codes: one table (tools/errors.py) used by `agent` and `bench`."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from tiny_videos import tiny_video
from typer.testing import CliRunner

from agent import cli as agent_cli
from bench import cli as bench_cli
from bench import runner as bench_runner
from bench.run import execute as bench_execute
from tools.errors import (
    EXIT_ENDPOINT,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_STORAGE,
    EXIT_USAGE,
    IndexError_,
    LvqError,
    VideoError,
    exit_code_of,
)
from tools.jsonsafe import finite

runner = CliRunner()


def agent(*args):
    return runner.invoke(agent_cli.app, [str(a) for a in args])


def bench(*args):
    return runner.invoke(bench_cli.app, [str(a) for a in args])


def one_line(res) -> bool:
    return res.output.strip().count("\n") == 0 and "Traceback" not in res.output


def test_every_error_class_has_its_documented_code():
    from agent.brains import BrainError
    from agent.brains.openai_brain import (
        BrainConfigError,
        EndpointAuthError,
        EndpointUnreachable,
        InvalidResponse,
    )
    from agent.trace import TraceError, TraceUnreadable

    assert exit_code_of(VideoError("x")) == EXIT_INPUT
    assert exit_code_of(IndexError_("x")) == EXIT_STORAGE
    assert exit_code_of(BrainError("x")) == exit_code_of(TraceError("x")) == EXIT_USAGE
    assert exit_code_of(TraceUnreadable(Path("t"), "x")) == EXIT_STORAGE
    for cls in (EndpointUnreachable, EndpointAuthError, InvalidResponse):
        assert exit_code_of(cls("x")) == EXIT_ENDPOINT
    assert exit_code_of(BrainConfigError("no model")) == EXIT_USAGE
    assert exit_code_of(FileNotFoundError(2, "no such file")) == EXIT_INPUT
    assert exit_code_of(PermissionError(13, "denied")) == EXIT_STORAGE
    assert exit_code_of(OSError(28, "No space left on device")) == EXIT_STORAGE
    assert exit_code_of(RuntimeError("bug")) == exit_code_of(ValueError("bug")) == EXIT_INTERNAL
    assert exit_code_of(LvqError("x")) == EXIT_USAGE
    assert exit_code_of(KeyboardInterrupt()) == EXIT_INTERRUPTED


@pytest.mark.parametrize("question", ["", "   ", "\t\n"])
def test_empty_question_is_a_usage_error(tmp_path, question):
    res = agent("answer", tmp_path / "missing.mp4", question, "--cache-dir", tmp_path)
    assert res.exit_code == EXIT_USAGE and one_line(res)
    assert "question is empty" in res.output


@pytest.mark.parametrize("options", [["", "No"], ["Yes", "  "]])
def test_an_empty_option_is_a_usage_error(tmp_path, options):
    args = [a for o in options for a in ("-o", o)]
    res = agent("answer", tmp_path / "missing.mp4", "Is it noisy?", *args, "--cache-dir",
                tmp_path)
    assert res.exit_code == EXIT_USAGE and one_line(res)
    assert "is empty" in res.output and ("option A" in res.output or "option B" in res.output)


def test_agent_codes_for_input_usage_and_endpoint(tmp_path, monkeypatch):
    bad = tmp_path / "bad.mp4"
    bad.write_text("not a video")
    res = agent("index", bad, "--cache-dir", tmp_path, "-q")
    assert res.exit_code == EXIT_INPUT and one_line(res) and "not a video file" in res.output
    res = agent("answer", bad, "When?", "--brain", "psychic", "--cache-dir", tmp_path)
    assert res.exit_code == EXIT_USAGE and one_line(res)

    from agent import run as agent_run
    from agent.brains.openai_brain import EndpointUnreachable

    def down(*_a, **_k):
        raise EndpointUnreachable("cannot reach http://127.0.0.1:9/v1: connection refused")

    monkeypatch.setattr(agent_run, "answer_question", down)
    res = agent("answer", bad, "When?", "--brain", "openai", "--cache-dir", tmp_path)
    assert res.exit_code == EXIT_ENDPOINT and one_line(res) and "connection refused" in res.output


def test_internal_error_is_one_line_and_code_1(monkeypatch, capsys):
    def broken(*_a, **_k):
        raise RuntimeError("a bug")

    monkeypatch.delenv("LVQ_DEBUG", raising=False)
    for module in (agent_cli, bench_cli):
        monkeypatch.setattr(module, "app", broken)
        with pytest.raises(SystemExit) as stop:
            module.main()
        assert stop.value.code == EXIT_INTERNAL
        err = capsys.readouterr().err
        assert "internal error: RuntimeError: a bug" in err and "Traceback" not in err


def test_index_json_is_strict(tmp_path, monkeypatch):
    import numpy as np

    import tools.index

    class Fake:
        def summary(self):
            return {"video": {"duration_s": float("nan")}, "events": [
                {"score": float("inf"), "evidence": {"z": np.float32("nan"), "k": np.int64(3),
                                                     "ok": 0.5, "neg": -math.inf}}]}

    monkeypatch.setattr(tools.index, "get_index", lambda *_a, **_k: Fake())
    res = agent("index", tmp_path / "v.mp4", "--json", "-q")
    assert res.exit_code == 0, res.output

    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")

    data = json.loads(res.stdout, parse_constant=refuse)
    assert data["video"]["duration_s"] is None and data["events"][0]["score"] is None
    assert data["events"][0]["evidence"] == {"z": None, "k": 3, "ok": 0.5, "neg": None}


def test_finite_keeps_finite_values():
    assert finite({"a": [1, 2.5, "x", None, True], "b": (float("nan"),)}) == {
        "a": [1, 2.5, "x", None, True], "b": [None]}


def _items(tmp_path, videos=("a.mp4", "b.mp4")):
    path = tmp_path / "items.jsonl"
    lines = [json.dumps({"id": f"{v}-{k}", "benchmark": "t", "videos": [v], "question": "Blur?",
                         "format": "mcq", "options": ["Yes", "No"], "gold": "A"})
             for v in videos for k in range(2)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_bench_codes(tmp_path):
    items = _items(tmp_path)
    res = bench("run", "--items", tmp_path / "none.jsonl", "--track", "agent")
    assert res.exit_code == EXIT_INPUT and res.output.count("error:") == 1
    res = bench("run", "--items", items, "--track", "sideways")
    assert res.exit_code == EXIT_USAGE and res.output.count("error:") == 1
    junk = tmp_path / "junk.jsonl"
    junk.write_text("not json\n")
    res = bench("run", "--items", junk, "--track", "agent")
    assert res.exit_code == EXIT_INPUT and "no valid items" in res.output
    res = bench("report", tmp_path / "none.jsonl")
    assert res.exit_code == EXIT_INPUT and res.output.count("error:") == 1


def test_bench_index_of_a_bad_video_is_an_input_error(tmp_path):
    (tmp_path / "a.mp4").write_text("not a video")
    tiny_video(tmp_path / "b.mp4", 1.0)
    res = bench("index", "--items", _items(tmp_path), "--cache-dir", tmp_path / "cache")
    assert res.exit_code == EXIT_INPUT and "a.mp4" in res.output


def test_interrupted_bench_run_says_what_it_kept_and_resumes(tmp_path, monkeypatch):
    items = _items(tmp_path)
    out = tmp_path / "res.jsonl"
    seen: list[str] = []

    def fake(video, its, cfg, emit, stop_at="b.mp4"):
        seen.append(video)
        if video.endswith(stop_at):
            raise KeyboardInterrupt
        for it in its:
            emit({**bench_runner.base_record(it, video, cfg), "prediction": "A", "correct": True,
                  "error": None})

    monkeypatch.setattr(bench_execute, "run_video", fake)
    args = ["run", "--items", items, "--track", "agent", "--out", out, "--no-open-score", "-q"]
    res = bench(*args)
    assert res.exit_code == EXIT_INTERRUPTED
    note = [line for line in res.output.splitlines() if line.startswith("interrupted")]
    assert len(note) == 1 and f"2 items written to {out}" in note[0]
    assert "same command" in note[0] and "resume" in note[0]
    assert len(bench_runner.read_results(out)) == 2

    seen.clear()
    monkeypatch.setattr(bench_execute, "run_video",
                        lambda v, i, c, e: fake(v, i, c, e, stop_at="none"))
    res = bench(*args)
    assert res.exit_code == 0, res.output
    assert [v.rsplit("/", 1)[-1] for v in seen] == ["b.mp4"]  # a.mp4 was kept, not redone
    assert len(bench_runner.read_results(out)) == 4
