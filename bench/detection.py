"""Detection cases: videos from real clips with one injected event each, and their scoring.

Shared by the detection benchmark (`python -m bench.bench_index detect`) and the test suite,
so both measure the same thing at different sizes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

# (case name, distortion of bench.distort, event type the index must report)
CASES: tuple[tuple[str, str, str], ...] = (
    ("blur", "gaussian_blur", "blur"),
    ("noise", "gaussian_noise", "noise"),
    ("jpeg", "jpeg", "compression"),
    ("brightness", "brightness", "exposure"),
    ("contrast", "contrast", "exposure"),
    ("hue", "hue_shift", "colour"),
    ("saturation", "saturation", "colour"),
    ("flicker", "flicker", "flicker"),
    ("frame_drop", "frame_drop", "frame_drop"),
    ("stutter", "stutter", "stutter"),
    ("jitter", "jitter", "jitter"),
)


def case_plan(
    duration_s: float, seeds: Sequence[int], level: int = 2, needle_s: float = 15.0,
    clean_per_seed: int = 1, names: Sequence[str] | None = None,
) -> list[dict[str, Any]]:
    """One row per video to make: name, seed, distortion, expected type, needle window."""
    rows = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        for name, dist, etype in CASES:
            if names and name not in names:
                continue
            lo, hi = 0.1 * duration_s, 0.9 * duration_s - needle_s
            start = float(np.round(rng.uniform(lo, max(lo, hi)), 2))
            rows.append(dict(name=name, seed=seed, distortion=dist, expect=etype, level=level,
                             start_s=start, end_s=round(start + needle_s, 2)))
        for k in range(clean_per_seed):
            rows.append(dict(name="clean", seed=seed * 100 + k, distortion=None, expect=None,
                             level=None, start_s=None, end_s=None))
    return rows


def _make_one(args: tuple[dict[str, Any], str, float, tuple[int, int], float]) -> dict[str, Any]:
    from bench.synth import make_video, needle

    row, out_dir, duration_s, size, fps = args
    tag = f"{row['name']}-l{row['level']}-s{row['seed']}" if row["distortion"] else (
        f"clean-s{row['seed']}")
    path = Path(out_dir) / f"{tag}-{int(duration_s)}s-{size[0]}x{size[1]}.mp4"
    man_path = path.with_suffix(".json")
    if path.exists() and man_path.exists():
        return json.loads(man_path.read_text())
    needles = []
    if row["distortion"]:
        needles = [needle(row["distortion"], row["level"], row["start_s"], row["end_s"])]
    manifest = make_video(path, duration_s, width=size[0], height=size[1], fps=fps,
                          seed=row["seed"], needles=needles, preset="veryfast")
    manifest["case"] = row
    man_path.write_text(json.dumps(manifest, indent=1))
    return manifest


def make_cases(
    rows: list[dict[str, Any]], out_dir: Path, duration_s: float,
    size: tuple[int, int] = (640, 360), fps: float = 25.0, workers: int = 2,
) -> list[dict[str, Any]]:
    """Write the videos (skipping ones already there) and return their manifests."""
    out_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(r, str(out_dir), duration_s, size, fps) for r in rows]
    if workers <= 1:
        return [_make_one(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_make_one, jobs))


def interval_iou(spans: Sequence[tuple[float, float]], gold: tuple[float, float]) -> float:
    """IoU between the union of predicted spans and one gold span (on a 0.01 s grid)."""
    if not spans:
        return 0.0
    lo = min([gold[0], *(a for a, _ in spans)])
    hi = max([gold[1], *(b for _, b in spans)])
    grid = np.arange(lo, hi, 0.01)
    pred = np.zeros(len(grid), dtype=bool)
    for a, b in spans:
        pred |= (grid >= a) & (grid < b)
    ref = (grid >= gold[0]) & (grid < gold[1])
    union = (pred | ref).sum()
    return float((pred & ref).sum() / union) if union else 0.0


def score_case(case: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    """Did the index find the injected event (IoU >= 0.5), and what else did it report?"""
    if case["expect"] is None:
        return {"ok": not events, "iou": None, "false": [e["type"] for e in events]}
    gold = (case["start_s"], case["end_s"])
    same = [
        (e["start_s"], e["end_s"]) for e in events
        if e["type"] == case["expect"] and e["end_s"] > gold[0] and e["start_s"] < gold[1]
    ]
    iou = interval_iou(same, gold)
    others = [
        e["type"] for e in events
        if not (e["type"] == case["expect"] and e["end_s"] > gold[0] and e["start_s"] < gold[1])
    ]
    return {"ok": iou >= 0.5, "iou": round(iou, 3), "false": others}
