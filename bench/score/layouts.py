"""Per-benchmark summaries in each paper's own layout, from a results file, its items and its
official scores (bench.score.rescore):

- LongVQUBench: MCQ accuracy per level (LQU/CQR/GQU) and per dimension (table 4); open answers'
  relevance and completeness per level (table 5) and BERTScore-F1 per level (table S6).
- Q-Bench-Video: per question type and quality concern (table 2); single videos (global,
  referring) and pairs (joint, compare fine/coarse) (table 3). An MCQ scores 0/1, an open
  answer its judge score (sum of 5 rounds / 10).
- MMBench-Video: mean 0-3 judge score per capability and overall.
- Video-MME: accuracy per duration (short/medium/long) x subtitles (without/with) (table 4).

A cell is {mean, se, n, videos} with the standard error clustered by video. A score that could
not be had is never replaced by another: `missing` says which and why.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from bench.items import LEVELS, MCQ_DIMENSIONS, Item
from bench.score.mcq import clustered_mean
from bench.score.rescore import benchmark_of
from bench.stats import ci95

LAYOUTS: tuple[str, ...] = ("longvqubench", "qbench_video", "mmbench_video", "videomme")
_FAMILY = {"ndqa": "longvqubench"}
NO_JUDGE = "no judge endpoint configured; run bench score RESULTS --judge-model M"


def family(benchmark: str) -> str:
    """The paper layout a benchmark's items are summarised in (NDQA is LongVQUBench's)."""
    return _FAMILY.get(benchmark, benchmark)


def cell(values: list[float], videos: list[str], scale: float = 1.0) -> dict[str, Any]:
    """Mean, clustered SE and 95 % interval of scores on a 0..scale scale, with n and videos."""
    mean, se = clustered_mean(values, videos)
    g = len(set(videos))
    lo, hi = ci95(mean, se, g, (0.0, scale))
    return {"mean": mean, "se": se, "ci_lo": lo, "ci_hi": hi, "n": len(values), "videos": g}


def _cells(rows: Iterable[tuple[Iterable[str], float, str]], order: Iterable[str] = (),
           scale: float = 1.0) -> dict[str, dict[str, Any]]:
    """Cells per group from (groups, value, video) rows; `order` first, then the rest sorted."""
    vals: dict[str, tuple[list[float], list[str]]] = defaultdict(lambda: ([], []))
    for groups, value, video in rows:
        for g in groups:
            vals[g][0].append(value)
            vals[g][1].append(video)
    order = [k for k in order if k in vals]
    keys = order + sorted(set(vals) - set(order))
    return {k: cell(*vals[k], scale=scale) for k in keys}


def _norm(text: Any) -> str:
    return re.sub(r"[^a-z]+", "-", str(text or "").lower()).strip("-")


# ---------------------------------------------------------------- LongVQUBench


def longvqubench(recs: list[dict[str, Any]], scores: dict[tuple[str, str], dict[str, Any]],
                 judged: bool) -> dict[str, Any]:
    """Table 4 (MCQ per level and dimension), table 5 (R, C per level), table S6 (BERTScore)."""
    mcq = [r for r in recs if r.get("format") == "mcq" and r.get("gold")]
    rows = [((["Overall", r.get("level") or "?", r.get("dimension") or "?"]),
             float(r.get("prediction") == r["gold"]), r.get("video") or "") for r in mcq]
    dims = [d.key for d in MCQ_DIMENSIONS]
    acc = _cells(rows, ["Overall", *LEVELS, *dims])
    opens = [r for r in recs if r.get("format") == "open" and r.get("gold")]
    rel, comp, f1, missing = [], [], [], []
    for r in opens:
        groups = ["Overall", r.get("level") or "?"]
        j = scores.get((r["id"], "judge"))
        if j and j.get("relevance") is not None:
            rel.append((groups, 100 * j["relevance"], r.get("video") or ""))
            comp.append((groups, 100 * j["completeness"], r.get("video") or ""))
        b = scores.get((r["id"], "bertscore"))
        if b:
            f1.append((groups, b["f1"], r.get("video") or ""))
    n_j, n_b = len(opens) - len(rel), len(opens) - len(f1)
    if n_j:
        why = "invalid judge replies or not yet scored" if judged else NO_JUDGE
        missing.append(f"LongVQUBench relevance/completeness: {n_j} of {len(opens)} open "
                       f"answers unscored ({why})")
    if n_b:
        note = scores.get(("*", "bertscore_missing"))
        why = note["reason"] if note else "not computed: run bench score RESULTS"
        missing.append(f"BERTScore missing: {n_b} of {len(opens)} open answers ({why})")
    order = ["Overall", *LEVELS]
    return {"mcq_accuracy": acc,
            "open_relevance_pct": _cells(rel, order, 100.0),
            "open_completeness_pct": _cells(comp, order, 100.0),
            "open_bertscore_f1": _cells(f1, order, 1.0), "missing": missing}


# ---------------------------------------------------------------- Q-Bench-Video

QTYPES = {"yes-or-no": "Yes-or-No", "yes-no": "Yes-or-No", "yesno": "Yes-or-No",
          "what-how": "What-How", "what": "What-How", "how": "What-How",
          "open-ended": "Open-ended", "open": "Open-ended"}
CONCERNS = {"technical": "Technical", "tech": "Technical", "aesthetic": "Aesthetic",
            "aes": "Aesthetic", "temporal": "Temporal", "temp": "Temporal", "aigc": "AIGC"}
CONTEXTS = {"global": "Global", "referring": "Referring", "joint": "Joint",
            "compare-fine": "Compare-fine", "fine": "Compare-fine",
            "compare-coarse": "Compare-coarse", "coarse": "Compare-coarse"}


def _concerns(value: Any) -> list[str]:
    vals = value if isinstance(value, list) else re.split(r"[,;/]", str(value or ""))
    return [CONCERNS[_norm(v)] for v in vals if _norm(v) in CONCERNS]


def qbench_video(recs: list[dict[str, Any]], items: dict[str, Item],
                 scores: dict[tuple[str, str], dict[str, Any]], judged: bool) -> dict[str, Any]:
    """Tables 2 and 3 of Q-Bench-Video: per question type and concern; single vs pairs."""
    t2, t3, unscored = [], [], 0
    for r in recs:
        it = items.get(r["id"])
        if r.get("format") == "mcq":
            if not r.get("gold"):
                continue
            value = float(r.get("prediction") == r["gold"])
        else:
            j = scores.get((r["id"], "judge"))
            if not j or j.get("score") is None:
                unscored += 1
                continue
            value = float(j["score"])
        qtype = QTYPES.get(_norm(it.question_type if it else ""), "Open-ended"
                           if r.get("format") == "open" else "?")
        tags = it.tags if it else {}
        video = r.get("video") or ""
        t2.append((["Overall", qtype, *_concerns(tags.get("concern"))], value, video))
        pair = bool(tags.get("pair")) or " + " in video
        side = "Pairs" if pair else "Single"
        ctx = CONTEXTS.get(_norm(tags.get("context")))
        t3.append(([f"{side} overall", *([f"{side}: {ctx}"] if ctx else [])], value, video))
    missing = []
    if unscored:
        why = "invalid judge replies or not yet scored" if judged else NO_JUDGE
        missing.append(f"Q-Bench-Video open-ended: {unscored} answer(s) have no 0/1/2 judge "
                       f"score ({why}); Open-ended and Overall leave them out")
    order2 = ["Yes-or-No", "What-How", "Open-ended", "Technical", "Aesthetic", "Temporal",
              "AIGC", "Overall"]
    order3 = ["Single: Global", "Single: Referring", "Single overall", "Pairs: Joint",
              "Pairs: Compare-fine", "Pairs: Compare-coarse", "Pairs overall"]
    return {"types_concerns": _cells(t2, order2), "single_pairs": _cells(t3, order3),
            "missing": missing}


# ---------------------------------------------------------------- MMBench-Video


def mmbench_video(recs: list[dict[str, Any]], items: dict[str, Item],
                  scores: dict[tuple[str, str], dict[str, Any]], judged: bool) -> dict[str, Any]:
    """Mean 0-3 judge score per capability (an item counts in each of its capabilities)."""
    rows, unscored = [], 0
    for r in recs:
        j = scores.get((r["id"], "judge"))
        if not j or j.get("score") is None:
            unscored += 1
            continue
        it = items.get(r["id"])
        dims = [str(d) for d in (it.tags.get("dimensions") or []) if d] if it else []
        rows.append((["Overall", *dims], float(j["score"]), r.get("video") or ""))
    missing = []
    if unscored:
        why = "invalid judge replies or not yet scored" if judged else NO_JUDGE
        missing.append(f"MMBench-Video: {unscored} answer(s) have no 0-3 judge score ({why})")
    return {"capability_score": _cells(rows, ["Overall"], 3.0), "missing": missing}


# ---------------------------------------------------------------- Video-MME


def videomme(recs: list[dict[str, Any]], items: dict[str, Item]) -> dict[str, Any]:
    """Accuracy per duration class x subtitle setting (table 4 of Video-MME)."""
    rows, unknown = [], 0
    for r in recs:
        if r.get("format") != "mcq" or not r.get("gold"):
            continue
        it = items.get(r["id"])
        if it is None:
            unknown += 1
        dur = str(it.tags.get("duration") or "?") if it else "?"
        sub = str(it.tags.get("subtitles") or "without") if it else "?"
        rows.append(([f"{dur} / {sub}", f"overall / {sub}"], float(r.get("prediction") ==
                                                                    r["gold"]),
                     r.get("video") or ""))
    order = [f"{d} / {s}" for s in ("without", "with") for d in
             ("short", "medium", "long", "overall")]
    missing = [f"Video-MME: {unknown} results have no item (pass --items) so no duration "
               "class or subtitle setting"] if unknown else []
    return {"duration_subtitles": _cells(rows, order), "missing": missing}


# ---------------------------------------------------------------- all together


def summarize_layouts(results: dict[str, dict[str, Any]], items: dict[str, Item] | None = None,
                      scores: dict[tuple[str, str], dict[str, Any]] | None = None,
                      layout: str = "auto", judged: bool = False) -> dict[str, Any]:
    """Each benchmark's table(s) in its paper's layout ('auto': every benchmark present)."""
    items, scores = items or {}, scores or {}
    if layout != "auto" and layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; valid: auto, {', '.join(LAYOUTS)}")
    by: dict[str, list[dict[str, Any]]] = defaultdict(list)
    skipped: dict[str, int] = defaultdict(int)
    for rid, rec in results.items():
        fam = family(benchmark_of(rec, items.get(rid)))
        if rec.get("skipped"):
            skipped[fam] += 1
        elif not rec.get("error"):
            by[fam].append(rec)
    wanted = [layout] if layout != "auto" else [f for f in LAYOUTS if f in by or f in skipped]
    out: dict[str, Any] = {}
    for fam in wanted:
        recs = by.get(fam, [])
        if fam == "longvqubench":
            out[fam] = longvqubench(recs, scores, judged)
        elif fam == "qbench_video":
            out[fam] = qbench_video(recs, items, scores, judged)
        elif fam == "mmbench_video":
            out[fam] = mmbench_video(recs, items, scores, judged)
        else:
            out[fam] = videomme(recs, items)
        out[fam]["answered"], out[fam]["skipped"] = len(recs), skipped.get(fam, 0)
    return out
