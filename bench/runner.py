"""Benchmark runner: answer every item of an item file with one track and brain, resumably.

Per-item results go to a JSON Lines file, one line appended and flushed as each item is
answered, never rewritten: an interrupted run is started again with the same command and
skips the item ids already there (items that ended in an error are tried again; readers take
the last line of an id). Videos run in parallel over worker processes; inside a worker the
items of one video share one index (agent) or one set of sampled frames (uniform).

    bench run --items items.jsonl --track agent --brain local --out agent.jsonl
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import queue
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.items import Item, load_items
from bench.provenance import collect
from bench.scoring import McqResult, accuracy_report, extract_choice, mean_by, temporal_iou
from bench.tracks import DEFAULT_FRAMES, MAX_FPS, Prediction, check_track
from tools.errors import InputError

RESULT_VERSION = 1


def _numbers_asked() -> bool:
    """Whether $LVQ_UNIFORM_NUMBERS asks for the measured-numbers uniform variant."""
    return os.environ.get("LVQ_UNIFORM_NUMBERS", "").strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True)
class RunConfig:
    """How items are answered: track, brain and their settings."""

    track: str
    brain: str = "local"
    frames: int = DEFAULT_FRAMES
    max_fps: float = MAX_FPS
    max_steps: int = 12
    workers: int = 1
    cache_dir: str | None = None
    video_dir: str | None = None
    model: str | None = None
    base_url: str | None = None
    judge_model: str | None = None
    open_scoring: bool = True
    fsync: bool = False
    # uniform + openai: send the frames' measurements, not the frames (only when asked)
    uniform_numbers: bool = field(default_factory=_numbers_asked)

    def check(self) -> RunConfig:
        check_track(self.track)
        if self.brain not in ("local", "openai"):
            raise ValueError(f"unknown brain {self.brain!r}; valid brains: local, openai")
        if self.frames < 1 or self.workers < 1 or self.max_steps < 1:
            raise ValueError("--frames, --workers and --max-steps must be at least 1")
        return self

    @property
    def label(self) -> str:
        return f"{self.track}/{self.brain}"

    @property
    def sends(self) -> str | None:
        """What a uniform answer is given: "images" or "numbers" (None on the agent track)."""
        if self.track != "uniform":
            return None
        return "images" if self.brain == "openai" and not self.uniform_numbers else "numbers"


# ---------------------------------------------------------------- results file


def read_results(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """The last record of every item id in a results file (unreadable lines skipped)."""
    out: dict[str, dict[str, Any]] = {}
    p = Path(path)
    if not p.exists():
        return out
    with open(p, encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut by a kill mid-write
            if isinstance(rec, dict) and isinstance(rec.get("id"), str):
                out[rec["id"]] = rec
    return out


class ResultWriter:
    """Appends one JSON line per record and flushes it (fsync optional)."""

    def __init__(self, path: Path, fsync: bool = False) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(path, "a+b")  # noqa: SIM115 - closed in close()
        self.fsync = fsync
        self.fh.seek(0, os.SEEK_END)
        if self.fh.tell():
            self.fh.seek(-1, os.SEEK_END)
            if self.fh.read(1) != b"\n":  # a killed run left half a line: end it
                self.fh.write(b"\n")
        self.fh.seek(0, os.SEEK_END)

    def write(self, rec: dict[str, Any]) -> None:
        self.fh.write((json.dumps(rec, ensure_ascii=False) + "\n").encode("utf-8"))
        self.fh.flush()
        if self.fsync:
            os.fsync(self.fh.fileno())

    def close(self) -> None:
        self.fh.close()


# ---------------------------------------------------------------- grading one item


def option_window(text: str, duration_s: float) -> tuple[float, float] | None:
    """The time window an option names ("1:15 - 1:30"), if any."""
    from agent.questions import windows

    found = windows(text, duration_s or 1e9)
    return (found[0].start_s, found[0].end_s) if found else None


def grade(item: Item, pred: Prediction, duration_s: float) -> dict[str, Any]:
    """prediction, correct and IoU fields of one item's record."""
    out: dict[str, Any] = {"prediction": None, "correct": None, "iou": None,
                           "iou_choice": None}
    if item.format == "open":
        out["prediction"] = pred.response
        return out
    letter = pred.choice if pred.choice in {chr(65 + i) for i in range(len(item.options))} \
        else extract_choice(pred.choice or pred.response, item.options)
    out["prediction"] = letter
    out["correct"] = None if item.gold is None else letter == item.gold
    if item.tags.get("dimension") == "localization" and item.spans:
        gold = [(s.start_s, s.end_s) for s in item.spans]
        chosen = option_window(item.options[ord(letter) - 65], duration_s) if letter else None
        segs = [(s["start_s"], s["end_s"]) for s in pred.segments]
        out["iou_choice"] = round(temporal_iou([chosen] if chosen else [], gold), 4)
        out["iou"] = round(temporal_iou(segs, gold), 4) if segs else out["iou_choice"]
    return out


