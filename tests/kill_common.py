"""A build killed mid-way, as the resume tests need it."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


def kill_after_chunks(proc: subprocess.Popen, part: Path, chunks: int) -> int:
    """SIGKILL the running `agent index` once `chunks` chunk files exist in `part`; the count
    it left (a loaded machine is slow, never stuck for 600 s)."""
    deadline = time.monotonic() + 600
    try:
        while proc.poll() is None:
            if time.monotonic() > deadline or (
                    part.is_dir() and len(list(part.glob("chunk-*.npz"))) >= chunks):
                os.kill(proc.pid, signal.SIGKILL)
                break
            time.sleep(0.005)
    finally:
        proc.wait(timeout=60)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    assert proc.returncode == -signal.SIGKILL, "the build ended before it could be killed"
    return len(list(part.glob("chunk-*.npz")))
