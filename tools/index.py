"""The quality index of one video: every measurement, built in one pass, cached and reused.

`get_index(path)` returns the cached index when the video's fingerprint and the analyzer version
match, and otherwise builds it (one decoding pass, progress bar on stderr) and stores it
atomically under the cache directory.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from tools import ANALYZER_VERSION, EVENTS_VERSION, SIGNALS_VERSION
from tools.cache import (
    PARTIAL,
    atomic_dir,
    build_lock,
    default_cache_dir,
    fingerprint,
    sweep_stale,
    warn_unwritable,
    writable,
)
from tools.chunks import PartialStore, chunk_frames, chunk_key
from tools.derive import derive
from tools.errors import IndexError_
from tools.integrity import check_files, check_meta, check_tables, read_columns, table_records
from tools.model import Event, Scene, VideoInfo
from tools.onepass import run_pass
from tools.stream import BLOCK, plan_for
from tools.video import check_path, presentation_times, probe_video

META = "meta.json"


@dataclass
class VideoIndex:
    """Everything measured about one video. Arrays are numpy, aligned on `frames['t']` (every
    frame) and `samples['t']` (the spatial sampling rate)."""

    info: VideoInfo
    frames: dict[str, np.ndarray]
    samples: dict[str, np.ndarray]
    scenes: list[Scene]
    events: list[Event]
    meta: dict[str, Any] = field(default_factory=dict)
    directory: Path | None = None
    clip: Any = None  # tools.embed.FrameIndex when retrieval is on

    @property
    def clip_status(self) -> str:
        return str(self.meta.get("clip", {}).get("status", "off: not built"))

    def summary(self) -> dict[str, Any]:
        """JSON-able digest: facts, scenes, events, build figures."""
        return {
            "video": self.info.to_dict(),
            "fingerprint": self.meta.get("fingerprint"),
            "analyzer_version": self.meta.get("analyzer_version"),
            "build_s": self.meta.get("build_s"),
            "cached": self.meta.get("cached", False),
            "warnings": self.meta.get("warnings", []),
            "clip": self.meta.get("clip", {}),
            "scenes": [s.to_dict() for s in self.scenes],
            "events": [e.to_dict() for e in self.events],
        }


def _clip_embedder(clip: bool, progress: bool = True):
    """A CLIP frame embedder when retrieval is wanted and its weights are here (fetched from the
    hub first when missing, unless HF_HUB_OFFLINE is set), with a status.

    The model loads on the embedder's own thread while decoding starts; a load failure comes
    back as a disabled index from `finish()`, never as a failed index build. A fetch happens
    before the pass, with the hub's progress bar.
    """
    if not clip:
        return None, "off: disabled"
    from tools.clip_extra import extra_status

    if (no_extra := extra_status()) is not None:  # no torch: nothing of CLIP is imported
        return None, f"off: {no_extra}"
    try:
        from tools.clip_fetch import ENV_OFFLINE, ensure_weights, model_label, offline
        from tools.clip_fetch import _require_reachable as require_reachable
        from tools.embed import ClipConfig, FrameEmbedder, clip_status
    except ImportError as exc:  # pragma: no cover - part of the install
        return None, f"off: retrieval module unavailable ({exc})"
    try:
        cfg = ClipConfig.from_env()
        if offline():  # a quick local look (no open_clip import when nothing is cached)
            ok, reason = clip_status(cfg, quick=True)
            if not ok:
                return None, f"off: {reason}; {ENV_OFFLINE} is set, so nothing was fetched"
        else:  # a full check (imports open_clip for a tag), and a fetch when missing
            if not clip_status(cfg, quick=True)[0]:
                # Nothing cached: with the hub out of reach the fetch would fail anyway, after
                # seconds of importing torch and open_clip; fail at once instead.
                require_reachable(cfg)
            ensure_weights(cfg, progress=progress)
    except ValueError as exc:  # a bad model name or setting, missing weights, a failed fetch
        return None, f"off: {exc}"
    try:
        return FrameEmbedder(cfg), f"on: {model_label(cfg)}"
    except Exception as exc:  # noqa: BLE001 - a broken checkpoint must not stop the index
        return None, f"off: could not load {model_label(cfg)}: {exc}"


def _clip_meta(state: str, clip_index: Any) -> dict[str, Any]:
    """The index summary's 'clip' entry: status, and which model built the embeddings."""
    if clip_index is None:
        return {"status": state}
    return {
        "status": f"{state}, {len(clip_index)} frames",
        "model": clip_index.model,
        "pretrained": clip_index.pretrained,
        "weights_id": clip_index.weights_id,
        "dim": clip_index.dim,
        "frames": len(clip_index),
    }


