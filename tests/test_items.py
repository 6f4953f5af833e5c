"""Item schema, dimension constants, letters, and JSONL load/write with bad lines reported."""

from __future__ import annotations

import json
import os
import stat

import pytest
from pydantic import ValidationError

from bench.items import (
    DIMENSIONS_BY_LEVEL,
    LEVELS,
    MCQ_DIMENSIONS,
    OPEN_DIMENSION,
    Item,
    Span,
    canonical_dimension,
    dimension,
    duration_class,
    letter,
    letter_index,
    load_items,
    option_letters,
    render_options,
    strip_letter_prefix,
    write_items,
)


def _mcq(**kw) -> dict:
    base = {
        "id": "q1",
        "benchmark": "longvqubench",
        "videos": ["v1.mp4"],
        "question": "When does flicker occur?",
        "format": "mcq",
        "options": ["0-15 s", "15-30 s", "30-45 s", "No flicker"],
        "gold": "B",
        "tags": {"level": "LQU", "dimension": "localization", "ndqa": True},
        "spans": [{"start_s": 15.0, "end_s": 30.0, "label": "flicker"}],
        "distortions": [
            {
                "type": "flicker",
                "level": 2,
                "params": {"intensity": 0.7},
                "start_s": 15,
                "end_s": 30,
            }
        ],
        "original": {"anything": [1, 2, {"x": None}]},
    }
    base.update(kw)
    return base


def test_twelve_mcq_dimensions_in_table4_order() -> None:
    abbrs = [d.abbr for d in MCQ_DIMENSIONS]
    assert abbrs == ["D", "L", "C", "SA", "CMP", "CE", "I", "TR", "SE", "DFI", "TA", "OE"]
    assert list(DIMENSIONS_BY_LEVEL) == list(LEVELS)
    assert all(len(dims) == 4 for dims in DIMENSIONS_BY_LEVEL.values())
    assert {d.level for d in DIMENSIONS_BY_LEVEL["CQR"]} == {"CQR"}
    assert len({d.key for d in MCQ_DIMENSIONS}) == 12


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("SA", "severity_comfort"),
        ("Severity & Comfort", "severity_comfort"),
        ("dfi", "dominant_factor"),
        ("Stability & Consistency", "stability"),
        ("Temporal Relation", "temporal_relation"),
        ("temporal-relation", "temporal_relation"),
        ("Open-Ended", OPEN_DIMENSION),
    ],
)
def test_canonical_dimension(text: str, key: str) -> None:
    assert canonical_dimension(text) == key


def test_unknown_dimension_lists_choices() -> None:
    with pytest.raises(ValueError, match="severity_comfort"):
        canonical_dimension("sharpness")
    assert dimension("TA").level == "GQU"
    with pytest.raises(ValueError):
        dimension("open reasoning")


def test_letters() -> None:
    assert letter(0) == "A" and letter(25) == "Z"
    assert option_letters(4) == ["A", "B", "C", "D"]
    assert letter_index("c") == 2
    with pytest.raises(ValueError):
        letter(26)
    with pytest.raises(ValueError):
        letter_index("AB")
    assert render_options(["x", "y"]) == "A. x\nB. y"
    assert strip_letter_prefix("A. Much higher") == "Much higher"
    assert strip_letter_prefix("(C) Poor") == "Poor"
    assert strip_letter_prefix("A little blurry") == "A little blurry"


def test_duration_class() -> None:
    assert duration_class(599) == "short"
    assert duration_class(600) == "medium"
    assert duration_class(1800) == "long"


def test_item_validation() -> None:
    item = Item.model_validate(_mcq())
    assert item.gold_text == "15-30 s"
    assert item.video == "v1.mp4"
    with pytest.raises(ValidationError, match="gold"):
        Item.model_validate(_mcq(gold="E"))
    with pytest.raises(ValidationError, match="letter prefix"):
        Item.model_validate(_mcq(options=["A. yes", "B. no"], gold="A"))
    with pytest.raises(ValidationError, match="'answer' is not allowed"):
        Item.model_validate({**_mcq(), "answer": "B"})
    with pytest.raises(ValidationError, match="no options"):
        Item.model_validate(_mcq(format="open", gold="text"))
    with pytest.raises(ValidationError, match="tags.level"):
        Item.model_validate(_mcq(tags={"level": "XYZ"}))
    with pytest.raises(ValidationError):
        Item.model_validate(_mcq(videos=["a.mp4", "b.mp4", "c.mp4"]))
    with pytest.raises(ValidationError, match="before it starts"):
        Span(start_s=10, end_s=5)


def test_write_then_load_round_trip(tmp_path) -> None:
    a = Item.model_validate(_mcq())
    b = Item.model_validate(
        _mcq(id="q2", format="open", options=[], gold="Flicker at 15-30 s.", videos=["a", "b"])
    )
    path = tmp_path / "sub" / "items.jsonl"
    assert write_items(path, [a, b]) == 2
    items, errors = load_items(path)
    assert errors == []
    assert items == [a, b]
    assert items[0].original == {"anything": [1, 2, {"x": None}]}
    assert "answer" not in path.read_text()
    assert [p.name for p in path.parent.iterdir()] == ["items.jsonl"]  # no temp file left


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_written_items_follow_the_umask(tmp_path, umask) -> None:
    old = os.umask(umask)
    try:
        write_items(tmp_path / "items.jsonl", [Item.model_validate(_mcq())])
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "items.jsonl").stat().st_mode) == 0o666 & ~umask


def test_bad_lines_are_reported_and_skipped(tmp_path) -> None:
    lines = [
        json.dumps(_mcq(id="ok1")),
        "{not json",
        "",
        json.dumps({**_mcq(id="bad-answer"), "answer": "B"}),
        json.dumps(_mcq(id="bad-gold", gold="F")),
        json.dumps(_mcq(id="ok1")),
        json.dumps(_mcq(id="ok2")),
    ]
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(lines) + "\n")
    items, errors = load_items(path)
    assert [i.id for i in items] == ["ok1", "ok2"]
    assert [e.index for e in errors] == [2, 4, 5, 6]
    assert "json" in errors[0].reason.lower()
    assert "'answer' is not allowed" in errors[1].reason
    assert "'F'" in errors[2].reason
    assert "duplicate" in errors[3].reason
    assert str(errors[0]).startswith(f"{path}: line 2: ")
