"""What the resume tests share: a build killed mid-way, and a resumed index checked against
an uninterrupted one."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import numpy as np


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


def assert_same_build(again, whole) -> None:
    """The resumed index `again` holds the tables, cuts, scenes and events of `whole`."""
    for key, col in whole.frames.items():
        np.testing.assert_array_equal(again.frames[key], col, err_msg=key)
    for key, col in whole.samples.items():
        np.testing.assert_array_equal(again.samples[key], col, err_msg=key)
    assert again.meta["raw_cuts"] == whole.meta["raw_cuts"]
    assert [s.to_dict() for s in again.scenes] == [s.to_dict() for s in whole.scenes]
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in whole.events]
