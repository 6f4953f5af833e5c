"""Indexes for the MCP server: built once per video (one at a time), with progress reported
to the client while a build decodes, and the last few kept in memory."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

from agent.mcp_roots import Roots

KEEP = 4  # indexes held in memory
PROGRESS_EVERY_S = 0.5

Report = Callable[[float, float | None, str | None], Awaitable[None]]


@dataclass
class Progress:
    """Frames decoded so far by the running build, written by the build thread."""

    n: int = 0
    total: int = 0


@contextmanager
def counting_bars(progress: Progress) -> Iterator[None]:
    """While inside, the index builder's progress bars count into `progress` (and print
    nothing: stdout is the protocol). tools.index offers no progress callback, so its `tqdm`
    is swapped for a counting subclass; callers hold IndexStore's lock around this."""
    import tools.index as builder

    original = builder.tqdm

    class CountingBar(original):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)
            progress.n, progress.total = 0, int(kwargs.get("total") or 0)

        def update(self, n: float | None = 1) -> bool | None:
            progress.n += int(n or 0)
            return super().update(n)

    builder.tqdm = CountingBar
    try:
        yield
    finally:
        builder.tqdm = original


class IndexStore:
    """The index of a video inside the roots: from memory, the disk cache, or built now."""

    def __init__(self, roots: Roots, cache_dir: Path | None = None) -> None:
        self.roots = roots
        self.cache_dir = cache_dir
        self._lock = threading.Lock()  # one build (and one patched builder) at a time
        self._kept: OrderedDict[tuple[str, int, int], Any] = OrderedDict()

    def _load(self, path: Path, progress: Progress) -> Any:
        from tools.index import get_index

        with self._lock, counting_bars(progress):
            return get_index(path, cache_dir=self.cache_dir, progress=False)

    async def get(self, video: str, report: Report | None = None) -> Any:
        """The index of `video` (confined to the roots); `report(n, total, message)` hears
        the decoded frame count every half second while it is being built."""
        path = self.roots.resolve(video)
        try:
            st = path.stat()
            key: tuple[str, int, int] | None = (str(path), st.st_size, st.st_mtime_ns)
        except OSError:
            key = None  # get_index says what is wrong with the file
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        progress = Progress()
        done = anyio.Event()
        result: dict[str, Any] = {}

        async def build() -> None:
            try:
                result["index"] = await anyio.to_thread.run_sync(self._load, path, progress)
            except Exception as exc:  # noqa: BLE001 - raised below, outside the task group
                result["error"] = exc
            finally:
                done.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(build)
            sent = -1
            while not done.is_set():
                with anyio.move_on_after(PROGRESS_EVERY_S):
                    await done.wait()
                # (once at least, however quick the build: a client hears it was built now)
                if report and progress.total and progress.n != sent and (
                        not done.is_set() or sent < 0):
                    sent = progress.n
                    await report(progress.n, progress.total,
                                 f"indexing {path.name}: frame {progress.n} of {progress.total}")
        if "error" in result:
            raise result["error"]
        if report and progress.total:
            await report(progress.total, progress.total, f"indexed {path.name}")
        if key is not None:
            self._kept[key] = result["index"]
            while len(self._kept) > KEEP:
                self._kept.popitem(last=False)
        return result["index"]
