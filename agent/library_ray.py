"""Indexing a library on Ray: each video is one task placed on the cluster; each task
returns the video's summary row and the driver gathers the rows as the tasks finish.

Tasks read and write the same index cache as a serial run: on one machine they share it; on
a cluster every node needs the same cache path on a shared filesystem (or each node keeps
its own cache, and a video indexed on one node is indexed again when it lands on another).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from tqdm import tqdm

from agent.library import Outcome, Row, index_row
from tools.ray_pool import apply_env, ray_session, run_tasks, task_env


def index_task(name: str, path: str, cache_dir: str | None, rebuild: bool, clip: bool,
               env: dict[str, str]) -> Row:
    """One video indexed in a Ray worker (no bars), as its summary row named `name`."""
    from tools.index import get_index

    apply_env(env)
    t0 = time.perf_counter()
    try:
        index = get_index(Path(path), cache_dir=Path(cache_dir) if cache_dir else None,
                          progress=False, rebuild=rebuild, clip=clip)
        outcome = Outcome(Path(name), value=index)
    except Exception as exc:  # noqa: BLE001 - one video's failure is its row
        outcome = Outcome(Path(name), error=exc)
    outcome.seconds = time.perf_counter() - t0
    return index_row(outcome)


def rows_on_ray(videos: Sequence[Path], *, address: str, num_cpus: int | None,
                cache_dir: Path | None, rebuild: bool, clip: bool, progress: bool = True,
                report: Callable[[Row], str] | None = None) -> Iterator[Row]:
    """Index every video as a Ray task, yielding each row as its task finishes."""
    cache = str(cache_dir.resolve()) if cache_dir else None
    env = task_env()
    args = [(str(v), str(v.resolve()) if v.exists() else str(v), cache, rebuild, clip, env)
            for v in videos]
    bar = tqdm(total=len(videos), unit="video", desc="videos (ray)", disable=not progress,
               file=sys.stderr, dynamic_ncols=True)
    with ray_session(address, num_cpus), bar:
        for row in run_tasks(index_task, args):
            if report is not None:
                tqdm.write(report(row), file=sys.stderr)
            bar.update(1)
            yield row