def _open_score(item: Item, pred: Prediction, cfg: RunConfig) -> dict[str, Any] | None:
    if item.format != "open" or not item.gold or not (cfg.open_scoring or cfg.judge_model):
        return None
    from bench.scoring import score_open

    try:
        s = score_open(item.question, item.gold, pred.response or "",
                       judge_model=cfg.judge_model, base_url=cfg.base_url,
                       embedding=cfg.open_scoring)
    except Exception as exc:  # noqa: BLE001 - a scorer failure must not lose the answer
        return {"error": f"{type(exc).__name__}: {exc}"}
    d = s.as_dict()
    d.pop("judge_raw", None)
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}


# ---------------------------------------------------------------- one video (in a worker)

_QUEUE: Any = None


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


def _init_worker(q: Any, cfg_d: dict[str, Any]) -> None:
    global _QUEUE
    _QUEUE = q
    torch_first(RunConfig(**cfg_d))


def _brain(cfg: RunConfig) -> Any:
    from agent.brains import get_brain

    opts = {"model": cfg.model, "base_url": cfg.base_url} if cfg.brain == "openai" else {}
    return get_brain(cfg.brain, **opts)


def _prepare(video: str, cfg: RunConfig) -> tuple[dict[str, Any], dict[str, Any]]:
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
    from bench import tracks

    if cfg.sends == "numbers":
        samples = tracks.measure_samples(video, cfg.frames, cfg.max_fps)
        shared = {"samples": samples, "duration_s": samples.duration_s}
    else:
        frames, times, duration = tracks.uniform_frames(video, cfg.frames, cfg.max_fps)
        shared = {"frames": frames, "times": times, "duration_s": duration}
    return shared, {"prep": "frames", "prep_cached": False,
                    "prep_s": round(time.perf_counter() - t0, 3)}


def _answer(item: Item, video: str, shared: dict[str, Any], brain: Any,
            cfg: RunConfig) -> Prediction:
    from bench import tracks, uniform_model

    if cfg.track == "agent":
        cache = Path(cfg.cache_dir) if cfg.cache_dir else None
        return tracks.agent_answer(video, item.question, item.options, brain, shared["index"],
                                   cache, cfg.max_steps)
    if cfg.brain == "local":
        return tracks.uniform_local(shared["samples"], item.question, item.options)
    if cfg.sends == "numbers":
        return uniform_model.uniform_numbers(shared["samples"], item.question, item.options,
                                             brain)
    return uniform_model.uniform_model(shared["frames"], shared["times"], shared["duration_s"],
                                       item.question, item.options, brain)


def _check_brain(brain: Any, cfg: RunConfig) -> None:
    """Refuse a model that cannot take what the track sends (uniform frames need images)."""
    if cfg.sends == "images":
        from bench.uniform_model import require_images

        require_images(brain)


def _base(item: Item, video: str, cfg: RunConfig) -> dict[str, Any]:
    return {"v": RESULT_VERSION, "id": item.id, "video": item.video, "path": video,
            "track": cfg.track, "brain": cfg.brain, "model": cfg.model,
            "level": item.tags.get("level"), "dimension": item.tags.get("dimension"),
            "format": item.format, "question": item.question, "options": item.options,
            "gold": item.gold}


def fail_items(items: Sequence[Item], video: str, cfg: RunConfig, exc: BaseException,
               emit: Callable[[dict[str, Any]], None]) -> None:
    """One error record per item of a video (or pair) that could not be prepared."""
    from agent.brains.redact import scrub_value

    for item in items:
        emit(scrub_value({**_base(item, video, cfg), "error": f"{type(exc).__name__}: {exc}",
                          "correct": False if item.format == "mcq" else None}))