def measure(
    path: str | os.PathLike[str],
    progress: bool = True,
    spatial_fps: float = 2.0,
    clip: bool = True,
    partial: Path | None = None,
) -> VideoIndex:
    """Decode the video once and measure everything. With `partial` (a directory), finished
    chunks are kept there as they complete and a build killed earlier resumes after them."""
    t0 = time.perf_counter()
    # Before decord: torch's BLAS must be loaded first (decord-then-torch crashed a BLAS call).
    embedder, clip_state = _clip_embedder(clip, progress)
    info = probe_video(path)
    times = presentation_times(info.path, info)
    plan = plan_for(info, spatial_fps=spatial_fps, mid_fps=1.0 if embedder else None)
    per_chunk = chunk_frames(info.fps, (plan.hi_every, plan.mid_every or 1, BLOCK))
    store = None
    if partial is not None:
        store = PartialStore(partial, chunk_key(info, plan, per_chunk, embedder))
    bar = tqdm(
        total=info.n_frames, unit="frame", desc="indexing", disable=not progress,
        file=sys.stderr, dynamic_ncols=True, smoothing=0.1,
    )
    with bar:
        res = run_pass(info, times, plan, bar.update, embedder, store, per_chunk)
    if res.resumed_from and progress:
        sys.stderr.write(f"resumed at frame {res.resumed_from} of {info.n_frames} "
                         f"(decoded {res.decoded} frames in this run)\n")
    frames = res.frames
    n_done = res.n_done
    warnings: list[str] = list(res.notes)
    if n_done != len(times):
        if n_done < 0.98 * len(times):
            warnings.append(
                f"decoded {n_done} of {len(times)} frames: the file is truncated or damaged"
            )
        step = 1.0 / info.fps
        times = (
            times[:n_done]
            if n_done <= len(times)
            else np.concatenate([times, times[-1] + step * np.arange(1, n_done - len(times) + 1)])
        )
    frames["t"] = times.astype(np.float64)
    # Decoder errors per frame (where the decoder logged them: a damaged stream).
    frames["decode_errors"] = np.bincount(
        np.clip(np.asarray(res.damage, dtype=np.int64), 0, max(0, len(times) - 1)),
        minlength=len(times)).astype(np.float32)[: len(times)]
    samples = _samples(res.samples, times)
    scenes, events = derive(info.fps, frames, samples, res.raw_cuts)
    clip_index = None
    if embedder:
        try:
            clip_index = embedder.finish()
            if not getattr(clip_index, "enabled", True):
                clip_state = f"off: {clip_index.reason}"
                clip_index = None
        except Exception as exc:  # noqa: BLE001 - retrieval failure must not lose the index
            clip_state = f"off: embedding failed ({exc})"
    meta = {
        "analyzer_version": ANALYZER_VERSION,
        "signals_version": SIGNALS_VERSION,
        "events_version": EVENTS_VERSION,
        "build_s": round(time.perf_counter() - t0, 3),
        "plan": {"lo_size": plan.lo_size, "hi_every": plan.hi_every, "mid_every": plan.mid_every},
        "warnings": warnings,
        "raw_cuts": sorted(set(res.raw_cuts)),
        "clip": _clip_meta(clip_state, clip_index),
        "pass": {"resumed_from": res.resumed_from, "decoded": res.decoded,
                 "chunk_frames": per_chunk, "chunks_written": res.chunks_written,
                 "clip_stored": res.clip_stored},
    }
    return VideoIndex(info, frames, samples, scenes, events, meta, clip=clip_index)


def _samples(rows: dict[str, np.ndarray], times: np.ndarray) -> dict[str, np.ndarray]:
    """The spatial rows of frames the video has, with their times."""
    keep = rows["frame"] < len(times)
    res = {k: v[keep] for k, v in rows.items()}
    res["t"] = times[res["frame"]].astype(np.float64) if keep.any() else np.zeros(0)
    return res


# ---------------------------------------------------------------- storage


def index_dir(path: str | os.PathLike[str], cache_dir: Path | None = None) -> Path:
    """The cache directory of a video's index (by content fingerprint)."""
    return (cache_dir or default_cache_dir()) / fingerprint(path)


def save(index: VideoIndex, directory: Path) -> None:
    """Write an index atomically: a reader sees the old one or the complete new one."""
    with atomic_dir(directory) as tmp:
        pq.write_table(pa.table({k: v for k, v in index.frames.items()}), tmp / "frames.parquet")
        pq.write_table(pa.table({k: v for k, v in index.samples.items()}), tmp / "samples.parquet")
        tables = table_records(tmp, {"frames": len(index.frames["t"]),
                                     "samples": len(index.samples["t"])})
        if index.clip is not None:
            (tmp / "clip").mkdir()
            index.clip.save(tmp / "clip")
        meta = dict(index.meta)
        meta.update(
            info=index.info.to_dict(),
            scenes=[s.to_dict() for s in index.scenes],
            events=[e.to_dict() for e in index.events],
            tables=tables,
            complete=True,
        )
        meta.pop("cached", None)
        (tmp / META).write_text(json.dumps(meta, indent=1))
    index.directory = directory


