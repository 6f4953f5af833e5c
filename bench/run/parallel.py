"""Jobs (one video's items each) over local worker processes; records stream back through a
queue and the driver writes them as they come."""

from __future__ import annotations

import multiprocessing as mp
import queue
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from typing import Any

from bench.items import Item
from bench.run.config import RunConfig
from bench.run.video import Emit, run_video, torch_first

_QUEUE: Any = None


def _init_worker(q: Any, cfg_d: dict[str, Any]) -> None:
    global _QUEUE
    _QUEUE = q
    torch_first(RunConfig(**cfg_d))


def _worker_job(job: tuple[str | tuple[str, ...], list[dict[str, Any]], dict[str, Any]]) -> int:
    video, raw_items, cfg_d = job
    items = [Item.model_validate(d) for d in raw_items]
    run_video(video, items, RunConfig(**cfg_d), _QUEUE.put)
    return len(items)


def run_parallel(jobs: dict[Any, list[Item]], cfg: RunConfig, emit: Emit) -> None:
    """Run the jobs on cfg.workers processes, emitting each record as it arrives."""
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    cfg_d = asdict(cfg)
    # Longest jobs first, so the last worker is not left with a long video.
    order = sorted(jobs.items(), key=lambda kv: -len(kv[1]))
    with ProcessPoolExecutor(min(cfg.workers, len(jobs)), mp_context=ctx,
                             initializer=_init_worker, initargs=(q, cfg_d)) as pool:
        futures = [pool.submit(_worker_job, (v, [i.model_dump() for i in its], cfg_d))
                   for v, its in order]
        pending = set(futures)
        try:
            while pending:
                try:
                    emit(q.get(timeout=0.2))
                except queue.Empty:
                    pass
                for f in [f for f in pending if f.done()]:
                    pending.discard(f)
                    f.result()  # a crashed worker raises here (records so far are kept)
        except KeyboardInterrupt:
            _drain(q, emit, timeout=0.05)  # keep what the workers finished
            pool.shutdown(wait=False, cancel_futures=True)
            # A Ctrl-C reaches the workers too; a SIGINT sent to this process alone does not,
            # and leaving the pool would wait for their current videos.
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
            raise
        _drain(q, emit, timeout=0.5)


def _drain(q: Any, emit: Emit, timeout: float) -> None:
    """Emit the records still waiting in the workers' queue."""
    while True:
        try:
            emit(q.get(timeout=timeout))
        except queue.Empty:
            return
