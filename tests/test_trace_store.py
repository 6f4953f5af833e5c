"""Trace store robustness: ids never cut in lists, damaged files skipped, ids cannot be paths."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from agent import cli, cli_trace
from agent.trace import TraceRecorder, list_traces, load_trace
from tools.errors import EXIT_INPUT, EXIT_STORAGE, EXIT_USAGE

REPO = Path(__file__).resolve().parents[1]
IDS = ("20261124-100000-aaaaaa", "20261124-110000-bbbbbb")
runner = CliRunner()


@pytest.fixture()
def store(tmp_path):
    """A cache with two good traces (long video names) and nothing else."""
    for k, tid in enumerate(IDS):
        rec = TraceRecorder(f"/videos/a-rather-long-video-file-name-{k}.mp4",
                            "When does flicker occur in the second half?", [], "local", 5,
                            trace_id=tid)
        rec.finish({"answer": "Flicker occurs from 00:01:10 to 00:01:25.", "steps": 3,
                    "segments": [{"start_s": 70.0, "end_s": 85.0, "label": "flicker",
                                  "severity": 0.8}]})
        rec.save(tmp_path)
    return tmp_path


def damage(store: Path, tid: str, text: str) -> None:
    (store / "traces" / f"{tid}.json").write_text(text)


def test_list_through_a_narrow_pipe_keeps_whole_ids(store):
    env = {**os.environ, "COLUMNS": "40", "PYTHONPATH": str(REPO)}
    res = subprocess.run([sys.executable, "-m", "agent.cli", "trace", "list", "--cache-dir",
                          str(store)], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    for k, tid in enumerate(IDS):
        assert tid in res.stdout and f"a-rather-long-video-file-name-{k}.mp4" in res.stdout
    assert "…" not in res.stdout


@pytest.mark.parametrize("width", [40, 80, 140])
def test_list_on_a_terminal_of_any_width_keeps_whole_ids(store, monkeypatch, width):
    buf = io.StringIO()
    monkeypatch.setattr(cli_trace, "out", Console(file=buf, width=width, force_terminal=True,
                                            color_system=None))
    res = runner.invoke(cli.app, ["trace", "list", "--cache-dir", str(store)])
    text = buf.getvalue() + res.stdout
    assert res.exit_code == 0, res.output
    assert all(tid in text for tid in IDS), text
    assert "…" not in text
    if width >= cli.TABLE_MIN_WIDTH:
        assert "┃ id" in text  # wide terminals keep the table


@pytest.mark.parametrize("text", ["[1, 2, 3]", "null", "{not json", '{"steps": 3}',
                                  '{"answer": {"segments": [{"start_s": "x"}]}}'])
def test_damaged_trace_is_listed_as_unreadable_and_skipped_by_last(store, text):
    damage(store, "20261124-120000-cccccc", text)  # the newest file
    rows = list_traces(store)
    assert rows[0]["trace_id"] == "20261124-120000-cccccc" and rows[0]["unreadable"]
    assert [r["trace_id"] for r in rows[1:]] == list(reversed(IDS))
    assert load_trace("last", store)["trace_id"] == IDS[1]
    listed = runner.invoke(cli.app, ["trace", "list", "--cache-dir", str(store)])
    assert listed.exit_code == 0 and "unreadable" in listed.stdout
    for cmd in (["show"], ["plot", "-o", str(store / "p.png")]):
        res = runner.invoke(cli.app, ["trace", *cmd, "20261124-120000", "--cache-dir",
                                      str(store)])
        assert res.exit_code == EXIT_STORAGE, res.output
        assert res.output.strip().count("\n") == 0 and "cannot read trace" in res.output
    shown = runner.invoke(cli.app, ["trace", "show", "last", "--cache-dir", str(store)])
    assert shown.exit_code == 0 and IDS[1] in shown.stdout


def test_list_json_marks_unreadable_traces(store):
    damage(store, "20261124-120000-cccccc", "[1]")
    res = runner.invoke(cli.app, ["trace", "list", "--json", "--cache-dir", str(store)])
    rows = json.loads(res.stdout)
    assert res.exit_code == 0 and "JSON list" in rows[0]["unreadable"] and len(rows) == 3


@pytest.mark.parametrize("tid", ["../../etc/passwd", "../traces/" + IDS[0], "/etc/passwd",
                                 "a/b", "..", ".hidden", IDS[0] + ".json/.."])
def test_trace_ids_cannot_name_paths(store, tid):
    for cmd in (["show", tid], ["plot", tid, "-o", str(store / "p.png")]):
        res = runner.invoke(cli.app, ["trace", *cmd, "--cache-dir", str(store)])
        assert res.exit_code == EXIT_USAGE, res.output
        assert res.output.strip().count("\n") == 0 and "not a trace id" in res.output
    assert not (store / "p.png").exists()


def test_plot_codes_input_for_a_lost_video_and_storage_for_an_unwritable_png(store, tmp_path):
    res = runner.invoke(cli.app, ["trace", "plot", IDS[0], "-o", str(tmp_path / "p.png"),
                                  "--cache-dir", str(store)])
    assert res.exit_code == EXIT_INPUT and "cannot plot" in res.output and one_line(res)
    from tiny_videos import tiny_video

    video = tiny_video(tmp_path / "v.mp4", 1.0)
    rec = TraceRecorder(str(video), "Blur?", [], "local", 5, trace_id="20261124-130000-dddddd")
    rec.finish({"answer": "No.", "steps": 1})
    rec.save(store)
    blocker = tmp_path / "file"
    blocker.write_text("")
    res = runner.invoke(cli.app, ["trace", "plot", "last", "-o", str(blocker / "p.png"),
                                  "--cache-dir", str(store)])
    assert res.exit_code == EXIT_STORAGE and "cannot write" in res.output and one_line(res)


def one_line(res) -> bool:
    return res.output.strip().count("\n") == 0 and "Traceback" not in res.output
