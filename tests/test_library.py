"""Video libraries: finding videos, indexing many, summary tables, one question for many."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from tiny_videos import tiny_video
from typer.testing import CliRunner

from agent.cli import app
from agent.library import Outcome, find_videos, index_row, is_library, write_summary
from tools.errors import EXIT_INPUT, EXIT_USAGE, InputError

runner = CliRunner()


def invoke(*args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> Path:
    """Three tiny videos (one in a sub-folder) and one broken file with a video name."""
    root = tmp_path_factory.mktemp("library")
    (root / "sub").mkdir()
    tiny_video(root / "a.mp4", 1.0)
    tiny_video(root / "sub" / "b.mkv", 1.0)
    tiny_video(root / "c.MOV", 1.0)
    (root / "broken.mp4").write_bytes(b"this is not a video " * 20)
    (root / "notes.txt").write_text("not a video name")
    return root


def test_find_videos_walks_directories_and_globs(tmp_path, library):
    hidden = tmp_path / ".hidden"
    hidden.mkdir()
    (hidden / "x.mp4").write_bytes(b"x")
    (tmp_path / "._a.mp4").write_bytes(b"x")
    names = [p.relative_to(library).as_posix() for p in find_videos([library])]
    assert names == ["a.mp4", "broken.mp4", "c.MOV", "sub/b.mkv"]
    got = find_videos([library / "a.mp4", f"{library}/**/*.mkv", library / "a.mp4"])
    assert got == [library / "a.mp4", library / "sub" / "b.mkv"]  # each video once
    warnings: list[str] = []
    got = find_videos([tmp_path, library / "missing.mp4", f"{library}/*.avi"], warnings.append)
    assert got == [library / "missing.mp4"]  # a plain path is kept and fails later
    assert warnings == [f"no video files in {tmp_path}", f"no video files match {library}/*.avi"]
    with pytest.raises(InputError, match="no video files found"):
        find_videos([tmp_path])
    assert not is_library([library / "a.mp4"]) and is_library([library])
    assert is_library([f"{library}/*.mp4"]) and is_library([library / "a.mp4"] * 2)


def test_summary_row_counts_events_by_type_and_the_worst():
    events = [SimpleNamespace(type=t, severity=s)
              for t, s in [("blur", 0.3), ("flicker", 0.8), ("blur", 0.5)]]
    index = SimpleNamespace(events=events, meta={"cached": True},
                            info=SimpleNamespace(duration_s=12.3456))
    row = index_row(Outcome(Path("v.mp4"), value=index))
    assert (row.status, row.duration_s, row.n_events) == ("cached", 12.346, 3)
    assert row.events_by_type == {"blur": 2, "flicker": 1}
    assert (row.worst_severity, row.worst_type) == (0.8, "flicker")
    assert row.to_csv()["events_by_type"] == "blur=2; flicker=1"
    failed = index_row(Outcome(Path("bad.mp4"), error=InputError("unreadable  video\nhere")))
    assert (failed.status, failed.error, failed.to_csv()["duration_s"]) == (
        "failed", "unreadable video here", "")


def test_write_summary_writes_csv_and_json_atomically(tmp_path):
    rows = [index_row(Outcome(Path("bad.mp4"), error=RuntimeError("boom")))]
    csv_path, json_path = write_summary(rows, tmp_path / "out" / "lib.csv")
    assert (csv_path.name, json_path.name) == ("lib.csv", "lib.json")
    assert json.loads(json_path.read_text())[0]["error"] == "RuntimeError: boom"
    assert list(csv.DictReader(csv_path.open()))[0]["status"] == "failed"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["lib.csv", "lib.json"]


def test_index_a_library_with_a_broken_video_then_from_cache(library, tmp_path):
    cache, summary = tmp_path / "cache", tmp_path / "report" / "lib.csv"
    res = invoke("index", library, "--summary", summary, "--cache-dir", cache, "-q",
                 "--no-clip")
    assert res.exit_code == EXIT_INPUT, res.output
    assert f"failed  {library / 'broken.mp4'}: not a video file" in res.stderr
    assert "1 of 4 videos failed" in res.stderr
    rows = list(csv.DictReader(summary.open()))
    by_name = {Path(r["video"]).name: r for r in rows}
    assert list(by_name) == ["a.mp4", "broken.mp4", "c.MOV", "b.mkv"]
    assert [by_name[n]["status"] for n in by_name] == ["indexed", "failed", "indexed", "indexed"]
    assert float(by_name["a.mp4"]["duration_s"]) == pytest.approx(1.0, abs=0.1)
    assert "not a video file" in by_name["broken.mp4"]["error"]
    records = json.loads(summary.with_suffix(".json").read_text())
    assert [r["video"] for r in records] == [r["video"] for r in rows]
    assert [r["status"] for r in records] == [r["status"] for r in rows]
    assert records[1]["duration_s"] is None and records[0]["duration_s"] > 0.9

    again = invoke("index", library, "--cache-dir", cache, "-q", "--no-clip")
    assert again.exit_code == EXIT_INPUT
    assert again.stderr.count("cached  ") == 3
    printed = list(csv.DictReader(io.StringIO(again.stdout)))  # a pipe gets CSV
    assert [r["status"] for r in printed] == ["cached", "failed", "cached", "cached"]

    good = invoke("index", library / "a.mp4", f"{library}/**/*.mkv", "--json", "--cache-dir",
                  cache, "-q")
    assert good.exit_code == 0, good.output
    assert [r["status"] for r in json.loads(good.stdout)] == ["cached", "cached"]


def test_one_video_keeps_the_single_summary(library, tmp_path):
    res = invoke("index", library / "a.mp4", "--cache-dir", tmp_path, "-q", "--no-clip")
    assert res.exit_code == 0, res.output
    assert "measured in" in res.stdout and "status" not in res.stdout
    res = invoke("index", library / "a.mp4", library / "c.MOV", "--export", tmp_path / "e.csv")
    assert res.exit_code == EXIT_USAGE and "--export takes one video" in res.output


def test_answer_about_two_videos_prints_two_rows(library, tmp_path):
    a, b = library / "a.mp4", library / "sub" / "b.mkv"
    res = invoke("answer", a, b, "When does flicker occur?", "--cache-dir", tmp_path, "-q")
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert [r["video"] for r in rows] == [str(a), str(b)]
    assert all("flicker" in r["answer"].lower() and not r["error"] for r in rows)
    res = invoke("answer", a, library / "broken.mp4", "When?", "--json", "--cache-dir",
                 tmp_path, "-q")
    assert res.exit_code == EXIT_INPUT
    items = json.loads(res.stdout)
    assert items[0]["video"] == str(a) and items[0]["answer"] and items[0]["trace_id"]
    assert "not a video file" in items[1]["error"]
    res = invoke("answer", a, b, "When?", "--brain", "psychic", "--cache-dir", tmp_path, "-q")
    assert res.exit_code == EXIT_USAGE and res.output.count("error:") == 1  # stops at once
