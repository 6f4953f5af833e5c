"""Where indexes live, how a video is recognised (content fingerprint), atomic directory writes."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_BLOCK = 1 << 20
PARTIAL = ".partial"  # unfinished builds' chunks, one directory per video and signals version
PARTIAL_KEEP_S = 14 * 86400  # an unfinished build untouched this long is given up
_WARNED: set[str] = set()  # cache roots already reported unwritable by this process


def default_cache_dir() -> Path:
    """$LVQ_CACHE_DIR, else $XDG_CACHE_HOME/lvq-agent, else ~/.cache/lvq-agent."""
    env = os.environ.get("LVQ_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "lvq-agent"


def fingerprint(path: str | os.PathLike[str]) -> str:
    """Content fingerprint: size plus the first, last and 16 evenly spread 1 MiB blocks.

    Reads at most ~18 MiB whatever the file size, so a 2-hour file is recognised in
    milliseconds; renaming or moving a file keeps its index, editing it does not.
    """
    p = Path(path)
    size = p.stat().st_size
    h = hashlib.blake2b(digest_size=16)
    h.update(str(size).encode())
    with open(p, "rb") as fh:
        offsets = {0, max(0, size - _BLOCK)}
        offsets.update(int(size * k / 17) for k in range(1, 17))
        for off in sorted(offsets):
            fh.seek(off)
            h.update(fh.read(_BLOCK))
    return h.hexdigest()


@contextmanager
def atomic_dir(final: Path) -> Iterator[Path]:
    """Yield a scratch directory beside `final`; on success it replaces `final` in one rename.

    An interrupted build leaves only a `.tmp-*` directory, which no reader trusts and the next
    build removes.
    """
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.parent / f".tmp-{final.name}-{uuid.uuid4().hex[:8]}"
    tmp.mkdir()
    try:
        yield tmp
        if final.exists():
            trash = final.parent / f".old-{final.name}-{uuid.uuid4().hex[:8]}"
            os.replace(final, trash)
            os.replace(tmp, final)
            shutil.rmtree(trash, ignore_errors=True)
        else:
            os.replace(tmp, final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def sweep_stale(root: Path, older_than_s: float = 6 * 3600) -> None:
    """Remove scratch directories that interrupted builds left (old enough not to be running),
    and unfinished builds' chunks nobody resumed for PARTIAL_KEEP_S."""
    try:
        if not root.is_dir():
            return
        now = time.time()
        for child in root.iterdir():
            if child.name.startswith((".tmp-", ".old-")) and child.is_dir():
                if now - child.stat().st_mtime > older_than_s:
                    shutil.rmtree(child, ignore_errors=True)
        if (root / PARTIAL).is_dir():
            for child in (root / PARTIAL).iterdir():
                if now - child.stat().st_mtime > PARTIAL_KEEP_S:
                    shutil.rmtree(child, ignore_errors=True)
    except OSError:
        return  # an unreadable cache has nothing to sweep


def writable(root: Path) -> bool:
    """Whether files can be created under `root` (made if missing): tried, not guessed from
    permission bits, so read-only mounts, foreign owners and full disks all count."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe = root / f".probe-{uuid.uuid4().hex[:8]}"
        probe.mkdir()
        probe.rmdir()
    except OSError:
        return False
    return True


def warn_unwritable(root: Path) -> None:
    """Say once per process, on stderr, that the cache `root` is read-only and not used."""
    key = str(root)
    if key in _WARNED:
        return
    _WARNED.add(key)
    sys.stderr.write(f"warning: cache {root} is not writable: working without a cache\n")
    sys.stderr.flush()


@contextmanager
def build_lock(root: Path, fingerprint_: str) -> Iterator[None]:
    """Hold the one right to build this video's index in `root`: a second `agent index` of
    the same video waits, then finds the first one's entry (two builders would share and
    remove each other's chunks). The lock dies with its process, even a killed one."""
    import fcntl

    try:
        fh = open(root / f".lock-{fingerprint_}", "a+b")  # noqa: SIM115 - closed below
    except OSError:  # no lock without a writable cache: build unguarded, as before
        yield
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        fh.close()  # closing releases the lock
