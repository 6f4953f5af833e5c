"""One video's items answered in order: the unit of work every executor (serial, worker
processes, Ray) runs. Items of a video share one index (agent) or one set of sampled frames
(uniform); every item ends as exactly one record, answered or with its error."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.items import Item
from bench.run.config import RESULT_VERSION, RunConfig
from bench.run.grading import grade, open_score
from bench.run.tracks import Prediction

Emit = Callable[[dict[str, Any]], None]


def torch_first(cfg: RunConfig) -> None:
    """Import torch before anything loads decord when open answers will be scored.

    With decord imported first, the first BLAS call of the sentence model segfaults here
    (decord's bundled libraries and torch's BLAS, "[NVBLAS] ..." on stderr).
    """
    if cfg.open_scoring:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # the scoring model is bundled
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import torch  # noqa: F401
        except ImportError:  # no [bench] extra: the scorer says so when it is first needed
            pass


def make_brain(cfg: RunConfig) -> Any:
    """The brain the config names (model settings for the openai brain)."""
    from agent.brains import get_brain

    opts = {"model": cfg.model, "base_url": cfg.base_url} if cfg.brain == "openai" else {}
    return get_brain(cfg.brain, **opts)


def check_brain(brain: Any, cfg: RunConfig) -> None:
    """Refuse a model that cannot take what the track sends (uniform frames need images)."""
    if cfg.sends == "images":
        from bench.uniform_model import require_images

        require_images(brain)


def prepare(video: str, cfg: RunConfig) -> tuple[dict[str, Any], dict[str, Any]]:
    """What all items of a video share (index / sampled frames), and how long it took."""
    t0 = time.perf_counter()
    cache = Path(cfg.cache_dir) if cfg.cache_dir else None
    if cfg.track == "agent":
        from tools.index import get_index

        index = get_index(video, cache_dir=cache, progress=False, clip=False)
        cached = bool(index.meta.get("cached"))
        return {"index": index, "duration_s": float(index.info.duration_s)}, {
            "prep": "index", "prep_cached": cached,
            "prep_s": 0.0 if cached else float(index.meta.get("build_s") or 0.0)}
    from bench.run import uniform_track

    if cfg.sends == "numbers":
        samples = uniform_track.measure_samples(video, cfg.frames, cfg.max_fps)
        shared = {"samples": samples, "duration_s": samples.duration_s}
    else:
        frames, times, duration = uniform_track.uniform_frames(video, cfg.frames, cfg.max_fps)
        shared = {"frames": frames, "times": times, "duration_s": duration}
    return shared, {"prep": "frames", "prep_cached": False,
                    "prep_s": round(time.perf_counter() - t0, 3)}


def answer_item(item: Item, video: str, shared: dict[str, Any], brain: Any,
                cfg: RunConfig) -> Prediction:
    """One item answered on the config's track from what its video's items share."""
    from bench import uniform_model
    from bench.run import agent_track, uniform_track

    if cfg.track == "agent":
        cache = Path(cfg.cache_dir) if cfg.cache_dir else None
        return agent_track.agent_answer(video, item.question, item.options, brain,
                                        shared["index"], cache, cfg.max_steps)
    if cfg.brain == "local":
        return uniform_track.uniform_local(shared["samples"], item.question, item.options)
    if cfg.sends == "numbers":
        return uniform_model.uniform_numbers(shared["samples"], item.question, item.options,
                                             brain)
    return uniform_model.uniform_model(shared["frames"], shared["times"], shared["duration_s"],
                                       item.question, item.options, brain)


def base_record(item: Item, video: str, cfg: RunConfig) -> dict[str, Any]:
    """The fields every record of an item carries, whatever became of it."""
    return {"v": RESULT_VERSION, "id": item.id, "benchmark": item.benchmark,
            "video": item.video, "path": video,
            "track": cfg.track, "brain": cfg.brain, "model": cfg.model,
            "level": item.tags.get("level"), "dimension": item.tags.get("dimension"),
            "format": item.format, "question": item.question, "options": item.options,
            "gold": item.gold}


def fail_items(items: Sequence[Item], video: str, cfg: RunConfig, exc: BaseException,
               emit: Emit) -> None:
    """One error record per item of a video (or pair) that could not be prepared."""
    from agent.brains.redact import scrub_value

    for item in items:
        emit(scrub_value({**base_record(item, video, cfg),
                          "error": f"{type(exc).__name__}: {exc}",
                          "correct": False if item.format == "mcq" else None}))


def run_video(video: str | tuple[str, ...], items: Sequence[Item], cfg: RunConfig,
              emit: Emit) -> None:
    """Answer one video's (or pair's) items in order, emitting one record per item."""
    from agent.brains.redact import scrub_value

    if isinstance(video, tuple):
        from bench.pairs import run_pair

        run_pair(video, items, cfg, emit)
        return

    try:
        brain = make_brain(cfg)
        check_brain(brain, cfg)
        shared, prep = prepare(video, cfg)
    except Exception as exc:  # noqa: BLE001 - a video that cannot be read ends its items only
        fail_items(items, video, cfg, exc, emit)
        return
    for k, item in enumerate(items):
        rec = {**base_record(item, video, cfg), **prep}
        if k:
            rec["prep_s"] = 0.0  # counted once per video
        try:
            pred = answer_item(item, video, shared, brain, cfg)
        except Exception as exc:  # noqa: BLE001 - one failing item must not end the run
            emit(scrub_value({**rec, "error": f"{type(exc).__name__}: {exc}",
                              "correct": False if item.format == "mcq" else None}))
            continue
        rec.update(grade(item, pred, shared["duration_s"]))
        rec.update(response=pred.response, choice=pred.choice, segments=pred.segments,
                   frames=pred.frames, windows=pred.windows, steps=pred.steps,
                   tokens=pred.tokens, latency_s=pred.latency_s, trace_id=pred.trace_id,
                   sent=pred.sent, open=open_score(item, pred, cfg), error=None)
        emit(scrub_value(rec))
