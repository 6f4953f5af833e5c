"""Result tables and charts: the LongVQUBench table-4 layout (one row per run: #frames, the
twelve MCQ dimensions grouped by level, overall), a per-level table, and two runs side by side
per dimension with a bar chart PNG.

    bench compare uniform.jsonl agent.jsonl --png compare.png
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.table import Table

from bench.items import DIMENSIONS_BY_LEVEL, LEVELS, MCQ_DIMENSIONS
from bench.provenance import setting_differences
from bench.runner import read_results, summarize_records, summary_path
from tools.errors import InputError


def _pct(acc: dict[str, Any] | None) -> str:
    if not acc or acc.get("n", 0) == 0 or acc.get("acc") is None or math.isnan(acc["acc"]):
        return "–"
    return f"{100 * acc['acc']:.1f}"


def _finite(x: Any) -> bool:
    return isinstance(x, int | float) and not math.isnan(x)


def ci_text(acc: dict[str, Any] | None) -> str:
    """"[41.2, 63.0]" (percent) from an accuracy's ci_lo/ci_hi, "–" when undefined."""
    if not acc or not acc.get("n") or not (_finite(acc.get("ci_lo"))
                                           and _finite(acc.get("ci_hi"))):
        return "–"
    return f"[{100 * acc['ci_lo']:.1f}, {100 * acc['ci_hi']:.1f}]"


def ci_errors(acc: dict[str, Any] | None) -> tuple[float, float]:
    """(below, above) error-bar lengths in points of an accuracy's 95 % CI (0, 0 if none)."""
    if not acc or not acc.get("n") or not (_finite(acc.get("ci_lo"))
                                           and _finite(acc.get("ci_hi"))):
        return 0.0, 0.0
    return 100 * (acc["acc"] - acc["ci_lo"]), 100 * (acc["ci_hi"] - acc["acc"])


def run_label(summary: dict[str, Any], name: str | None = None) -> str:
    """"agent/local" or a given name."""
    if name:
        return name
    model = f" ({summary['model']})" if summary.get("model") else ""
    return f"{summary.get('track')}/{summary.get('brain')}{model}"


def table4(rows: Sequence[tuple[str, dict[str, Any]]], title: str | None = None) -> Table:
    """LongVQUBench table 4: Model, #F, LQU D L C SA, CQR CMP CE I TR, GQU SE DFI TA OE,
    Overall (accuracy %, unanswered counted wrong)."""
    t = Table(title=title or "MCQ accuracy (%) by level and dimension (LongVQUBench table 4)",
              caption="D Detection, L Localization, C Classification, SA Severity & Comfort | "
                      "CMP Comparison, CE Cumulative Effect, I Integration, TR Temporal "
                      "Relation | SE Stability, DFI Dominant Factor, TA Trend, OE Overall "
                      "Evaluation")
    t.add_column("Model")
    t.add_column("#F", justify="right")
    for lvl in LEVELS:
        for i, d in enumerate(DIMENSIONS_BY_LEVEL[lvl]):
            t.add_column(f"{lvl}\n{d.abbr}" if i == 0 else f"\n{d.abbr}", justify="right")
    t.add_column("Overall", justify="right", style="bold")
    for name, s in rows:
        dims = s["mcq"]["dimension"]
        frames = str(s.get("frames") or "–") if s.get("track") == "uniform" else "–"
        t.add_row(name, frames, *[_pct(dims.get(d.key)) for d in MCQ_DIMENSIONS],
                  _pct(s["mcq"]["overall"]))
    return t


def levels_table(rows: Sequence[tuple[str, dict[str, Any]]]) -> Table:
    """Per-level accuracy with clustered SE, the total's 95 % CI, localisation IoU, open
    scores, time per item."""
    t = Table(title="Per level (accuracy % ± clustered SE), localisation IoU, open-ended, cost",
              caption="95% CI: clustered by video, t with videos − 1 degrees of freedom")
    for col in ("Model", *LEVELS, "Total", "95% CI", "n", "videos", "Loc. IoU", "Open sim.",
                "s/item", "prep s"):
        t.add_column(col, justify="left" if col == "Model" else "right")
    for name, s in rows:
        lv = s["mcq"]["level"]

        def cell(a: dict[str, Any] | None) -> str:
            if not a or not a.get("n"):
                return "–"
            se = a.get("se")
            tail = f" ±{100 * se:.1f}" if se is not None and not math.isnan(se) else ""
            return f"{100 * a['acc']:.1f}{tail}"
        loc = s.get("localization", {}).get("mean_iou")
        sim = s.get("open", {}).get("mean_similarity")
        tm = s.get("timing", {})
        ov = s["mcq"]["overall"]
        t.add_row(name, *[cell(lv.get(k)) for k in LEVELS], cell(ov), ci_text(ov),
                  str(ov["n"]), str(ov.get("videos", "–")), "–" if loc is None else f"{loc:.3f}",
                  "–" if sim is None else f"{sim:.3f}",
                  "–" if tm.get("answer_s_mean") is None else f"{tm['answer_s_mean']:.3f}",
                  f"{tm.get('prep_s_total', 0):.1f}")
    return t


