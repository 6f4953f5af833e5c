"""A benchmark run: answer every pending item of an item file with one track and brain.

Per-item results go to a JSON Lines file, one line appended and flushed as each record
reaches the driver, never rewritten: an interrupted run is started again with the same
command and skips the item ids already there (items that ended in an error are tried again;
readers take the last line of an id). A job is one video's (or pair's) items; jobs run in
order here, over worker processes (bench.run.parallel) or as Ray tasks (bench.run.ray_jobs),
and every executor writes the same records.

    bench run --items items.jsonl --track agent --brain local --out agent.jsonl [--ray]
"""

from __future__ import annotations

import os
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.items import Item, load_items
from bench.provenance import collect
from bench.run.config import RunConfig
from bench.run.results import ResultWriter, read_results
from bench.run.summary import summarize
from bench.run.video import check_brain, make_brain, run_video, torch_first
from tools.errors import InputError

Jobs = dict[str | tuple[str, ...], list[Item]]


def resolve_videos(item: Item, video_dir: Path) -> list[str]:
    """An item's video paths: absolute as given, else relative to video_dir."""
    return [str(p if (p := Path(v)).is_absolute() else video_dir / p) for v in item.videos]


def job_key(item: Item, video_dir: Path) -> str | tuple[str, ...]:
    """What an item's answer is prepared from: its video's path, or a pair's (a tuple)."""
    paths = resolve_videos(item, video_dir)
    return paths[0] if len(paths) == 1 else tuple(paths)


def check_compatible(done: dict[str, dict[str, Any]], cfg: RunConfig, out: Path) -> None:
    """Refuse to resume into a results file made with another track, brain or uniform mode."""
    for rec in done.values():
        if rec.get("track") != cfg.track or rec.get("brain") != cfg.brain:
            raise ValueError(
                f"{out} holds results of track {rec.get('track')}/{rec.get('brain')}, not "
                f"{cfg.label}: use another --out")
        break
    modes = {(r.get("sent") or {}).get("mode") for r in done.values() if r.get("sent")}
    if cfg.sends and modes - {cfg.sends}:
        raise ValueError(f"{out} holds uniform results made from {', '.join(sorted(modes))}, "
                         f"not {cfg.sends}: use another --out")


def pending_jobs(items: Sequence[Item], done: dict[str, dict[str, Any]],
                 video_dir: Path) -> Jobs:
    """Items still to answer (not in the results, or ended in an error), by video or pair."""
    jobs: Jobs = defaultdict(list)
    for it in items:
        rec = done.get(it.id)
        if rec is not None and not rec.get("error"):
            continue
        jobs[job_key(it, video_dir)].append(it)
    return dict(jobs)


def limit_jobs(jobs: Jobs, limit: int) -> Jobs:
    """The first `limit` pending items, still grouped by video."""
    out: Jobs = {}
    left = max(0, limit)
    for video, its in jobs.items():
        if left <= 0:
            break
        out[video] = its[:left]
        left -= len(out[video])
    return out


def execute(jobs: Jobs, cfg: RunConfig, emit: Callable[[dict[str, Any]], None],
            ray: str | None = None, ray_cpus: int | None = None) -> None:
    """Run the jobs in order, over worker processes, or as Ray tasks (`ray`: an address, or
    "local" for a Ray started for the run with `ray_cpus` CPUs)."""
    if ray is not None:
        from bench.run.ray_jobs import run_on_ray

        run_on_ray(jobs, cfg, emit, ray, ray_cpus)
    elif cfg.workers <= 1 or len(jobs) <= 1:
        for video, its in jobs.items():
            run_video(video, its, cfg, emit)
    else:
        from bench.run.parallel import run_parallel

        run_parallel(jobs, cfg, emit)


def run(items_path: str | os.PathLike[str], out_path: str | os.PathLike[str], cfg: RunConfig,
        *, limit: int | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
        ray: str | None = None, ray_cpus: int | None = None) -> dict[str, Any]:
    """Answer the pending items (at most `limit`), append their records; the summary."""
    cfg.check()
    items_path, out = Path(items_path), Path(out_path)
    items, errors = load_items(items_path)
    if any(it.format == "open" for it in items):
        torch_first(cfg)
    if not items:
        reason = f": {errors[0]}" if errors else ""
        raise InputError(f"no valid items in {items_path}{reason}")
    done = read_results(out)
    check_compatible(done, cfg, out)
    if cfg.sends == "images":  # refuse a text-only model before any work (one line)
        check_brain(make_brain(cfg), cfg)
    video_dir = Path(cfg.video_dir) if cfg.video_dir else items_path.parent
    jobs = pending_jobs(items, done, video_dir)
    already = len(items) - sum(map(len, jobs.values()))
    if limit is not None:
        jobs = limit_jobs(jobs, limit)
    t0 = time.perf_counter()
    writer = ResultWriter(out, cfg.fsync)
    n_new = 0

    def emit(rec: dict[str, Any]) -> None:
        nonlocal n_new
        rec["run_time"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        writer.write(rec)
        n_new += 1
        if on_record:
            on_record(rec)

    try:
        if jobs:
            execute(jobs, cfg, emit, ray, ray_cpus)
    finally:
        writer.close()
    wall = time.perf_counter() - t0
    summary = summarize(items, read_results(out), cfg)
    summary["provenance"] = collect(cfg, wall_s=wall, items_path=items_path)
    summary["this_run"] = {"answered": n_new, "wall_s": round(wall, 2),
                           "skipped_already_done": already,
                           "item_file_errors": [str(e) for e in errors[:20]]}
    if ray is not None:
        summary["this_run"]["ray"] = ray
    return summary
