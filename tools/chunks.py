"""Finished stretches of an index build on disk, so that a killed build resumes where it stopped.

A build is cut into chunks of whole frames (a minute of video by default, `LVQ_CHUNK_S`). Each
finished chunk's rows (per-frame signals, spatial samples, shot scores, decoder errors, its last
two small frames and, with CLIP on, the embeddings of its CLIP frames with the frame picker's
state) go to one `.npz` file in a partial directory keyed by the video's fingerprint, the
signals version, the decoding plan and the CLIP model and settings. A chunk is written under
a temporary name, flushed and renamed, and its final name carries the checksum of its bytes: a
resumed build trusts chunks 0, 1, ... k that are whole and match their checksum, and nothing
after the first gap.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from tools import SIGNALS_VERSION

CHUNK_ENV = "LVQ_CHUNK_S"
DEFAULT_CHUNK_S = 60.0
KEY = "key.json"
FORMAT = 2  # of the chunk files; recorded in key.json (2: CLIP embeddings in the chunks)
_NAME = re.compile(r"^chunk-(\d{6})-([0-9a-f]{32})\.npz$")


def chunk_frames(fps: float, steps: tuple[int, ...]) -> int:
    """Frames per chunk: about LVQ_CHUNK_S seconds (default 60), a multiple of every sampling
    step so that each chunk holds whole sampling periods."""
    try:
        seconds = float(os.environ.get(CHUNK_ENV) or DEFAULT_CHUNK_S)
    except ValueError:
        seconds = DEFAULT_CHUNK_S
    unit = int(np.lcm.reduce([max(1, int(s)) for s in steps])) if steps else 1
    want = max(1.0, seconds) * max(fps, 1.0)
    return max(unit, int(round(want / unit)) * unit)


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


class PartialStore:
    """The chunks of one video's unfinished build: written atomically, read back verified."""

    def __init__(self, directory: Path, key: dict[str, Any]) -> None:
        """Open (or start) the partial build in `directory`; one made for another key (other
        signals version, plan or chunk size) is discarded."""
        self.directory = directory
        self.key = json.loads(json.dumps({**key, "format": FORMAT}))
        directory.mkdir(parents=True, exist_ok=True)
        try:
            stored = json.loads((directory / KEY).read_text())
        except (OSError, ValueError):
            stored = None
        if stored != self.key:
            self._wipe_chunks()
            self._write_bytes(directory / KEY, json.dumps(self.key, sort_keys=True).encode())

    def chunks(self) -> list[dict[str, np.ndarray]]:
        """The trusted chunks in order: 0, 1, ... up to the first missing or damaged one (that one
        and every later file are removed)."""
        found: dict[int, Path] = {}
        for path in self.directory.iterdir():
            m = _NAME.match(path.name)
            if m:
                found.setdefault(int(m.group(1)), path)
        out: list[dict[str, np.ndarray]] = []
        for i in range(len(found)):
            path = found.get(i)
            arrays = self._read(path) if path is not None else None
            if arrays is None:
                break
            out.append(arrays)
        for i, path in found.items():
            if i >= len(out):
                path.unlink(missing_ok=True)
        return out

    def write(self, i: int, arrays: dict[str, np.ndarray]) -> None:
        """Store chunk `i` atomically: temporary file, flush to disk, rename to its checked name."""
        buf = io.BytesIO()
        np.savez(buf, **arrays)
        data = buf.getvalue()
        self._write_bytes(self.directory / f"chunk-{i:06d}-{_digest(data)}.npz", data)

    def clear(self) -> None:
        """Remove the partial build (the finished index replaces it)."""
        shutil.rmtree(self.directory, ignore_errors=True)

    def _read(self, path: Path) -> dict[str, np.ndarray] | None:
        """A chunk's arrays, or None when its bytes do not match the checksum in its name."""
        try:
            data = path.read_bytes()
            if _digest(data) != _NAME.match(path.name).group(2):
                return None
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                return {k: npz[k] for k in npz.files}
        except (OSError, ValueError, KeyError, EOFError):
            return None

    def _wipe_chunks(self) -> None:
        for path in self.directory.iterdir():
            if path.is_file():
                path.unlink(missing_ok=True)

    def _write_bytes(self, final: Path, data: bytes) -> None:
        tmp = final.parent / f".{final.name}.{uuid.uuid4().hex[:8]}.tmp"
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, final)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise


def chunk_key(info: Any, plan: Any, per_chunk: int, embedder: Any) -> dict[str, Any]:
    """What a build's chunks depend on (with CLIP on, its model and settings too): a partial
    build made with anything else is discarded."""
    clip = None
    if embedder is not None:
        from tools.clip_resume import resume_key

        clip = resume_key(embedder.cfg, plan)
    return {
        "signals_version": SIGNALS_VERSION, "n_frames": info.n_frames, "fps": info.fps,
        "size": [info.width, info.height], "per_chunk": per_chunk,
        "plan": {"lo_size": list(plan.lo_size), "hi_every": plan.hi_every}, "clip": clip}
