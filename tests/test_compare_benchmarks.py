"""`bench compare` on a mixed run: MCQ accuracy per benchmark (NDQA counts as LongVQUBench),
clustered by video, and the chart's panel for it."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from bench.compare import benchmark_accuracy, chart, compare


def _recs(correct_qb: bool) -> list[dict]:
    recs = []
    for k in range(4):
        recs.append({"id": f"ndqa-{k}", "video": f"n{k % 2}.mp4", "format": "mcq", "gold": "A",
                     "prediction": "A" if k else "B", "level": "LQU", "dimension": "detection"})
    for k in range(2):
        recs.append({"id": f"qbench_video-dev-{k}", "video": f"q{k}.mp4", "format": "mcq",
                     "gold": "B", "prediction": "B" if correct_qb else "A"})
    recs.append({"id": "videomme-001-1", "video": "v.mp4", "format": "mcq", "gold": "C",
                 "prediction": None})
    recs.append({"id": "mmbench_video-1", "video": "m.mp4", "format": "open", "gold": "x",
                 "prediction": "y"})
    recs.append({"id": "qbench_video-dev-9", "video": "a.mp4 + b.mp4", "format": "mcq",
                 "gold": "A", "skipped": "pair item: ..."})
    return recs


def test_benchmark_accuracy_groups_by_benchmark() -> None:
    acc = benchmark_accuracy(_recs(True))
    assert list(acc) == ["longvqubench", "qbench_video", "videomme"]
    assert acc["longvqubench"]["acc"] == pytest.approx(0.75) and acc["longvqubench"]["n"] == 4
    assert acc["longvqubench"]["videos"] == 2
    assert acc["qbench_video"]["n"] == 2 and acc["qbench_video"]["acc"] == 1.0  # skipped out
    assert acc["videomme"]["acc"] == 0.0 and acc["videomme"]["answered"] == 0


def test_compare_draws_the_per_benchmark_panel(tmp_path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(json.dumps(r) + "\n" for r in _recs(False)))
    b.write_text("".join(json.dumps(r) + "\n" for r in _recs(True)))
    sa, sb, n = compare(a, b)
    assert n == 8 and sa["benchmarks"]["qbench_video"]["acc"] == 0.0
    one = chart([("a", sa)], tmp_path / "one.png")
    png = chart([("a", sa), ("b", sb)], tmp_path / "c.png")
    assert png.exists() and Image.open(png).size == Image.open(one).size
    only_lvq = {**sa, "benchmarks": {"longvqubench": sa["benchmarks"]["longvqubench"]}}
    narrow = chart([("a", only_lvq)], tmp_path / "n.png")
    assert Image.open(png).size[0] > Image.open(narrow).size[0]  # the third panel widens it