def run_video(video: str | tuple[str, ...], items: Sequence[Item], cfg: RunConfig,
              emit: Callable[[dict[str, Any]], None]) -> None:
    """Answer one video's (or pair's) items in order, emitting one record per item."""
    from agent.brains.redact import scrub_value

    if isinstance(video, tuple):
        from bench.pairs import run_pair

        run_pair(video, items, cfg, emit)
        return

    try:
        brain = _brain(cfg)
        _check_brain(brain, cfg)
        shared, prep = _prepare(video, cfg)
    except Exception as exc:  # noqa: BLE001 - a video that cannot be read ends its items only
        fail_items(items, video, cfg, exc, emit)
        return
    for k, item in enumerate(items):
        rec = {**_base(item, video, cfg), **prep}
        if k:
            rec["prep_s"] = 0.0  # counted once per video
        try:
            pred = _answer(item, video, shared, brain, cfg)
        except Exception as exc:  # noqa: BLE001 - one failing item must not end the run
            emit(scrub_value({**rec, "error": f"{type(exc).__name__}: {exc}",
                              "correct": False if item.format == "mcq" else None}))
            continue
        rec.update(grade(item, pred, shared["duration_s"]))
        rec.update(response=pred.response, choice=pred.choice, segments=pred.segments,
                   frames=pred.frames, windows=pred.windows, steps=pred.steps,
                   tokens=pred.tokens, latency_s=pred.latency_s, trace_id=pred.trace_id,
                   sent=pred.sent, open=_open_score(item, pred, cfg), error=None)
        emit(scrub_value(rec))


def _worker_job(job: tuple[str | tuple[str, ...], list[dict[str, Any]], dict[str, Any]]) -> int:
    video, raw_items, cfg_d = job
    items = [Item.model_validate(d) for d in raw_items]
    run_video(video, items, RunConfig(**cfg_d), _QUEUE.put)
    return len(items)


# ---------------------------------------------------------------- the run


def resolve_videos(item: Item, video_dir: Path) -> list[str]:
    """An item's video paths: absolute as given, else relative to video_dir."""
    return [str(p if (p := Path(v)).is_absolute() else video_dir / p) for v in item.videos]


def job_key(item: Item, video_dir: Path) -> str | tuple[str, ...]:
    """What an item's answer is prepared from: its video's path, or a pair's (a tuple)."""
    paths = resolve_videos(item, video_dir)
    return paths[0] if len(paths) == 1 else tuple(paths)


def _check_compatible(done: dict[str, dict[str, Any]], cfg: RunConfig, out: Path) -> None:
    for rec in done.values():
        if rec.get("track") != cfg.track or rec.get("brain") != cfg.brain:
            raise ValueError(
                f"{out} holds results of track {rec.get('track')}/{rec.get('brain')}, not "
                f"{cfg.label}: use another --out")
        break
    modes = {(r.get("sent") or {}).get("mode") for r in done.values() if r.get("sent")}
    if cfg.sends and modes - {cfg.sends}:
        raise ValueError(f"{out} holds uniform results made from {', '.join(sorted(modes))}, "
                         f"not {cfg.sends}: use another --out")


def pending_jobs(items: Sequence[Item], done: dict[str, dict[str, Any]],
                 video_dir: Path) -> dict[str | tuple[str, ...], list[Item]]:
    """Items still to answer (not in the results, or ended in an error), by video or pair."""
    jobs: dict[str | tuple[str, ...], list[Item]] = defaultdict(list)
    for it in items:
        rec = done.get(it.id)
        if rec is not None and not rec.get("error"):
            continue
        jobs[job_key(it, video_dir)].append(it)
    return dict(jobs)