def load(directory: Path, video_path: str | None = None) -> VideoIndex:
    """Read a stored index; IndexError_ when it is incomplete or its signals are from another
    analyzer version. Scenes and events from an older detector are re-derived and stored."""
    try:
        meta = json.loads((directory / META).read_text())
    except (OSError, ValueError) as exc:
        raise IndexError_(f"no usable index in {directory}: {exc}") from None
    if isinstance(meta, dict):  # an index of another version is stale, not damaged
        # Indexes of analyzer versions <= 7 carried one version number for signals and events.
        signals_version = meta.get("signals_version", meta.get("analyzer_version"))
        if not meta.get("complete") or signals_version != SIGNALS_VERSION:
            raise IndexError_(
                f"index in {directory} is from analyzer version {meta.get('analyzer_version')}"
                f", this is {ANALYZER_VERSION}"
            )
    info, scenes, events = check_meta(meta, directory)
    try:
        check_files(meta, directory)
        frames = read_columns(directory / "frames.parquet")
        samples = read_columns(directory / "samples.parquet")
    except (OSError, pa.ArrowException) as exc:
        raise IndexError_(f"damaged index in {directory}: {exc}") from None
    check_tables(meta, info, frames, samples, directory)
    if meta.get("events_version") != EVENTS_VERSION:
        _rederive(directory, meta, info.fps, frames, samples)
        scenes = [Scene(**s) for s in meta["scenes"]]
        events = [Event(**e) for e in meta["events"]]
    for key in ("info", "scenes", "events"):
        meta.pop(key)
    if video_path:
        info = VideoInfo(**{**info.to_dict(), "path": str(Path(video_path).resolve())})
    index = VideoIndex(info, frames, samples, scenes, events, meta, directory)
    if (directory / "clip").is_dir():
        index.clip = _load_clip(directory / "clip", meta)
    return index


def _rederive(
    directory: Path,
    meta: dict[str, Any],
    fps: float,
    frames: dict[str, np.ndarray],
    samples: dict[str, np.ndarray],
) -> None:
    """Run the current scene and event detectors on stored signals; rewrite meta.json atomically
    (a failed write only means deriving again next time)."""
    if "raw_cuts" not in meta:
        raise IndexError_(f"index in {directory} has no raw cuts to re-derive scenes from")
    scenes, events = derive(fps, frames, samples, meta["raw_cuts"])
    meta.update(
        scenes=[s.to_dict() for s in scenes],
        events=[e.to_dict() for e in events],
        signals_version=SIGNALS_VERSION,
        events_version=EVENTS_VERSION,
        analyzer_version=ANALYZER_VERSION,
    )
    tmp = directory / f".{META}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps(meta, indent=1))
        os.replace(tmp, directory / META)
    except OSError:
        tmp.unlink(missing_ok=True)


def _load_clip(directory: Path, meta: dict[str, Any]):
    """The stored CLIP index, or None with the reason recorded in meta['clip']['status']."""
    try:
        from tools.embed import ClipConfig, FrameIndex

        return FrameIndex.load(directory, ClipConfig.from_env())
    except Exception as exc:  # noqa: BLE001 - retrieval off, everything else works
        meta.setdefault("clip", {})["status"] = f"off: {exc}"
        return None


def get_index(
    path: str | os.PathLike[str],
    cache_dir: Path | None = None,
    progress: bool = True,
    rebuild: bool = False,
    clip: bool = True,
) -> VideoIndex:
    """The index of a video: from the cache when valid, else measured now and cached."""
    p = check_path(path)
    root = cache_dir or default_cache_dir()
    directory = index_dir(p, root)
    if not rebuild and (index := _cached(directory, p)) is not None:
        return index
    if not writable(root):
        warn_unwritable(root)
        return _in_memory(p, directory, progress, clip)
    sweep_stale(root)
    with build_lock(root, directory.name):
        if not rebuild and (index := _cached(directory, p)) is not None:
            return index  # built by another process while this one waited
        partial = partial_dir(root, directory.name)
        index = _in_memory(p, directory, progress, clip, partial)
        try:
            save(index, directory)
        except OSError:  # the cache filled up or turned read-only while measuring
            warn_unwritable(root)
            _drop_partial(partial)  # no half of a build left on a full disk
            return index
        _drop_partial(partial)  # the finished index replaces the chunks
    return index


def _cached(directory: Path, p: Path) -> VideoIndex | None:
    """The stored index in `directory`, or None when there is none or it is stale or damaged
    (then it is rebuilt)."""
    if not _is_file(directory / META):
        return None
    try:
        index = load(directory, str(p))
    except IndexError_:
        return None
    index.meta["cached"] = True
    return index


def _drop_partial(partial: Path) -> None:
    """Remove a build's chunks, and the chunks folder when no other build is left in it."""
    shutil.rmtree(partial, ignore_errors=True)
    with contextlib.suppress(OSError):
        partial.parent.rmdir()


def partial_dir(root: Path, fingerprint_: str) -> Path:
    """Where an unfinished build of a video keeps its finished chunks (see tools.chunks)."""
    return root / PARTIAL / f"{fingerprint_}-s{SIGNALS_VERSION}"


def _in_memory(
    p: Path, directory: Path, progress: bool, clip: bool, partial: Path | None = None
) -> VideoIndex:
    index = measure(p, progress=progress, clip=clip, partial=partial)
    index.meta["fingerprint"] = directory.name
    return index


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # an unreadable cache directory holds nothing usable
        return False
