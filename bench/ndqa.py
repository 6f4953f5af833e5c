"""NDQA generator: long videos from source clips with needle distortions in 15-second
segments, and LongVQUBench-style items with exact ground truth.

Each video belongs to one level. LQU: one needle. CQR: two to four needles of different,
non-confusable types at separate positions, one strictly the most severe. GQU: a global
pattern (degrading, improving, stable under one distortion, fluctuating, one dominant
distortion, or a clean control). Items (bench.questions_ndqa) cover the four MCQ dimensions of
the video's level plus open-ended questions with reference answers; correct letters and yes/no
answers are balanced. Everything follows from the seed: the same seed gives the same plan,
videos and items.

    bench ndqa --out DIR --videos 30 --minutes 3 --seed 7
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from bench import distort
from bench.items import LEVELS, write_items
from bench.questions_ndqa import (
    SEGMENT_S,
    Needle,
    VideoPlan,
    build_items,
    category,
    confusable,
    grade,
    impairment,
    summary,
)

MIN_SEGMENTS = 4
GQU_PATTERNS = ("degrading", "improving", "stable", "fluctuating", "dominant", "clean")
POISSON_LEVEL = 2  # no intensity levels in table S5; ours is std ~ 2*sqrt(grey): moderate
VERSION = 1


# ---------------------------------------------------------------- plan


@dataclass(frozen=True)
class NdqaConfig:
    """Everything that decides a generated set (stored in the manifest)."""

    videos: int = 30
    minutes: float = 3.0
    max_minutes: float | None = None
    seed: int = 0
    pool: tuple[str, ...] = tuple(distort.DISTORTIONS)
    levels: tuple[str, ...] = LEVELS
    needle_levels: tuple[int, ...] = (1, 2, 3)
    per_dimension: int = 2
    open_per_video: int = 2
    width: int = 640
    height: int = 360
    fps: float = 25.0

    def check(self) -> None:
        """ValueError naming the bad setting."""
        if self.videos < 1:
            raise ValueError("--videos must be at least 1")
        lo = self.minutes * 60 / SEGMENT_S
        if lo < MIN_SEGMENTS:
            raise ValueError(f"--minutes must give at least {MIN_SEGMENTS} segments of "
                             f"{SEGMENT_S:g} s (>= {MIN_SEGMENTS * SEGMENT_S / 60:g} min)")
        if self.max_minutes is not None and self.max_minutes < self.minutes:
            raise ValueError("--max-minutes must not be below --minutes")
        if (self.max_minutes or self.minutes) > 120:
            raise ValueError("videos longer than 120 minutes are not supported")
        for name in self.pool:
            distort.get(name)
        if not self.pool:
            raise ValueError("the distortion pool is empty")
        for lvl in self.levels:
            if lvl not in LEVELS:
                raise ValueError(f"unknown level {lvl!r}; valid: {', '.join(LEVELS)}")
        if not self.needle_levels or not set(self.needle_levels) <= {1, 2, 3}:
            raise ValueError("--needle-levels must be some of 1, 2, 3")
        if "CQR" in self.levels and len(set(self.needle_levels)) < 2:
            raise ValueError("CQR needs at least two needle levels (one needle is the worst)")
        cats = {category(n) for n in self.pool}
        if "CQR" in self.levels and _max_compatible(cats) < 2:
            raise ValueError("CQR needs at least two non-confusable distortion types in the pool")
        if self.per_dimension < 1 or self.open_per_video < 0:
            raise ValueError("--per-dimension must be >= 1 and --open >= 0")


def _max_compatible(cats: set[str]) -> int:
    """Size of a greedy set of mutually non-confusable categories."""
    chosen: list[str] = []
    for c in sorted(cats):
        if all(not confusable(c, d) for d in chosen):
            chosen.append(c)
    return len(chosen)


class _Bag:
    """Draws from a seeded shuffle of a pool, refilled when empty: every value comes up
    equally often across the set."""

    def __init__(self, values: Sequence[Any], rng: np.random.Generator) -> None:
        self.values, self.rng, self.left = list(values), rng, []

    def draw(self, ok: Callable[[Any], bool] = lambda v: True) -> Any:
        for _ in range(2):
            if not self.left:
                self.left = [self.values[i] for i in self.rng.permutation(len(self.values))]
            for i, v in enumerate(self.left):
                if ok(v):
                    return self.left.pop(i)
            self.left = []
        choices = [v for v in self.values if ok(v)]
        if not choices:
            raise ValueError("no value in the pool satisfies the constraint")
        return choices[int(self.rng.integers(len(choices)))]


def _level_of(name: str, bag: _Bag) -> int:
    return POISSON_LEVEL if name == "poisson_noise" else int(bag.draw())


def plan_videos(cfg: NdqaConfig) -> list[VideoPlan]:
    """The seeded plan of every video: level, pattern, duration and needles."""
    cfg.check()
    rng = np.random.default_rng([cfg.seed, 101])
    kinds = _Bag(cfg.pool, rng)
    levels = _Bag(sorted(set(cfg.needle_levels)), rng)
    patterns = _Bag(GQU_PATTERNS, rng)
    plans = []
    for k in range(cfg.videos):
        level = cfg.levels[k % len(cfg.levels)]
        lo = cfg.minutes * 60 / SEGMENT_S
        hi = (cfg.max_minutes or cfg.minutes) * 60 / SEGMENT_S
        n_seg = int(round(rng.uniform(lo, hi))) if hi > lo else int(round(lo))
        plan = VideoPlan(f"v{k:03d}", level, "", n_seg * SEGMENT_S, cfg.seed * 1000 + k)
        if level == "LQU":
            _plan_lqu(plan, rng, kinds, levels)
        elif level == "CQR":
            _plan_cqr(plan, rng, kinds, levels)
        else:
            _plan_gqu(plan, rng, kinds, levels, str(patterns.draw()))
        plans.append(plan)
    return plans


def _span(i: int, j: int | None = None) -> tuple[float, float]:
    return i * SEGMENT_S, ((j if j is not None else i) + 1) * SEGMENT_S


def _plan_lqu(p: VideoPlan, rng: np.random.Generator, kinds: _Bag, levels: _Bag) -> None:
    p.pattern = "single"
    name = kinds.draw()
    a, b = _span(int(rng.integers(p.n_segments)))
    p.needles = [Needle(name, _level_of(name, levels), a, b)]


def _separated(n_seg: int, m: int, rng: np.random.Generator) -> list[int]:
    """m segment indices, no two adjacent (at least one clean segment between needles)."""
    for _ in range(1000):
        idx = sorted(rng.choice(n_seg, size=m, replace=False).tolist())
        if all(b - a >= 2 for a, b in zip(idx, idx[1:], strict=False)):
            return idx
    return list(range(0, 2 * m, 2))


def _plan_cqr(p: VideoPlan, rng: np.random.Generator, kinds: _Bag, levels: _Bag) -> None:
    p.pattern = "multi"
    m = int(rng.integers(2, min(4, (p.n_segments + 1) // 2) + 1))
    names: list[str] = []
    for _ in range(m):
        try:
            names.append(kinds.draw(lambda n: all(not confusable(category(n), category(o))
                                                  for o in names)))
        except ValueError:
            break
    segs = _separated(p.n_segments, len(names), rng)
    # One needle is strictly the most severe, so "which is worst" has one answer.
    top = int(rng.integers(len(names)))
    allowed = sorted(set(levels.values))
    top_level = allowed[-1] if names[top] != "poisson_noise" else POISSON_LEVEL
    if names[top] != "poisson_noise" and rng.random() < 0.3 and len(allowed) >= 3:
        top_level = allowed[-2]
    needles = []
    for i, (name, s) in enumerate(zip(names, segs, strict=True)):
        if i == top:
            lvl = top_level
        elif name == "poisson_noise":
            lvl = POISSON_LEVEL
        else:
            lvl = int(levels.draw(lambda v, t=top_level: v < t))
        needles.append(Needle(name, lvl, *_span(s)))
    if sum(n.level == max(x.level for x in needles) for n in needles) > 1:
        # poisson (fixed level 2) tied with the top: lift the top to the highest level
        needles[top] = Needle(names[top], max(3, allowed[-1]), needles[top].start_s,
                              needles[top].end_s) if names[top] != "poisson_noise" \
            else needles[top]
    p.needles = needles


def _plan_gqu(p: VideoPlan, rng: np.random.Generator, kinds: _Bag, levels: _Bag,
              pattern: str) -> None:
    p.pattern = pattern
    n = p.n_segments
    if pattern == "clean":
        return
    name = kinds.draw(lambda v: v != "poisson_noise" or pattern in ("stable", "fluctuating"))
    allowed = sorted(set(levels.values))
    top2 = allowed[-2:]
    if pattern in ("degrading", "improving"):
        clean = n // 3
        blocks = np.array_split(np.arange(clean, n), len(allowed))
        lv = list(allowed)
        if pattern == "improving":
            blocks = np.array_split(np.arange(0, n - clean), len(allowed))
            lv = lv[::-1]
        p.needles = [Needle(name, lvl, *_span(int(b[0]), int(b[-1])))
                     for b, lvl in zip(blocks, lv, strict=True) if len(b)]
    elif pattern == "stable":
        p.needles = [Needle(name, _level_of(name, levels), 0.0, p.duration_s)]
    elif pattern == "fluctuating":
        first = int(rng.integers(2))
        lv = POISSON_LEVEL if name == "poisson_noise" else None
        p.needles = [Needle(name, lv or top2[(k + first) % len(top2)], *_span(s))
                     for k, s in enumerate(range(1, n, 2))]
    elif pattern == "dominant":
        size = max(2, n // 3)
        other = kinds.draw(lambda v: v != "poisson_noise"
                           and not confusable(category(v), category(name)))
        main_level = top2[int(rng.integers(len(top2)))]
        lower = [v for v in allowed if v < main_level] or [main_level]
        for _ in range(100):
            start = int(rng.integers(0, n - size + 1))
            free = [i for i in range(n) if i < start - 1 or i > start + size]
            if free:
                break
        else:  # pragma: no cover - n >= MIN_SEGMENTS always leaves room
            raise ValueError("video too short for the dominant pattern")
        s = int(rng.choice(free))
        p.needles = sorted([Needle(name, main_level, *_span(start, start + size - 1)),
                            Needle(other, lower[int(rng.integers(len(lower)))], *_span(s))],
                           key=lambda x: x.start_s)
    else:
        raise ValueError(f"unknown GQU pattern {pattern!r}")


# ---------------------------------------------------------------- videos


def _make_one(args: tuple[dict[str, Any], str, dict[str, Any]]) -> dict[str, Any]:
    """Write one video (skipped when its sidecar manifest matches the plan)."""
    from bench.synth import make_video, needle, source_clips

    plan, out_dir, opts = args
    path = Path(out_dir) / plan["path"]
    side = path.with_suffix(".json")
    if path.exists() and side.exists():
        try:
            old = json.loads(side.read_text())
            if old.get("plan") == plan and old.get("options") == opts:
                return old
        except ValueError:
            pass
    path.parent.mkdir(parents=True, exist_ok=True)
    if opts["procedural_only"]:
        sources: list[Any] | None = []
    elif opts["sources"]:
        sources = source_clips(opts["sources"])
    else:
        sources = None
    t0 = time.perf_counter()
    needles = [needle(n["distortion"], n["level"], n["start_s"], n["end_s"])
               for n in plan["needles"]]
    synth = make_video(path, plan["duration_s"], width=opts["width"], height=opts["height"],
                       fps=opts["fps"], seed=plan["seed"], needles=needles, sources=sources,
                       crf=opts["crf"], preset=opts["preset"])
    synth["path"] = plan["path"]
    for row in synth["needles"]:
        row.pop("held", None)  # per-frame lists: large and not needed for the items
    record = {"plan": plan, "options": opts, "synth": synth,
              "make_s": round(time.perf_counter() - t0, 2)}
    tmp = side.with_suffix(".json.part")
    tmp.write_text(json.dumps(record, indent=1))
    tmp.replace(side)
    return record


def make_videos(plans: Sequence[VideoPlan], out_dir: Path, cfg: NdqaConfig, *,
                sources: str | None = None, procedural_only: bool = False, crf: int = 18,
                preset: str = "veryfast", workers: int = 1,
                progress: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """Write every planned video (in parallel over `workers` processes); their records."""
    opts = {"width": cfg.width, "height": cfg.height, "fps": cfg.fps, "sources": sources,
            "procedural_only": procedural_only, "crf": crf, "preset": preset}
    jobs = [(p.to_dict(), str(out_dir), opts) for p in plans]
    records = []
    if workers <= 1:
        for job in jobs:
            records.append(_make_one(job))
            if progress:
                progress(records[-1])
        return records
    with ProcessPoolExecutor(workers) as pool:
        for rec in pool.map(_make_one, jobs):
            records.append(rec)
            if progress:
                progress(rec)
    return records


def generate(out_dir: str | Path, cfg: NdqaConfig, *, sources: str | None = None,
             procedural_only: bool = False, crf: int = 18, preset: str = "veryfast",
             workers: int = 1, items_only: bool = False,
             progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Plan, make the videos (unless items_only), write items.jsonl and manifest.json."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if sources is not None and not Path(sources).is_dir():
        raise ValueError(f"source directory not found: {sources}")
    t0 = time.perf_counter()
    plans = plan_videos(cfg)
    items = build_items(plans, cfg.seed, cfg.pool, cfg.per_dimension, cfg.open_per_video)
    records = [] if items_only else make_videos(
        plans, out, cfg, sources=sources, procedural_only=procedural_only, crf=crf,
        preset=preset, workers=workers, progress=progress)
    write_items(out / "items.jsonl", items)
    by_key = {r["plan"]["key"]: r for r in records}
    manifest = {
        "generator": "bench.ndqa", "version": VERSION,
        "config": {**asdict(cfg), "pool": list(cfg.pool), "levels": list(cfg.levels),
                   "segment_s": SEGMENT_S, "sources": sources,
                   "procedural_only": procedural_only, "crf": crf, "preset": preset},
        "items_file": "items.jsonl",
        "summary": summary(items),
        "videos": [{**p.to_dict(),
                    "impairment": round(impairment(p), 3), "grade": grade(impairment(p)),
                    "make_s": by_key.get(p.key, {}).get("make_s"),
                    "scenes": by_key.get(p.key, {}).get("synth", {}).get("scenes"),
                    "needles_made": by_key.get(p.key, {}).get("synth", {}).get("needles")}
                   for p in plans],
        "elapsed_s": round(time.perf_counter() - t0, 1),
    }
    tmp = out / "manifest.json.part"
    tmp.write_text(json.dumps(manifest, indent=1))
    tmp.replace(out / "manifest.json")
    return manifest
