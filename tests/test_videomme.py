"""Video-MME in its published layout: duration classes, the with/without-subtitles settings
(subtitles read with pysubs2, picked at uniform frame times, put before the question in the
paper's words) and the summary in the paper's table-4 layout."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from bench.cli import app
from bench.importers import ImportOptions, import_file
from bench.importers.subtitles import PREAMBLE, at_times, cues, subtitle_block
from bench.items import load_items

ROWS = [
    {"video_id": "001", "duration": "short", "domain": "Knowledge", "sub_category": "Humanity",
     "url": "https://example.org/a", "videoID": "aaaa", "question_id": "001-1",
     "task_type": "Counting Problem", "question": "How many people appear?",
     "options": ["A. One.", "B. Two.", "C. Three.", "D. Four."], "answer": "B"},
    {"video_id": "002", "duration": "medium", "domain": "Sports", "sub_category": "Football",
     "url": "https://example.org/b", "videoID": "bbbb", "question_id": "002-1",
     "task_type": "Action Recognition", "question": "What does the player do?",
     "options": ["A. Runs.", "B. Jumps.", "C. Falls.", "D. Sits."], "answer": "C"},
    {"video_id": "003", "duration": "long", "domain": "Film", "sub_category": "Movie",
     "url": "https://example.org/c", "videoID": "cccc", "question_id": "003-1",
     "task_type": "OCR Problems", "question": "What is written on the sign?",
     "options": ["A. Stop.", "B. Go.", "C. Exit.", "D. Open."], "answer": "A"},
]
SRT = """1
00:00:01,000 --> 00:00:03,000
Welcome to the <i>show</i>.

2
00:00:10,000 --> 00:00:12,000
Two people walk in.

3
00:00:50,000 --> 00:00:55,000
Goodbye.
"""


@pytest.fixture()
def published(tmp_path):
    """videomme/test-00000-of-00001.parquet and subtitle/aaaa.srt, as the dataset lays them."""
    root = tmp_path / "videomme"
    (root / "subtitle").mkdir(parents=True)
    (root / "subtitle" / "aaaa.srt").write_text(SRT)
    path = root / "test-00000-of-00001.parquet"
    pq.write_table(pa.Table.from_pylist(ROWS), path)
    return path


def test_cues_are_read_and_picked_at_frame_times(published) -> None:
    found = cues(published.parent / "subtitle" / "aaaa.srt")
    assert found[0] == (1.0, 3.0, "Welcome to the show.")
    assert at_times(found, [2.0, 2.5, 11.0]) == ["Welcome to the show.", "Two people walk in."]
    assert at_times(found, [40.0]) == ["Goodbye."]  # nearest when none is showing
    assert subtitle_block(published.parent / "subtitle" / "aaaa.srt", 60.0, 60).count("\n") == 2


def test_both_settings_where_subtitles_exist(published) -> None:
    items, errors = import_file(published, "videomme", options=ImportOptions(subtitles="both"))
    assert not errors
    ids = [i.id for i in items]
    assert ids == ["videomme-001-1", "videomme-001-1-sub", "videomme-002-1", "videomme-003-1"]
    plain, sub = items[0], items[1]
    assert plain.tags["duration"] == "short" and plain.tags["subtitles"] == "without"
    assert plain.question == "How many people appear?"
    assert sub.tags["subtitles"] == "with" and sub.gold == "B" and sub.videos == ["aaaa.mp4"]
    assert sub.question.startswith(PREAMBLE + "\nWelcome to the show.\nTwo people walk in.")
    assert sub.question.endswith("\n\nHow many people appear?")
    assert [i.tags["duration"] for i in items[2:]] == ["medium", "long"]
    only_with, _ = import_file(published, "videomme", options=ImportOptions(subtitles="with"))
    assert [i.id for i in only_with] == ["videomme-001-1-sub"]


def test_summary_in_the_duration_by_subtitles_layout(published, tmp_path) -> None:
    out = tmp_path / "items.jsonl"
    r = CliRunner().invoke(app, ["import", str(published), "--subtitles", "both", "--out",
                                 str(out)])
    assert r.exit_code == 0, r.output
    items, _ = load_items(out)
    preds = {"videomme-001-1": "B", "videomme-001-1-sub": "B", "videomme-002-1": "A",
             "videomme-003-1": "A"}
    results = tmp_path / "run.jsonl"
    results.write_text("".join(json.dumps(
        {"id": it.id, "video": it.video, "format": "mcq", "gold": it.gold,
         "prediction": preds[it.id]}) + "\n" for it in items))
    r = CliRunner().invoke(app, ["summary", str(results), "--items", str(out), "--json"])
    assert r.exit_code == 0, r.output
    table = json.loads(r.output)["videomme"]["duration_subtitles"]
    assert table["short / without"]["mean"] == 1.0 and table["medium / without"]["mean"] == 0.0
    assert table["long / without"]["mean"] == 1.0 and table["short / with"]["n"] == 1
    assert table["overall / without"]["mean"] == pytest.approx(2 / 3)
    assert list(table)[:4] == ["short / without", "medium / without", "long / without",
                               "overall / without"]
    text = CliRunner().invoke(app, ["summary", str(results), "--items", str(out)]).output
    assert "Video-MME accuracy % (table 4: duration x subtitles)" in text
    r = CliRunner().invoke(app, ["summary", str(results), "--json"])
    assert "pass --items" in r.output