# ---------------------------------------------------------------- two runs


def load_run(path: str | os.PathLike[str], ids: set[str] | None = None) -> dict[str, Any]:
    """Summary of a results file (restricted to `ids` when given)."""
    recs = read_results(path)
    if not recs:
        raise InputError(f"no results in {path}")
    chosen = [r for i, r in recs.items() if ids is None or i in ids]
    out = summarize_records(chosen)
    out["benchmarks"] = benchmark_accuracy(chosen)
    return out


BENCH_NAMES = {"longvqubench": "LongVQUBench", "qbench_video": "Q-Bench-Video",
               "videomme": "Video-MME", "mmbench_video": "MMBench-Video"}


def benchmark_accuracy(recs: Sequence[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """MCQ accuracy (clustered SE, 95 % CI) per benchmark of a mixed run (NDQA counts as
    LongVQUBench); skipped items are left out."""
    from bench.score.layouts import family
    from bench.score.rescore import benchmark_of
    from bench.scoring import McqResult, accuracy

    groups: dict[str, list[McqResult]] = {}
    for r in recs:
        if r.get("skipped") or r.get("format") != "mcq" or not r.get("gold"):
            continue
        fam = family(benchmark_of(r))
        groups.setdefault(fam, []).append(McqResult(
            item_id=r["id"], video=r.get("video") or "", gold=r["gold"], pred=r.get("prediction")))
    return {k: accuracy(groups[k]).as_dict() for k in BENCH_NAMES if k in groups}


def _ids_differ(a_path: str | os.PathLike[str], b_path: str | os.PathLike[str],
                a: set[str], b: set[str]) -> str:
    only_a, only_b = sorted(a - b), sorted(b - a)
    parts = [f"{len(ids)} only in {p} (e.g. {ids[0]})"
             for ids, p in ((only_a, a_path), (only_b, b_path)) if ids]
    return (f"the runs are not over the same items: {'; '.join(parts)}; compare runs of one "
            "item file (or pass --common-items to use the items both hold)")


def compare(a_path: str | os.PathLike[str], b_path: str | os.PathLike[str],
            common_only: bool = False) -> tuple[dict[str, Any], dict[str, Any], int]:
    """Summaries of two results files over the same item ids, and their count.

    Runs whose item ids differ are refused (InputError) unless common_only, which restricts
    both to the ids they share; items either run skipped are left out of both.
    """
    ra, rb = read_results(a_path), read_results(b_path)
    if not ra:
        raise InputError(f"no results in {a_path}")
    if not rb:
        raise InputError(f"no results in {b_path}")
    ids = set(ra) & set(rb)
    if set(ra) != set(rb) and not common_only:
        raise InputError(_ids_differ(a_path, b_path, set(ra), set(rb)))
    ids = {i for i in ids if not ra[i].get("skipped") and not rb[i].get("skipped")}
    if not ids:
        raise InputError(f"{a_path} and {b_path} have no answered item ids in common")
    return load_run(a_path, ids), load_run(b_path, ids), len(ids)


def run_provenance(results: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The provenance block of a results file's summary JSON (None when there is none)."""
    try:
        data = json.loads(summary_path(results).read_text())
    except (OSError, ValueError):
        return None
    prov = data.get("provenance") if isinstance(data, dict) else None
    return prov if isinstance(prov, dict) else None


def settings_warnings(a_path: str | os.PathLike[str],
                      b_path: str | os.PathLike[str]) -> list[str]:
    """Lines warning that two runs differ in settings that change their numbers."""
    pa, pb = run_provenance(a_path), run_provenance(b_path)
    missing = [f"{p} has no provenance (no summary JSON with it): settings not checked"
               for p, prov in ((a_path, pa), (b_path, pb)) if prov is None]
    return missing or [f"runs differ in {d}" for d in setting_differences(pa, pb)]


def side_by_side(a: dict[str, Any], b: dict[str, Any], name_a: str, name_b: str) -> Table:
    """One row per dimension, level and overall: A, B and B - A in points."""
    t = Table(title=f"{name_a} vs {name_b} (accuracy %, same items)")
    for col in ("Level", "Dimension", "n", name_a, name_b, "Δ (B−A)"):
        t.add_column(col, justify="left" if col in ("Level", "Dimension") else "right")

    def row(level: str, label: str, x: dict[str, Any] | None, y: dict[str, Any] | None,
            bold: bool = False) -> None:
        n = str((x or {}).get("n", 0))
        if x and y and x.get("n") and y.get("n"):
            delta = f"{100 * (y['acc'] - x['acc']):+.1f}"
        else:
            delta = "–"
        t.add_row(level, label, n, _pct(x), _pct(y), delta, style="bold" if bold else None)

    for lvl in LEVELS:
        for d in DIMENSIONS_BY_LEVEL[lvl]:
            row(lvl, f"{d.name} ({d.abbr})", a["mcq"]["dimension"].get(d.key),
                b["mcq"]["dimension"].get(d.key))
        row(lvl, "all", a["mcq"]["level"].get(lvl), b["mcq"]["level"].get(lvl), bold=True)
    row("", "Overall", a["mcq"]["overall"], b["mcq"]["overall"], bold=True)
    la, lb = a["localization"].get("mean_iou"), b["localization"].get("mean_iou")
    if la is not None or lb is not None:
        t.add_row("", "Localisation mean IoU", str(a["localization"].get("n", 0)),
                  "–" if la is None else f"{la:.3f}", "–" if lb is None else f"{lb:.3f}",
                  "–" if la is None or lb is None else f"{lb - la:+.3f}")
    return t


def chart(runs: Sequence[tuple[str, dict[str, Any]]], path: str | os.PathLike[str],
          title: str | None = None) -> Path:
    """Grouped bar chart PNG: per level + overall (left), per dimension (right), with 95 %
    CI error bars clustered by video."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    groups_l = [*LEVELS, "Overall"]
    groups_d = [d.abbr for d in MCQ_DIMENSIONS]
    benches = [b for b in BENCH_NAMES if any(b in (s.get("benchmarks") or {}) for _, s in runs)]
    mixed = len(benches) > 1
    ratios = [1, 3, len(benches)] if mixed else [1, 3]
    fig, axes = plt.subplots(1, len(ratios), figsize=(14 + 2 * mixed, 4.8),
                             gridspec_kw={"width_ratios": ratios})
    ax1, ax2 = axes[0], axes[1]
    width = 0.8 / max(1, len(runs))
    for k, (name, s) in enumerate(runs):
        lv = [s["mcq"]["level"].get(x) for x in LEVELS] + [s["mcq"]["overall"]]
        dm = [s["mcq"]["dimension"].get(d.key) for d in MCQ_DIMENSIONS]
        panels = [(ax1, lv), (ax2, dm)]
        if mixed:
            panels.append((axes[2], [(s.get("benchmarks") or {}).get(b) for b in benches]))
        for ax, accs in panels:
            vals = [100 * a["acc"] if a and a.get("n") else 0.0 for a in accs]
            below, above = zip(*[ci_errors(a) for a in accs], strict=True)
            x = np.arange(len(accs)) + (k - (len(runs) - 1) / 2) * width
            bars = ax.bar(x, vals, width, yerr=[below, above], capsize=2, label=name)
            for rect, v, e in zip(bars, vals, above, strict=True):
                ax.text(rect.get_x() + rect.get_width() / 2, v + e + 1, f"{v:.0f}",
                        ha="center", va="bottom", fontsize=7)
    labelled = [(ax1, groups_l), (ax2, groups_d)]
    if mixed:
        labelled.append((axes[2], [BENCH_NAMES[b] for b in benches]))
        axes[2].set_title("MCQ per benchmark")
        axes[2].tick_params(axis="x", labelsize=7)
    for ax, labels in labelled:
        ax.set_xticks(range(len(labels)), labels)
        ax.set_ylim(0, 110)
        ax.set_ylabel("accuracy (%), 95% CI clustered by video")
        ax.grid(axis="y", alpha=0.3)
    ax1.set_title("per level")
    ax2.set_title("per dimension")
    for x in (3.5, 7.5):
        ax2.axvline(x, color="grey", lw=0.8, ls="--")
    ax2.legend(loc="lower right", fontsize=8)
    fig.suptitle(title or ("MCQ accuracy: LongVQUBench levels and dimensions, and per benchmark"
                           if mixed else "NDQA accuracy by level and dimension"))
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out
