"""Checks that a stored index is whole and belongs to its video before anything trusts it.

meta.json must be an object with the fields a loader reads; each parquet table must hold the
row count and checksum recorded beside it when it was written. Indexes written before the
checksums existed pass only if their frame table has the length their facts imply. Any
failure is an IndexError_, which makes the caller rebuild the index, never use it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq

from tools.errors import IndexError_
from tools.model import Event, Scene, VideoInfo

TABLES = ("frames", "samples")
_CHUNK = 1 << 20


def file_digest(path: Path) -> str:
    """blake2b (128-bit) of a file's bytes."""
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as fh:
        while block := fh.read(_CHUNK):
            h.update(block)
    return h.hexdigest()


def table_records(directory: Path, rows: dict[str, int]) -> dict[str, dict[str, Any]]:
    """What meta.json keeps about each written table: its row count and checksum."""
    return {name: {"rows": int(rows[name]),
                   "blake2b": file_digest(directory / f"{name}.parquet")} for name in TABLES}


def check_meta(meta: Any, directory: Path) -> tuple[VideoInfo, list[Scene], list[Event]]:
    """The facts, scenes and events of a parsed meta.json; IndexError_ when it is not whole."""
    if not isinstance(meta, dict):
        raise IndexError_(f"damaged index in {directory}: meta.json holds a JSON "
                          f"{type(meta).__name__}, not an object")
    for key, kind in (("info", dict), ("scenes", list), ("events", list)):
        if not isinstance(meta.get(key), kind):
            raise IndexError_(f"damaged index in {directory}: meta.json has no valid {key!r}")
    try:
        info = VideoInfo(**meta["info"])
        scenes = [Scene(**s) for s in meta["scenes"]]
        events = [Event(**e) for e in meta["events"]]
    except (TypeError, ValueError) as exc:
        raise IndexError_(f"damaged index in {directory}: {exc}") from None
    if (not isinstance(info.n_frames, int) or info.n_frames < 1
            or not isinstance(info.fps, int | float) or info.fps <= 0):
        raise IndexError_(f"damaged index in {directory}: implausible video facts")
    return info, scenes, events


def check_files(meta: dict[str, Any], directory: Path) -> None:
    """The tables on disk are the ones meta.json recorded (same checksum); IndexError_ if not."""
    recorded = meta.get("tables")
    if recorded is None:
        return  # written before checksums; check_tables judges the contents
    if not isinstance(recorded, dict):
        raise IndexError_(f"damaged index in {directory}: meta.json 'tables' is not an object")
    for name in TABLES:
        rec = recorded.get(name)
        path = directory / f"{name}.parquet"
        if not isinstance(rec, dict) or file_digest(path) != rec.get("blake2b"):
            raise IndexError_(f"damaged index in {directory}: {path.name} is not the file "
                              "this index wrote (checksum differs)")


def check_tables(meta: dict[str, Any], info: VideoInfo, frames: dict[str, np.ndarray],
                 samples: dict[str, np.ndarray], directory: Path) -> None:
    """Row counts and columns agree with meta.json and with each other; IndexError_ if not."""
    n = len(frames.get("t", ()))
    if n == 0 or len(samples.get("t", ())) == 0 or "frame" not in samples:
        raise IndexError_(f"damaged index in {directory}: empty or incomplete signal tables")
    if any(len(v) != n for v in frames.values()):
        raise IndexError_(f"damaged index in {directory}: frame columns differ in length")
    recorded = meta.get("tables")
    if isinstance(recorded, dict):
        want = {k: (recorded.get(k) or {}).get("rows") for k in TABLES}
        got = {"frames": n, "samples": len(samples["t"])}
        if want != got:
            raise IndexError_(f"damaged index in {directory}: tables hold {got} rows, "
                              f"meta.json recorded {want}")
    elif not _plausible_length(n, info, meta.get("warnings")):
        raise IndexError_(f"damaged index in {directory}: {n} frame rows for a video of "
                          f"{info.n_frames} frames")
    if int(np.max(samples["frame"], initial=0)) >= n:
        raise IndexError_(f"damaged index in {directory}: samples point past the last frame")


def _plausible_length(rows: int, info: VideoInfo, warnings: Any) -> bool:
    """An index without recorded row counts: the frame table has the video's length, or the
    length a recorded 'decoded N of M frames' warning states (a truncated file)."""
    if abs(rows - info.n_frames) <= max(2, 0.02 * info.n_frames):
        return True
    return any(isinstance(w, str) and w.startswith(f"decoded {rows} of ")
               for w in warnings or [])


def read_columns(path: Path) -> dict[str, np.ndarray]:
    """Every column of a parquet table as a numpy array."""
    table = pq.read_table(path)
    return {name: table.column(name).to_numpy() for name in table.column_names}