def run(items_path: str | os.PathLike[str], out_path: str | os.PathLike[str], cfg: RunConfig,
        *, limit: int | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Answer the pending items (at most `limit`), append their records; the summary."""
    cfg.check()
    items_path, out = Path(items_path), Path(out_path)
    items, errors = load_items(items_path)
    if any(it.format == "open" for it in items):
        torch_first(cfg)
    if not items:
        reason = f": {errors[0]}" if errors else ""
        raise InputError(f"no valid items in {items_path}{reason}")
    done = read_results(out)
    _check_compatible(done, cfg, out)
    if cfg.sends == "images":  # refuse a text-only model before any work (one line)
        _check_brain(_brain(cfg), cfg)
    video_dir = Path(cfg.video_dir) if cfg.video_dir else items_path.parent
    jobs = pending_jobs(items, done, video_dir)
    already = len(items) - sum(map(len, jobs.values()))
    if limit is not None:
        jobs = _limit(jobs, limit)
    t0 = time.perf_counter()
    writer = ResultWriter(out, cfg.fsync)
    n_new = 0

    def emit(rec: dict[str, Any]) -> None:
        nonlocal n_new
        rec["run_time"] = time.strftime("%Y-%m-%dT%H:%M:%S")
        writer.write(rec)
        n_new += 1
        if on_record:
            on_record(rec)

    try:
        if cfg.workers <= 1 or len(jobs) <= 1:
            for video, its in jobs.items():
                run_video(video, its, cfg, emit)
        else:
            _run_parallel(jobs, cfg, emit)
    finally:
        writer.close()
    wall = time.perf_counter() - t0
    summary = summarize(items, read_results(out), cfg)
    summary["provenance"] = collect(cfg, wall_s=wall, items_path=items_path)
    summary["this_run"] = {"answered": n_new, "wall_s": round(wall, 2),
                           "skipped_already_done": already,
                           "item_file_errors": [str(e) for e in errors[:20]]}
    return summary


def _limit(jobs: dict[Any, list[Item]], limit: int) -> dict[Any, list[Item]]:
    out: dict[Any, list[Item]] = {}
    left = max(0, limit)
    for video, its in jobs.items():
        if left <= 0:
            break
        out[video] = its[:left]
        left -= len(out[video])
    return out


def _run_parallel(jobs: dict[Any, list[Item]], cfg: RunConfig,
                  emit: Callable[[dict[str, Any]], None]) -> None:
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    cfg_d = asdict(cfg)
    # Longest jobs first, so the last worker is not left with a long video.
    order = sorted(jobs.items(), key=lambda kv: -len(kv[1]))
    with ProcessPoolExecutor(min(cfg.workers, len(jobs)), mp_context=ctx,
                             initializer=_init_worker, initargs=(q, cfg_d)) as pool:
        futures = [pool.submit(_worker_job, (v, [i.model_dump() for i in its], cfg_d))
                   for v, its in order]
        pending = set(futures)
        try:
            while pending:
                try:
                    emit(q.get(timeout=0.2))
                except queue.Empty:
                    pass
                for f in [f for f in pending if f.done()]:
                    pending.discard(f)
                    f.result()  # a crashed worker raises here (records so far are kept)
        except KeyboardInterrupt:
            _drain(q, emit, timeout=0.05)  # keep what the workers finished
            pool.shutdown(wait=False, cancel_futures=True)
            # A Ctrl-C reaches the workers too; a SIGINT sent to this process alone does not,
            # and leaving the pool would wait for their current videos.
            for proc in list((getattr(pool, "_processes", None) or {}).values()):
                proc.terminate()
            raise
        _drain(q, emit, timeout=0.5)


def _drain(q: Any, emit: Callable[[dict[str, Any]], None], timeout: float) -> None:
    """Emit the records still waiting in the workers' queue."""
    while True:
        try:
            emit(q.get(timeout=timeout))
        except queue.Empty:
            return


# ---------------------------------------------------------------- indexes


def _index_one(args: tuple[str, str | None]) -> dict[str, Any]:
    from tools.index import get_index

    video, cache = args
    t0 = time.perf_counter()
    index = get_index(video, cache_dir=Path(cache) if cache else None, progress=False,
                      clip=False)
    cached = bool(index.meta.get("cached"))
    return {"video": video, "cached": cached,
            "build_s": 0.0 if cached else float(index.meta.get("build_s") or 0.0),
            "wall_s": round(time.perf_counter() - t0, 2),
            "duration_s": float(index.info.duration_s), "events": len(index.events)}


def build_indexes(items_path: str | os.PathLike[str], cache_dir: str | Path | None = None,
                  video_dir: str | Path | None = None, workers: int = 1) -> list[dict[str, Any]]:
    """Build (or reuse) the index of every video of an item file, once each; their timings."""
    items, errors = load_items(items_path)
    if not items:
        reason = f": {errors[0]}" if errors else ""
        raise InputError(f"no valid items in {items_path}{reason}")
    vdir = Path(video_dir) if video_dir else Path(items_path).parent
    videos = sorted({v for it in items for v in resolve_videos(it, vdir)})
    jobs = [(v, str(cache_dir) if cache_dir else None) for v in videos]
    if workers <= 1:
        return [_index_one(j) for j in jobs]
    with ProcessPoolExecutor(min(workers, len(jobs)), mp_context=mp.get_context("spawn")) as ex:
        return list(ex.map(_index_one, jobs))


# ---------------------------------------------------------------- summary


def _mean(values: Iterable[float | None]) -> float | None:
    vs = [v for v in values if v is not None]
    return round(sum(vs) / len(vs), 4) if vs else None


def summarize(items: Sequence[Item], results: dict[str, dict[str, Any]],
              cfg: RunConfig | None = None) -> dict[str, Any]:
    """The summary of a run over the items of an item file (see summarize_records)."""
    recs = [results[it.id] for it in items if it.id in results]
    out = summarize_records(recs)
    out["items"] = len(items)
    if cfg is not None:
        out.update(track=cfg.track, brain=cfg.brain, model=cfg.model,
                   frames=cfg.frames if cfg.track == "uniform" else None)
    return out


def summarize_records(recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy (overall, per level, per dimension, clustered SEs), localisation IoU,
    open-ended scores, timing and tokens of result records; skipped items are counted apart."""
    skipped = [r for r in recs if r.get("skipped")]
    recs = [r for r in recs if not r.get("skipped")]
    reasons: dict[str, int] = defaultdict(int)
    for r in skipped:
        reasons[str(r["skipped"])] += 1
    mcq = [McqResult(item_id=r["id"], video=r.get("video") or "", gold=r["gold"],
                     pred=r.get("prediction"), level=r.get("level"),
                     dimension=r.get("dimension"))
           for r in recs if r.get("format") == "mcq" and r.get("gold")]
    report = accuracy_report(mcq)
    loc = [r for r in recs if r.get("dimension") == "localization" and r.get("iou") is not None]
    opens = [r for r in recs if r.get("format") == "open" and r.get("open")]
    sims = [r["open"].get("similarity") for r in opens]
    prep: dict[str, float] = defaultdict(float)
    for r in recs:
        prep[r.get("path") or r.get("video") or ""] += float(r.get("prep_s") or 0.0)
    tokens = [r.get("tokens") or {} for r in recs]
    first = (recs or skipped or [{}])[0]
    return {
        "track": first.get("track"), "brain": first.get("brain"), "model": first.get("model"),
        "frames": len(first.get("frames") or []) or None, "sent": first.get("sent"),
        "items": len(recs) + len(skipped), "answered": len(recs),
        "errors": sum(bool(r.get("error")) for r in recs),
        "skipped": len(skipped), "skip_reasons": dict(reasons),
        "mcq": {"overall": report["overall"].as_dict(),
                "level": {k: v.as_dict() for k, v in report["level"].items()},
                "dimension": {k: v.as_dict() for k, v in report["dimension"].items()}},
        "localization": {"n": len(loc), "mean_iou": _mean(r["iou"] for r in loc),
                         "mean_iou_choice": _mean(r.get("iou_choice") for r in loc),
                         "share_iou_ge_0.5": _mean(float(r["iou"] >= 0.5) for r in loc)},
        "open": {"n": len(opens), "mean_similarity": _mean(sims),
                 "mean_bertscore_f1": _mean(r["open"].get("bertscore_f1") for r in opens),
                 "mean_relevance": _mean(r["open"].get("relevance") for r in opens),
                 "mean_completeness": _mean(r["open"].get("completeness") for r in opens),
                 "by_level": {k: {"mean": round(m, 4), "n": n} for k, (m, _, n) in mean_by(
                     sims, [r.get("video") or "" for r in opens],
                     [r.get("level") for r in opens]).items()} if opens else {}},
        "timing": {"answer_s_total": round(sum(float(r.get("latency_s") or 0) for r in recs), 2),
                   "answer_s_mean": _mean(float(r.get("latency_s") or 0) for r in recs),
                   "prep_s_total": round(sum(prep.values()), 2), "videos": len(prep),
                   "steps_mean": _mean(float(r.get("steps") or 0) for r in recs)},
        "tokens": {k: sum(int(t.get(k, 0) or 0) for t in tokens)
                   for k in ("input_tokens", "output_tokens", "total_tokens")},
    }


def write_summary(path: str | os.PathLike[str], summary: dict[str, Any]) -> None:
    """The results JSON, written atomically."""
    p = Path(path)
    tmp = p.with_name(p.name + ".part")
    tmp.write_text(json.dumps(summary, indent=1, default=str))
    tmp.replace(p)


def summary_path(out_path: str | os.PathLike[str]) -> Path:
    """Where a results file's summary JSON goes: X.jsonl -> X.summary.json."""
    p = Path(out_path)
    return p.with_name(p.name.removesuffix(".jsonl") + ".summary.json")
