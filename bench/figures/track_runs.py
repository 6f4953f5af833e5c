"""The agent beside the uniform track on a set of questions: run both, print one table.

Used by `bench.figures.real_footage --questions` for the ffmpeg track's questions (and
`--ndqa ITEMS` for an NDQA set): each track is a plain `bench run` (resumable, per-item JSONL
and a summary JSON), so the figures here are the ones `bench run` reports.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.provenance import git_commit
from tools import ANALYZER_VERSION

TRACKS = ("agent", "uniform")


def run_tracks(items: Path, out_dir: Path, cache_dir: Path) -> dict[str, dict[str, Any]]:
    """Both tracks over the items (resuming what this analyzer version at this commit has
    answered there: results of other code are never mixed in); their summaries by track."""
    out_dir = out_dir / f"{ANALYZER_VERSION}-{(git_commit() or 'nogit')[:10]}"
    out_dir.mkdir(parents=True, exist_ok=True)
    summaries = {}
    for track in TRACKS:
        out = out_dir / f"{track}.jsonl"
        cmd = [sys.executable, "-m", "bench.cli", "run", "--items", str(items), "--track", track,
               "--cache-dir", str(cache_dir), "--out", str(out)]
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        summaries[track] = json.loads(out.with_suffix(".summary.json").read_text())
    return summaries


def _cell(block: dict[str, Any] | None) -> str:
    if not block or not block.get("n"):
        return "-"
    return f"{100 * block['acc']:.1f} ({block['n']})"


def print_runs(title: str, summaries: dict[str, dict[str, Any]]) -> None:
    """Accuracy per dimension and overall (with its 95 % CI clustered by video), per track."""
    dims: list[str] = []
    for s in summaries.values():
        for d, block in s["mcq"]["dimension"].items():
            if block.get("n") and d not in dims:
                dims.append(d)
    print(f"\n## {title}: agent beside uniform sampling (MCQ accuracy %, items)")
    print("| dimension | " + " | ".join(summaries) + " |")
    print("|---|" + "---|" * len(summaries))
    for d in dims:
        print(f"| {d} | " + " | ".join(_cell(s["mcq"]["dimension"].get(d))
                                      for s in summaries.values()) + " |")
    overall = [s["mcq"]["overall"] for s in summaries.values()]
    print("| **overall** | " + " | ".join(
        f"**{100 * o['acc']:.1f}** [{100 * o.get('ci_lo', o['acc']):.1f}, "
        f"{100 * o.get('ci_hi', o['acc']):.1f}] ({o['n']})" for o in overall) + " |")
