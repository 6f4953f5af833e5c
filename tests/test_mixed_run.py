"""A mixed item file, built here from files in each benchmark's published layout: LongVQUBench
(MCQ, open, NDQA), Q-Bench-Video (single and pair), MMBench-Video and Video-MME (both subtitle
settings). Run end to end with the local brain on both tracks: every item is answered or skipped
with a reason, never aborted; the summary has each paper's tables."""

from __future__ import annotations

import csv
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from bench.cli import app
from bench.importers import ImportOptions, import_file
from bench.items import load_items, write_items
from bench.runner import read_results

LVQ = [{"video": "b.mp4", "duration": 12, "questions": [
    {"id": "lvq-mcq", "question": "Is there any blur in the video?", "options": ["Yes", "No"],
     "answer": "A", "level": "LQU", "dimension": "detection"},
    {"id": "lvq-open", "question": "Describe the quality problems of this video.",
     "answer": "Gaussian blur from 1 s to 11 s makes the picture soft.",
     "format": "open", "level": "LQU"},
    {"id": "lvq-ndqa", "question": "When does the blur occur?",
     "options": ["00:00:01 - 00:00:11", "00:00:00 - 00:00:01", "never", "all the time"],
     "answer": "A", "level": "LQU", "dimension": "localization",
     "distortions": [{"type": "gaussian_blur", "level": 3, "start_s": 1, "end_s": 11}],
     "spans": [[1, 11]]}]}]
QBENCH = [
    {"id": "qb-single", "video_name": "a.mp4", "question": "How is the clarity of this video?",
     "answers": ["Good", "Poor", "", ""], "correct_choice": 0, "question_type": "what/how",
     "concern": "Technical", "context": "Global"},
    {"id": "qb-pair", "video_name": "a.mp4_cat_b.mp4",
     "question": "Which video has better quality?",
     "answers": ["The first video", "The second video"], "correct_choice": 0,
     "question_type": "what/how", "concern": "Technical", "context": "Compare-coarse"},
    {"id": "qb-open", "video_name": "b.mp4", "question": "What distortion does the video show?",
     "answers": ["The whole video is blurry."], "question_type": "open-ended",
     "concern": "Technical", "context": "Global"},
]
MMBENCH = [{"index": "7", "video": "a", "question": "What happens in the video?",
            "answer": "Shapes move across the frame.", "dimensions": "['Action Recognition']"}]
VMME = [{"video_id": "001", "duration": "short", "domain": "Knowledge",
         "sub_category": "Humanity", "url": "https://example.org/a", "videoID": "c",
         "question_id": "001-1", "task_type": "Counting Problem",
         "question": "How many scenes are there?",
         "options": ["A. One.", "B. Two.", "C. Three.", "D. Four."], "answer": "A"}]
SRT = "1\n00:00:01,000 --> 00:00:04,000\nHello there.\n\n2\n00:00:06,000 --> 00:00:09,000\n" \
      "A second line.\n"


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Three 10-s videos, the four published files, and their items merged into one file."""
    from bench.synth import make_video, needle

    root = tmp_path_factory.mktemp("mixed")
    make_video(root / "a.mp4", 10, width=320, height=180, seed=4, preset="ultrafast")
    make_video(root / "b.mp4", 10, width=320, height=180, seed=4, preset="ultrafast",
               needles=[needle("gaussian_blur", 3, 1, 9)])
    make_video(root / "c.mp4", 10, width=320, height=180, seed=5, preset="ultrafast")
    (root / "lvq_test.json").write_text(json.dumps(LVQ))
    (root / "qbench_dev.json").write_text(json.dumps(QBENCH))
    with open(root / "mmbench_video.tsv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(MMBENCH[0]), delimiter="\t")
        w.writeheader()
        w.writerows(MMBENCH)
    pq.write_table(pa.Table.from_pylist(VMME), root / "videomme.parquet")
    (root / "subtitle").mkdir()
    (root / "subtitle" / "c.srt").write_text(SRT)
    items = []
    opts = ImportOptions(strict=True, video_dir=str(root), subtitles="both")
    for name in ("lvq_test.json", "qbench_dev.json", "mmbench_video.tsv", "videomme.parquet"):
        got, errors = import_file(root / name, options=opts)
        assert not errors and got
        items += got
    write_items(root / "items.jsonl", items)
    return root, items


def test_the_mixed_file_holds_every_kind(mixed) -> None:
    _, items = mixed
    kinds = {(i.benchmark, i.format, len(i.videos), bool(i.distortions),
              i.tags.get("subtitles")) for i in items}
    assert ("longvqubench", "mcq", 1, False, None) in kinds
    assert ("longvqubench", "open", 1, False, None) in kinds
    assert ("longvqubench", "mcq", 1, True, None) in kinds  # NDQA
    assert ("qbench_video", "mcq", 2, False, None) in kinds  # a pair
    assert ("qbench_video", "open", 1, False, None) in kinds
    assert ("mmbench_video", "open", 1, False, None) in kinds
    assert {("videomme", "mcq", 1, False, s) for s in ("with", "without")} <= kinds


@pytest.mark.parametrize("track", ["uniform", "agent"])
def test_a_mixed_run_answers_or_skips_every_item(mixed, track, tmp_path) -> None:
    root, items = mixed
    out = tmp_path / f"{track}.jsonl"
    r = CliRunner().invoke(app, ["run", "--items", str(root / "items.jsonl"), "--track", track,
                                 "--out", str(out), "--cache-dir", str(tmp_path / "cache"),
                                 "--frames", "8", "--no-open-score", "--quiet"])
    assert r.exit_code == 0, r.output
    recs = read_results(out)
    assert set(recs) == {i.id for i in items}
    for rec in recs.values():
        assert rec.get("error") is None, (rec["id"], rec.get("error"))
        assert rec.get("skipped") or rec.get("response"), rec["id"]
    quality_mcq = [i for i in items if i.format == "mcq" and i.benchmark != "videomme"]
    assert all(recs[i.id]["prediction"] for i in quality_mcq if not recs[i.id].get("skipped"))
    # Video-MME asks about content, which the local brain declines in words (no letter: wrong)
    loaded, _ = load_items(root / "items.jsonl")
    r = CliRunner().invoke(app, ["summary", str(out), "--items", str(root / "items.jsonl"),
                                 "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)
    assert set(s) == {"longvqubench", "qbench_video", "mmbench_video", "videomme"}
    assert s["longvqubench"]["mcq_accuracy"]["Overall"]["n"] == 2
    assert s["qbench_video"]["single_pairs"]["Pairs overall"]["n"] == 1
    assert s["videomme"]["duration_subtitles"]["short / with"]["n"] == 1
    assert any("no judge endpoint configured" in m for m in s["mmbench_video"]["missing"])
