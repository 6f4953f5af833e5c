"""Benchmark jobs as Ray tasks: one task per video's (or pair's) items, placed on the
cluster; each task returns its records and the driver writes them as the task finishes, so
an interrupted run keeps every finished video and a resumed run does only the others."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bench.items import Item
from bench.run.config import RunConfig
from bench.run.video import Emit, run_video, torch_first
from tools.ray_pool import apply_env, ray_session, run_tasks, task_env


def ray_job(video: str | list[str], raw_items: list[dict[str, Any]], cfg_d: dict[str, Any],
            env: dict[str, str]) -> list[dict[str, Any]]:
    """One job in a Ray worker: the records of one video's (or pair's) items."""
    apply_env(env)
    cfg = RunConfig(**cfg_d)
    torch_first(cfg)
    items = [Item.model_validate(d) for d in raw_items]
    records: list[dict[str, Any]] = []
    key = tuple(video) if isinstance(video, list) else video
    run_video(key, items, cfg, records.append)
    return records


def run_on_ray(jobs: dict[Any, list[Item]], cfg: RunConfig, emit: Emit, address: str,
               num_cpus: int | None = None) -> None:
    """Run the jobs as Ray tasks (longest first), emitting records as each task finishes."""
    cfg_d, env = asdict(cfg), task_env()
    order = sorted(jobs.items(), key=lambda kv: -len(kv[1]))
    args = [(list(v) if isinstance(v, tuple) else v, [i.model_dump() for i in its], cfg_d, env)
            for v, its in order]
    with ray_session(address, num_cpus):
        for records in run_tasks(ray_job, args):
            for rec in records:
                emit(rec)
