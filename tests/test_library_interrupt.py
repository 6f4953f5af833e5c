"""An interrupted library run (Ctrl-C or SIGTERM) keeps the summary of the videos it
finished, says so in one line, exits 130, and the same command resumes from the cache."""

from __future__ import annotations

import json
import os
import signal

import pytest
from tiny_videos import tiny_video
from typer.testing import CliRunner

import tools.index
from agent.cli import app
from tools.errors import EXIT_INTERRUPTED

runner = CliRunner()


@pytest.mark.parametrize("how", ["sigterm", "ctrl-c"])
def test_interrupted_library_writes_what_finished_then_resumes(tmp_path, monkeypatch, how):
    lib = tmp_path / "lib"
    lib.mkdir()
    for i, name in enumerate(["a.mp4", "b.mp4", "c.mp4"]):
        tiny_video(lib / name, 1.0 + 0.4 * i)
    real = tools.index.get_index
    calls: list[str] = []

    def stopping(video, **kw):
        calls.append(os.path.basename(video))
        if len(calls) == 2:  # the second video is stopped half way
            if how == "sigterm":
                os.kill(os.getpid(), signal.SIGTERM)
            raise KeyboardInterrupt
        return real(video, **kw)

    monkeypatch.setattr(tools.index, "get_index", stopping)
    summary = tmp_path / "out" / "lib.csv"
    args = ["index", str(lib), "--summary", str(summary), "--cache-dir", str(tmp_path / "c"),
            "-q", "--no-clip"]
    res = runner.invoke(app, args)
    assert res.exit_code == EXIT_INTERRUPTED, res.output
    note = [x for x in res.stderr.splitlines() if x.startswith("interrupted")]
    assert len(note) == 1 and "1 of 3 videos done" in note[0] and "lib.csv" in note[0]
    rows = json.loads(summary.with_suffix(".json").read_text())
    assert [(os.path.basename(r["video"]), r["status"]) for r in rows] == [("a.mp4", "indexed")]
    assert summary.read_text().count("\n") == 2  # header + one row, never half a file
    assert not list(summary.parent.glob(".*.tmp"))
    assert signal.getsignal(signal.SIGTERM) is not None  # the handler was put back

    monkeypatch.setattr(tools.index, "get_index", real)
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    rows = json.loads(summary.with_suffix(".json").read_text())
    assert [r["status"] for r in rows] == ["cached", "indexed", "indexed"]  # a.mp4 not redone
