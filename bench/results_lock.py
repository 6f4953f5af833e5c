"""One `bench run` at a time per results file: an advisory lock (flock) on `<results>.lock`.

Two runs appending to one file would answer the same pending items twice. The lock is held
by the open file, so the kernel drops it when the run ends in any way (even kill -9): a lock
file left on disk never blocks a later run.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from tools.errors import StorageError


class ResultsLock:
    """The held lock of one results file; released by `release()` or by the process ending."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd, self.path = fd, path

    def release(self) -> None:
        """Let another run write the results file."""
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def lock_path(results: Path) -> Path:
    """The lock file beside a results file: X.jsonl -> X.jsonl.lock."""
    return results.with_name(results.name + ".lock")


def lock_results(results: str | os.PathLike[str]) -> ResultsLock:
    """Take the results file's lock, or StorageError (exit 5) naming the run that holds it."""
    path = lock_path(Path(results))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StorageError(f"{results} is being written by another bench run (pid {holder}); "
                           "wait for it to end, or use another --out") from None
    except OSError:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return ResultsLock(fd, path)
