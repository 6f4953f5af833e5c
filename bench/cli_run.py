"""`bench run`, `bench index` and `bench calibrate`: the commands that answer items, build
indexes or set thresholds (long runs: resumable, interruptible with one line)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any

import typer

from bench.cli_common import CacheOpt, _guard, err, fail, out
from tools.errors import EXIT_INPUT, EXIT_INTERRUPTED, say_interrupted


def run_cmd(
    items: Annotated[Path, typer.Option("--items", help="Item file (JSONL).")],
    track: Annotated[str, typer.Option(help="uniform or agent.")],
    brain: Annotated[str, typer.Option(help="local or openai.")] = "local",
    out_path: Annotated[Path | None, typer.Option(
        "--out", help="Results JSONL [default: <items dir>/results/<track>-<brain>.jsonl].")]
    = None,
    workers: Annotated[int, typer.Option(min=1, help="Videos answered in parallel.")] = 1,
    frames: Annotated[int, typer.Option(min=1, help="Uniform track: frames (<= 1 FPS).")] = 32,
    max_steps: Annotated[int, typer.Option(min=1, help="Agent track: brain turns.")] = 12,
    cache_dir: CacheOpt = None,
    video_dir: Annotated[Path | None, typer.Option(
        help="Where relative video paths live [default: the item file's folder].")] = None,
    model: Annotated[str | None, typer.Option(help="Model (openai brain).")] = None,
    base_url: Annotated[str | None, typer.Option(help="Endpoint (openai brain).")] = None,
    judge_model: Annotated[str | None, typer.Option(
        help="LLM judge for open answers (relevance, completeness).")] = None,
    open_score: Annotated[bool, typer.Option(
        help="Score open answers by sentence similarity (offline MiniLM).")] = True,
    limit: Annotated[int | None, typer.Option(min=0, help="Answer at most N items now.")] = None,
    fsync: Annotated[bool, typer.Option(help="fsync after every result line.")] = False,
    summary: Annotated[Path | None, typer.Option(
        help="Results JSON [default: <out>.summary.json].")] = None,
    timeout: Annotated[float | None, typer.Option(
        help="Seconds to wait for one model request (openai brain; sets LVQ_TIMEOUT) "
             "[default: $LVQ_TIMEOUT or 60].")] = None,
    uniform_numbers: Annotated[bool, typer.Option(
        "--uniform-numbers", help="Uniform track, openai brain: send the sampled frames' "
        "measurements instead of the frames (sets LVQ_UNIFORM_NUMBERS=1).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress.")] = False,
    ray: Annotated[str | None, typer.Option(
        "--ray", metavar="[ADDRESS]", help="Run each video's items as a Ray task: on the "
        "cluster at ADDRESS (auto, HOST:PORT, ray://HOST:10001), or on a local Ray started "
        "for the run when no address is given.")] = None,
    ray_cpus: Annotated[int | None, typer.Option(
        min=1, help="CPUs of the local Ray (--ray without address) [default: the machine's].")]
    = None,
) -> None:
    """Answer every item with one track and brain; resumable; summary table and JSON."""
    from agent.brains.settings import timeout_s
    from bench.compare import levels_table, run_label, table4
    from bench.runner import RunConfig, run, summary_path, write_summary
    from tools.interrupt import terminate_as_interrupt

    if timeout is not None:  # the environment reaches the worker processes too
        os.environ["LVQ_TIMEOUT"] = f"{_guard(timeout_s, timeout):g}"
    if uniform_numbers:
        os.environ["LVQ_UNIFORM_NUMBERS"] = "1"
    numbers = {"uniform_numbers": True} if uniform_numbers else {}
    cfg = _guard(lambda: RunConfig(
        track=track.strip().lower(), brain=brain.strip().lower(), frames=frames,
        max_steps=max_steps, workers=workers, cache_dir=str(cache_dir) if cache_dir else None,
        video_dir=str(video_dir) if video_dir else None, model=model, base_url=base_url,
        judge_model=judge_model, open_scoring=open_score, fsync=fsync, **numbers).check())
    if ray_cpus is not None and ray is None:
        fail("--ray-cpus needs --ray")
    if not items.is_file():
        fail(f"no such item file: {items}", EXIT_INPUT)
    target = out_path or items.parent / "results" / f"{cfg.track}-{cfg.brain}.jsonl"
    counter = {"n": 0, "ok": 0, "mcq": 0}

    def on_record(rec: dict[str, Any]) -> None:
        counter["n"] += 1
        if rec.get("correct") is not None:
            counter["mcq"] += 1
            counter["ok"] += bool(rec["correct"])
        if not quiet and (counter["n"] % 10 == 0 or rec.get("error")):
            acc = f"{100 * counter['ok'] / counter['mcq']:.1f}%" if counter["mcq"] else "–"
            note = f"  error on {rec['id']}: {rec['error']}" if rec.get("error") else ""
            err.print(f"{counter['n']} answered, MCQ so far {acc}{note}", highlight=False)

    from bench.results_lock import lock_results

    held = _guard(lock_results, target)  # a second run into the same file: one line, exit 5
    try:
        with terminate_as_interrupt():
            result = _guard(run, items, target, cfg, limit=limit, on_record=on_record,
                            ray=ray, ray_cpus=ray_cpus)
        spath = summary or summary_path(target)
        _guard(write_summary, spath, result)
    except KeyboardInterrupt:
        from bench.runner import read_results

        say_interrupted(err, f"interrupted: {counter['n']} items written to {target} in this "
                        f"run ({len(read_results(target))} there in all); run the same command "
                        "again to resume (answered items are skipped)")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    finally:
        held.release()
    name = run_label(result)
    out.print(table4([(name, result)]))
    out.print(levels_table([(name, result)]))
    for reason, k in result.get("skip_reasons", {}).items():
        out.print(f"{k} items skipped: {reason}", highlight=False)
    tr = result["this_run"]
    out.print(f"{tr['answered']} answered now in {tr['wall_s']:.1f} s; results {target}; "
              f"summary {spath}", highlight=False)


def index_cmd(
    items: Annotated[Path, typer.Option("--items", help="Item file (JSONL).")],
    workers: Annotated[int, typer.Option(min=1, help="Videos indexed in parallel.")] = 1,
    cache_dir: CacheOpt = None,
    video_dir: Annotated[Path | None, typer.Option(help="Where relative paths live.")] = None,
) -> None:
    """Build (or reuse) the quality index of every video of an item file; report build times."""
    from bench.runner import build_indexes

    rows = _guard(build_indexes, items, cache_dir=cache_dir, video_dir=video_dir,
                  workers=workers)
    built = [r for r in rows if not r["cached"]]
    for r in rows:
        how = "cached" if r["cached"] else f"built in {r['build_s']:.1f} s"
        err.print(f"{r['video']}: {how} ({r['duration_s']:.0f} s of video, {r['events']} "
                  "events)", highlight=False)
    total = sum(r["build_s"] for r in built)
    out.print(f"{len(rows)} videos: {len(built)} indexed ({total:.1f} s of build time, "
              f"{sum(r['wall_s'] for r in rows):.1f} s wall in total), "
              f"{len(rows) - len(built)} cached", highlight=False)


def calibrate_cmd(
    corpus: Annotated[Path | None, typer.Option(
        "--corpus", envvar="LVQ_CORPUS",
        help="Real clean footage (../shared/corpus/fetch.sh DEST) [default ~/.cache/lvq-corpus]."
    )] = None,
    work: Annotated[Path, typer.Option(help="Loops and their indexes are kept here.")]
    = Path("calibration-work"),
    out_file: Annotated[Path | None, typer.Option(
        "--out", help="Calibration file [default: tools/detectors/calibration.json].")] = None,
) -> None:
    """Set every detector threshold from the calibration part of the clean real corpus."""
    from bench.calibrate import run

    data = _guard(run, corpus, work, out_file, log=lambda m: err.print(m, highlight=False))
    out.print(f"{len(data['thresholds'])} thresholds and {len(data['gates'])} gates from "
              f"{len(data['clips'])} clips ({data['clean_minutes']} clean minutes)",
              highlight=False)
