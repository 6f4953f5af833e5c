"""Items about two videos (Q-Bench-Video's "a.mp4_cat_b.mp4" pairs) on both tracks.

- ``uniform``: each video gets half the frame budget. A model brain gets one request with the
  frames (or their measurements) of Video 1, then of Video 2, each block labelled; the local
  brain compares the events its rules find in each video's samples (bench.pair_rules).
- ``agent`` with the local brain: both videos are indexed and the measured events compared
  (bench.pair_rules). The agent loop takes one video, so a model brain's pair items are
  recorded as skipped, with the reason.

A pair that cannot be answered is recorded, never ends the run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.items import Item
from bench.pair_rules import answer_pair
from bench.scoring import fill_prompt, load_prompt
from bench.tracks import MAX_FPS, Prediction, sent_record, uniform_prompt

if TYPE_CHECKING:
    from bench.runner import RunConfig

AGENT_MODEL_SKIP = ("pair item: the agent track compares two videos with the local brain "
                    "only (the agent loop takes one video)")


def skip_reason(cfg: RunConfig) -> str | None:
    """Why this run cannot answer pair items (None when it can)."""
    if cfg.track == "agent" and cfg.brain != "local":
        return AGENT_MODEL_SKIP
    return None


def pair_frames(cfg: RunConfig) -> int:
    """Frames per video of a pair: half the run's budget (at least one)."""
    return max(1, cfg.frames // 2)


# ---------------------------------------------------------------- preparing both videos


def prepare(videos: Sequence[str], cfg: RunConfig) -> tuple[list[dict[str, Any]], float]:
    """What each video of the pair gives (index, samples or frames); seconds it took."""
    from bench import tracks

    t0 = time.perf_counter()
    out: list[dict[str, Any]] = []
    n = pair_frames(cfg)
    for video in videos:
        if cfg.track == "agent":
            from tools.index import get_index

            cache = Path(cfg.cache_dir) if cfg.cache_dir else None
            index = get_index(video, cache_dir=cache, progress=False, clip=False)
            out.append({"events": index.events, "duration_s": float(index.info.duration_s)})
        elif cfg.sends == "numbers":
            s = tracks.measure_samples(video, n, cfg.max_fps)
            out.append({"samples": s, "duration_s": s.duration_s})
        else:
            frames, times, duration = tracks.uniform_frames(video, n, cfg.max_fps)
            out.append({"frames": frames, "times": times, "duration_s": duration})
    return out, round(time.perf_counter() - t0, 3)


# ---------------------------------------------------------------- answering


def _question_part(item: Item, duration_s: float, n_frames: int) -> str:
    b2 = uniform_prompt(item.question, item.options, duration_s, n_frames)
    return b2[b2.index("Question:"):]


def pair_content(item: Item, shared: Sequence[dict[str, Any]],
                 mode: str) -> list[dict[str, Any]] | str:
    """The request for a model: intro, Video 1's block, Video 2's block, the question."""
    from bench.uniform_model import data_url, numbers_table

    intro = fill_prompt(load_prompt("uniform_pair.md"), fps=f"{MAX_FPS:g}").strip()
    if mode == "numbers":
        notes = load_prompt("uniform_numbers.md")
        notes = notes[notes.index("What the columns measure"):].strip()
        blocks = []
        for k, sh in enumerate(shared, start=1):
            s = sh["samples"]
            size = f"{s.size[0]}x{s.size[1]}" if s.size else "native"
            blocks.append(f"Video {k} lasts {s.duration_s:.0f} seconds. You are not shown its "
                          f"frames; measurements of {len(s.times)} of them ({size} pixels), "
                          f"one row per frame:\n\n{numbers_table(s)}")
        n = sum(len(sh["samples"].times) for sh in shared)
        return "\n\n".join([intro, *blocks, notes,
                            _question_part(item, shared[0]["duration_s"], n)])
    content: list[dict[str, Any]] = [{"type": "text", "text": intro}]
    for k, sh in enumerate(shared, start=1):
        content.append({"type": "text", "text": f"Video {k} lasts {sh['duration_s']:.0f} "
                                                f"seconds; its {len(sh['frames'])} frames:"})
        content += [{"type": "image_url", "image_url": {"url": data_url(f)}}
                    for f in sh["frames"]]
    n = sum(len(sh["frames"]) for sh in shared)
    content.append({"type": "text", "text": _question_part(item, shared[0]["duration_s"], n)})
    return content


def _events(sh: dict[str, Any]) -> list[Any]:
    if "events" in sh:
        return list(sh["events"])
    from bench.tracks import sample_evidence

    return sample_evidence(sh["samples"])[0]


def answer(item: Item, shared: Sequence[dict[str, Any]], brain: Any,
           cfg: RunConfig) -> Prediction:
    """One pair item answered by the run's track and brain."""
    t0 = time.perf_counter()
    times = [[round(float(t), 3) for t in (sh.get("times") if "times" in sh else
                                           getattr(sh.get("samples"), "times", []))]
             for sh in shared]
    if cfg.brain == "local":
        ans = answer_pair(item.question, item.options,
                          [(_events(sh), sh["duration_s"]) for sh in shared])
        sent = None if cfg.track == "agent" else sent_record(
            "numbers", sum(map(len, times)), shared[0]["samples"].size)
        return Prediction(response=ans.text, choice=ans.choice, frames=times[0] + times[1],
                          steps=1, latency_s=round(time.perf_counter() - t0, 4), sent=sent)
    from bench.uniform_model import _ask, require_images

    mode = cfg.sends or "images"
    if mode == "images":
        require_images(brain)
    raw, tokens = _ask(brain, pair_content(item, shared, mode))
    first = shared[0].get("frames") if mode == "images" else None
    size = (first[0].shape[1], first[0].shape[0]) if first is not None and len(first) else \
        (shared[0]["samples"].size if mode == "numbers" else None)
    return Prediction(response=raw, choice=None, frames=times[0] + times[1], steps=1,
                      tokens=tokens, latency_s=round(time.perf_counter() - t0, 3),
                      sent={**sent_record(mode, sum(map(len, times)), size),
                            "per_video": [len(t) for t in times]})


# ---------------------------------------------------------------- one pair (in a worker)


def run_pair(videos: tuple[str, ...], items: Sequence[Item], cfg: RunConfig,
             emit: Callable[[dict[str, Any]], None]) -> None:
    """Answer one pair's items in order (or record them skipped), one record per item."""
    from agent.brains.redact import scrub_value
    from bench.runner import _base, _brain, _check_brain, _open_score, fail_items, grade

    path = " + ".join(videos)
    reason = skip_reason(cfg)
    if reason:
        for item in items:
            emit({**_base(item, path, cfg), "skipped": reason, "correct": None, "error": None})
        return
    try:
        brain = _brain(cfg)
        _check_brain(brain, cfg)
        shared, prep_s = prepare(videos, cfg)
    except Exception as exc:  # noqa: BLE001 - a video that cannot be read ends its items only
        fail_items(items, path, cfg, exc, emit)
        return
    for k, item in enumerate(items):
        rec = {**_base(item, path, cfg), "pair": True, "prep": "pair", "prep_cached": False,
               "prep_s": 0.0 if k else prep_s}
        try:
            pred = answer(item, shared, brain, cfg)
        except Exception as exc:  # noqa: BLE001 - one failing item must not end the run
            emit(scrub_value({**rec, "error": f"{type(exc).__name__}: {exc}",
                              "correct": False if item.format == "mcq" else None}))
            continue
        rec.update(grade(item, pred, shared[0]["duration_s"]))
        rec.update(response=pred.response, choice=pred.choice, segments=pred.segments,
                   frames=pred.frames, windows=pred.windows, steps=pred.steps,
                   tokens=pred.tokens, latency_s=pred.latency_s, trace_id=pred.trace_id,
                   sent=pred.sent, open=_open_score(item, pred, cfg), error=None)
        emit(scrub_value(rec))
