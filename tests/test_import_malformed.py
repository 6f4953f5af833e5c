"""Malformed benchmark files: a bad line (broken JSON, a missing field, an unknown video) is
named by file and line; the import skips it and counts it, or with --strict stops before
writing anything (docs/benchmarks.md)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from bench.cli import app
from bench.importers import ImportOptions, import_file
from tools.errors import InputError

GOOD = {"video": "v1.mp4", "question": "Is there flicker?", "options": ["Yes", "No"],
        "answer": "A", "level": "LQU", "dimension": "detection"}


def _file(tmp_path):
    """Five lines: good, broken JSON, no question, unknown video, good."""
    path = tmp_path / "lvq_test.jsonl"
    lines = [json.dumps({**GOOD, "id": "q1"}), '{"id": "q2", "video": "v1.mp4", "question": ',
             json.dumps({k: v for k, v in GOOD.items() if k != "question"} | {"id": "q3"}),
             json.dumps({**GOOD, "id": "q4", "video": "nowhere.mp4"}),
             json.dumps({**GOOD, "id": "q5"})]
    path.write_text("\n".join(lines) + "\n")
    (tmp_path / "v1.mp4").write_bytes(b"stand-in: only its existence is checked")
    return path


def test_skip_names_file_and_line_and_counts(tmp_path) -> None:
    path = _file(tmp_path)
    items, errors = import_file(path, "longvqubench",
                                options=ImportOptions(video_dir=str(tmp_path)))
    assert [i.id for i in items] == ["q1", "q5"]
    assert [(e.path, e.index) for e in errors] == [(str(path), 2), (str(path), 3),
                                                   (str(path), 4)]
    assert "invalid JSON" in errors[0].reason
    assert "missing field question" in errors[1].reason
    assert "unknown video 'nowhere.mp4'" in errors[2].reason


def test_strict_stops_at_the_first_bad_line(tmp_path) -> None:
    path = _file(tmp_path)
    with pytest.raises(InputError, match=r"lvq_test.jsonl: line 2: invalid JSON.*1 more bad r"):
        import_file(path, "longvqubench", options=ImportOptions(strict=True))
    with pytest.raises(InputError, match=r"line 2: invalid JSON.*2 more bad records"):
        import_file(path, "longvqubench",
                    options=ImportOptions(strict=True, video_dir=str(tmp_path)))


def test_cli_skip_writes_the_good_items_and_says_how_many_were_skipped(tmp_path) -> None:
    path = _file(tmp_path)
    out = tmp_path / "items.jsonl"
    r = CliRunner().invoke(app, ["import", str(path), "--format", "longvqubench", "--out",
                                 str(out), "--video-dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert f"skipped {path}: line 2: invalid JSON" in r.output
    assert f"skipped {path}: line 4: unknown video" in r.output
    assert "2 items" in r.output and "(3 bad records skipped)" in r.output
    assert len(out.read_text().splitlines()) == 2


def test_cli_strict_exits_3_and_writes_nothing(tmp_path) -> None:
    path = _file(tmp_path)
    out = tmp_path / "items.jsonl"
    r = CliRunner().invoke(app, ["import", str(path), "--format", "longvqubench", "--out",
                                 str(out), "--strict"])
    assert r.exit_code == 3
    assert "line 2: invalid JSON" in r.output and "nothing written (strict)" in r.output
    assert "Traceback" not in r.output and not out.exists()
    good = tmp_path / "good.jsonl"
    good.write_text(json.dumps({**GOOD, "id": "g1"}) + "\n")
    r = CliRunner().invoke(app, ["import", str(good), "--format", "longvqubench", "--out",
                                 str(out), "--strict", "--video-dir", str(tmp_path)])
    assert r.exit_code == 0 and out.exists()


def test_unknown_subtitle_setting_is_a_usage_error(tmp_path) -> None:
    path = _file(tmp_path)
    r = CliRunner().invoke(app, ["import", str(path), "--subtitles", "sometimes"])
    assert r.exit_code == 2 and "unknown subtitle setting 'sometimes'" in r.output
