"""Rich tables of the per-paper summaries (bench.score.layouts): one row per group, with the
mean, its 95 % interval (clustered by video), n and videos."""

from __future__ import annotations

import math
from typing import Any

from rich.table import Table

TITLES = {
    ("longvqubench", "mcq_accuracy"): "LongVQUBench MCQ accuracy % (table 4: levels, dimensions)",
    ("longvqubench", "open_relevance_pct"): "LongVQUBench open: relevance R % (table 5)",
    ("longvqubench", "open_completeness_pct"): "LongVQUBench open: completeness C % (table 5)",
    ("longvqubench", "open_bertscore_f1"): "LongVQUBench open: BERTScore-F1 (table S6)",
    ("qbench_video", "types_concerns"): "Q-Bench-Video % (table 2: question types, concerns)",
    ("qbench_video", "single_pairs"): "Q-Bench-Video % (table 3: single videos vs pairs)",
    ("mmbench_video", "capability_score"): "MMBench-Video mean score 0-3 per capability",
    ("videomme", "duration_subtitles"): "Video-MME accuracy % (table 4: duration x subtitles)",
}
# shown as percent (x100) unless the table is already on its own scale
_AS_IS = {"open_relevance_pct", "open_completeness_pct", "open_bertscore_f1",
          "capability_score"}


def _num(x: Any, factor: float, digits: int) -> str:
    if not isinstance(x, int | float) or math.isnan(x):
        return "–"
    return f"{x * factor:.{digits}f}"


def layout_tables(summary: dict[str, Any]) -> list[Table]:
    """One rich table per (benchmark, table) of a summarize_layouts result."""
    out = []
    for bench_key, tables in summary.items():
        for name, cells in tables.items():
            if not isinstance(cells, dict) or not cells:
                continue
            factor = 1.0 if name in _AS_IS else 100.0
            digits = 3 if name in ("open_bertscore_f1", "capability_score") else 1
            t = Table(title=TITLES.get((bench_key, name), f"{bench_key} {name}"))
            for col in ("group", "mean", "95% CI", "n", "videos"):
                t.add_column(col, justify="left" if col == "group" else "right")
            for group, c in cells.items():
                ci = (f"[{_num(c['ci_lo'], factor, digits)}, {_num(c['ci_hi'], factor, digits)}]"
                      if not math.isnan(c["ci_lo"]) else "–")
                t.add_row(group, _num(c["mean"], factor, digits), ci, str(c["n"]),
                          str(c["videos"]))
            out.append(t)
    return out


def missing_lines(summary: dict[str, Any]) -> list[str]:
    """Every 'missing' note of a summary, plus skipped counts, as lines for people."""
    lines = []
    for bench_key, tables in summary.items():
        lines += [m if m.startswith("BERTScore missing") else f"missing: {m}"
                  for m in tables.get("missing", [])]
        if tables.get("skipped"):
            lines.append(f"{bench_key}: {tables['skipped']} items skipped (see the results)")
    return lines
