"""Importers: small files in each source format, including bad records that are skipped."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from bench.importers import detect_format, gold_letter, import_file, qbench_videos
from bench.items import write_items

# ---------------------------------------------------------------- Q-Bench-Video

QBENCH = [
    {
        "video_name": "06638_08.mp4",
        "question": "How realistic is the waterfall in the video?",
        "answers": ["Good", "Very poor", "Poor", "Average"],
        "video_type": "AIGC",
        "question_type": "what/how",
        "context": "Global",
        "correct_choice": "B",
    },
    {
        "video_name": "a.mp4_cat_b.mp4",
        "question": "How does the brightness of the first video compare to the second?",
        "answers": ["Much higher", "Slightly higher", "About the same", "Much lower"],
        "question_type": "what/how",
        "context": "Compare-Coarse",
        "correct_choice": 3,
    },
    {
        "video_name": "c.mp4",
        "question": "Is this video blurry?",
        "answers": ["Yes", "No", "", ""],
        "question_type": "yes/no",
        "context": "Global",
        "correct_choice": "No",
    },
    {
        "video_name": "d.mp4",
        "question": "Why is the clarity of this video low? Please explain.",
        "answers": [],
        "question_type": "open_ended",
        "context": "Global",
        "correct_choice": "Heavy compression blocks and out-of-focus shots.",
    },
    {"video_name": "e.mp4", "answers": ["x", "y"], "question_type": "yes/no"},  # no question
    {
        "video_name": "f.mp4",
        "question": "Which?",
        "answers": ["x", "y"],
        "question_type": "what/how",
        "correct_choice": "E",
    },
]


def test_qbench_pairs() -> None:
    assert qbench_videos("a.mp4_cat_b.mp4") == ["a.mp4", "b.mp4"]
    assert qbench_videos("a.mp4_cat_b.mp4.mp4") == ["a.mp4", "b.mp4"]
    assert qbench_videos("single.mp4") == ["single.mp4"]


def test_gold_letter_forms() -> None:
    opts = ["Good", "Very poor", "Poor"]
    assert gold_letter("B", opts) == "B"
    assert gold_letter("b", opts) == "B"
    assert gold_letter("C. Poor", opts) == "C"
    assert gold_letter(0, opts) == "A"
    assert gold_letter("very poor", opts) == "B"
    assert gold_letter(None, opts) is None
    with pytest.raises(ValueError):
        gold_letter(3, opts)
    with pytest.raises(ValueError):
        gold_letter("Excellent", opts)


def test_qbench_video_json(tmp_path) -> None:
    path = tmp_path / "Q_Bench_Video_dev.json"
    path.write_text(json.dumps(QBENCH))
    assert detect_format(path) == "qbench_video"
    items, errors = import_file(path)
    assert len(items) == 4
    single, pair, yesno, open_ = items
    assert single.split == "dev" and single.benchmark == "qbench_video"
    assert single.format == "mcq" and single.gold == "B" and single.gold_text == "Very poor"
    assert single.tags == {"video_type": "AIGC", "context": "Global", "pair": False}
    assert single.original == QBENCH[0]
    assert pair.videos == ["a.mp4", "b.mp4"] and pair.tags["pair"] is True
    assert pair.gold == "D"
    assert yesno.options == ["Yes", "No"] and yesno.gold == "B"
    assert open_.format == "open" and open_.options == []
    assert open_.gold == "Heavy compression blocks and out-of-focus shots."
    assert len({i.id for i in items}) == 4
    assert [(e.unit, e.index) for e in errors] == [("record", 5), ("record", 6)]
    assert "question" in errors[0].reason
    assert "'E'" in errors[1].reason


# ---------------------------------------------------------------- Video-MME


def _vmme_row(qid: str, answer: str, **kw) -> dict:
    row = {
        "video_id": "001",
        "duration": "short",
        "domain": "Knowledge",
        "sub_category": "Humanity & History",
        "url": "https://www.youtube.com/watch?v=fFjv93ACGo8",
        "videoID": "fFjv93ACGo8",
        "question_id": qid,
        "task_type": "Counting Problem",
        "question": "How many people appear?",
        "options": ["A. One.", "B. Two.", "C. Three.", "D. Four."],
        "answer": answer,
    }
    row.update(kw)
    return row


def test_videomme_parquet(tmp_path) -> None:
    rows = [_vmme_row("001-1", "C"), _vmme_row("001-2", "F"), _vmme_row("001-3", "A")]
    path = tmp_path / "test-00000-of-00001.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path)
    assert detect_format(path) == "videomme"
    items, errors = import_file(path)
    assert [i.id for i in items] == ["videomme-001-1", "videomme-001-3"]
    first = items[0]
    assert first.options == ["One.", "Two.", "Three.", "Four."]
    assert first.gold == "C" and first.gold_text == "Three."
    assert first.videos == ["fFjv93ACGo8.mp4"]
    assert first.question_type == "Counting Problem"
    assert first.tags["duration"] == "short" and first.tags["domain"] == "Knowledge"
    assert first.original == rows[0]
    assert len(errors) == 1 and errors[0].index == 2 and errors[0].unit == "row"


def test_videomme_nested_json(tmp_path) -> None:
    video = {k: v for k, v in _vmme_row("x", "A").items() if k in ("video_id", "duration")}
    video["domain"] = "Sports Competition"
    video["questions"] = [
        {
            k: v
            for k, v in _vmme_row(f"001-{i}", a).items()
            if k not in video and k not in ("videoID", "url")
        }
        for i, a in ((1, "A"), (2, "D"))
    ]
    path = tmp_path / "videomme.json"
    path.write_text(json.dumps([video]))
    assert detect_format(path) == "videomme"
    items, errors = import_file(path)
    assert errors == []
    assert [i.gold for i in items] == ["A", "D"]
    assert items[1].tags["domain"] == "Sports Competition"
    assert items[1].videos == ["001.mp4"]  # no videoID column: the video_id names the file


# ---------------------------------------------------------------- MMBench-Video


def test_mmbench_video_tsv(tmp_path) -> None:
    header = "index\tvideo\tvideo_type\tquestion\tanswer\tdimensions"
    rows = [
        "0\tvidA\tNews\tHow many cars pass?\tThree cars.\t['Counting', 'Attribute Recognition']",
        "1\tvidB\tSports\tWho wins?\tThe red team.",  # a field short
        "2\tvidC\tSports\tWhat is the score?\t2-1\t[__import__('os').getcwd()]",  # not a literal
        '3\tvidD\tVlog\t"Where, ""exactly""?"\tA park.\t["Video Scene"]',
    ]
    path = tmp_path / "MMBench-Video.tsv"
    path.write_text("\n".join([header, *rows]) + "\n")
    assert detect_format(path) == "mmbench_video"
    items, errors = import_file(path)
    assert [i.id for i in items] == ["mmbench_video-0", "mmbench_video-3"]
    a, d = items
    assert a.format == "open" and a.gold == "Three cars." and a.options == []
    assert a.videos == ["vidA.mp4"]
    assert a.tags["dimensions"] == ["Counting", "Attribute Recognition"]
    assert a.tags["dimension"] == "Counting"
    assert a.original["dimensions"] == "['Counting', 'Attribute Recognition']"
    assert d.question == 'Where, "exactly"?'
    assert [(e.unit, e.index) for e in errors] == [("line", 3), ("line", 4)]
    assert "fields" in errors[0].reason


# ---------------------------------------------------------------- LongVQUBench-style


LVQ = [
    {
        "id": "lqu-001",
        "video": "videos/long_001.mp4",
        "duration": 754.0,
        "question": "Is there any flicker in the video?",
        "options": ["A. Yes", "B. No"],
        "answer": "A",
        "dimension": "Detection",
        "question_type": "Yes-or-No",
        "distortions": [
            {"type": "flicker", "level": 2, "intensity": 0.7, "start": 120, "end": 135}
        ],
        "spans": [[120, 135]],
    },
    {
        "video_id": "long_002",
        "level": "GQU",
        "questions": [
            {
                "question": "How does the quality evolve?",
                "choices": {"A": "Improves", "B": "Stable", "C": "Degrades"},
                "answer": "Degrades",
                "dimension": "TA",
            },
            {
                "question": "Explain why the overall quality is low.",
                "format": "open_ended",
                "answer": "Persistent noise and a blocky middle section.",
            },
        ],
    },
    {
        "id": "bad",
        "video": "x.mp4",
        "question": "?",
        "level": "LQU",
        "dimension": "CMP",
        "options": ["a", "b"],
        "answer": "A",
    },
]


def test_longvqubench_jsonl(tmp_path) -> None:
    path = tmp_path / "longvqubench_val.jsonl"
    lines = [json.dumps(LVQ[0]), "{broken", json.dumps(LVQ[1]), json.dumps(LVQ[2])]
    path.write_text("\n".join(lines) + "\n")
    assert detect_format(path) == "longvqubench"
    items, errors = import_file(path)
    assert [i.id for i in items] == [
        "lqu-001",
        "longvqubench-val-00003-0",
        "longvqubench-val-00003-1",
    ]
    det, trend, open_ = items
    assert det.split == "val"
    assert det.options == ["Yes", "No"] and det.gold == "A"
    assert det.tags["level"] == "LQU" and det.tags["dimension"] == "detection"
    assert det.tags["ndqa"] is True
    assert det.tags["duration"] == "medium" and det.tags["duration_s"] == 754.0
    assert det.spans[0].start_s == 120 and det.spans[0].end_s == 135
    assert det.distortions[0].params == {"intensity": 0.7}
    assert det.distortions[0].start_s == 120.0
    assert det.original == LVQ[0]
    assert trend.options == ["Improves", "Stable", "Degrades"] and trend.gold == "C"
    assert trend.tags["dimension"] == "trend" and trend.tags["level"] == "GQU"
    assert trend.videos == ["long_002.mp4"]
    assert open_.format == "open" and open_.tags["dimension"] == "open_reasoning"
    assert open_.tags["level"] == "GQU"
    assert open_.gold == "Persistent noise and a blocky middle section."
    assert [e.index for e in errors] == [2, 4]
    assert "CQR" in errors[1].reason


def test_items_format_and_unknown(tmp_path) -> None:
    src = tmp_path / "longvqubench.json"
    src.write_text(json.dumps(LVQ[:2]))
    items, errors = import_file(src)
    assert errors == [] and len(items) == 3
    out = tmp_path / "items.jsonl"
    write_items(out, items)
    assert detect_format(out) == "items"
    again, errors = import_file(out)
    assert again == items and errors == []

    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps([{"foo": 1}]))
    with pytest.raises(ValueError, match="qbench_video"):
        detect_format(odd)
    with pytest.raises(ValueError, match="unknown format"):
        import_file(odd, fmt="nope")
