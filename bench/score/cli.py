"""`bench score` (the papers' official scores of a finished results file) and `bench summary`
(each benchmark's tables in its paper's layout). Registered on the `bench` app in bench/cli.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from tools.errors import EXIT_INPUT, EXIT_INTERRUPTED


def _load(results: Path, items_path: Path | None) -> tuple[dict[str, Any], dict[str, Any]]:
    from bench.cli import fail
    from bench.items import load_items
    from bench.runner import read_results

    if not results.is_file():
        fail(f"no such results file: {results}", EXIT_INPUT)
    recs = read_results(results)
    if not recs:
        fail(f"no result records in {results}", EXIT_INPUT)
    items: dict[str, Any] = {}
    if items_path is not None:
        if not items_path.is_file():
            fail(f"no such item file: {items_path}", EXIT_INPUT)
        loaded, _ = load_items(items_path)
        items = {it.id: it for it in loaded}
    return recs, items


def score_cmd(
    results: Annotated[Path, typer.Argument(help="Results JSONL of a finished run.")],
    items_path: Annotated[Path | None, typer.Option(
        "--items", help="The run's item file (benchmarks, tags) [default: read from ids].")]
    = None,
    judge_model: Annotated[str | None, typer.Option(
        help="Judge model [default: $LVQ_JUDGE_MODEL]; none: no judge scores.")] = None,
    judge_base_url: Annotated[str | None, typer.Option(
        help="Judge endpoint [default: $LVQ_JUDGE_BASE_URL, $LVQ_OPENAI_BASE_URL].")] = None,
    bert: Annotated[bool, typer.Option(help="BERTScore LongVQUBench's open answers.")] = True,
) -> None:
    """Official scores of a finished run's open answers (Q-Bench-Video 0/1/2, MMBench-Video
    0-3, LongVQUBench relevance/completeness, BERTScore) into <results>.scores.jsonl."""
    from bench.cli import _guard, err, out
    from bench.score.judge_client import Judge, judge_settings
    from bench.score.rescore import bertscore_all, judge_all, open_answers, scores_path

    recs, items = _load(results, items_path)
    answers = open_answers(recs, items)
    target = scores_path(results)
    settings = judge_settings(judge_model, judge_base_url)
    n = 0
    try:
        if settings is None:
            err.print("no judge endpoint configured (--judge-model or LVQ_JUDGE_MODEL): the "
                      "judge scores stay missing", highlight=False)
        else:
            judge = _guard(Judge, settings)
            n = _guard(judge_all, answers, judge, target)
    except KeyboardInterrupt:
        err.print(f"interrupted: scores so far kept in {target}; the same command resumes",
                  highlight=False)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    nb, why = bertscore_all(answers, target) if bert else (0, "off (--no-bert)")
    if why:
        err.print(f"BERTScore missing: {why}", highlight=False, soft_wrap=True)
    out.print(f"{len(answers)} open answers: {n} judged now, {nb} BERTScored -> {target}",
              highlight=False)


def summary_cmd(
    results: Annotated[Path, typer.Argument(help="Results JSONL of a run.")],
    items_path: Annotated[Path | None, typer.Option(
        "--items", help="The run's item file (durations, subtitles, question types).")] = None,
    layout: Annotated[str, typer.Option(
        help="auto (every benchmark present), longvqubench, qbench_video, mmbench_video, "
             "videomme.")] = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")]
    = False,
) -> None:
    """Each benchmark's results in its paper's own table layout, with what is missing."""
    from bench.cli import _guard, out
    from bench.score.layouts import summarize_layouts
    from bench.score.rescore import read_scores, scores_path
    from bench.score.tables import layout_tables, missing_lines

    recs, items = _load(results, items_path)
    scores = read_scores(scores_path(results))
    judged = any(k == "judge" for _, k in scores)
    s = _guard(summarize_layouts, recs, items, scores, layout.strip().lower(), judged)
    if as_json:
        sys.stdout.write(json.dumps(s, indent=1, default=str) + "\n")
        return
    for t in layout_tables(s):
        out.print(t)
    for line in missing_lines(s):
        out.print(line, highlight=False, soft_wrap=True)
