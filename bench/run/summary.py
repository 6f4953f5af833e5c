"""The summary of a run: accuracy (overall, per level and dimension, clustered SEs),
localisation IoU, open-ended scores, timing and tokens of its result records."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from bench.items import Item
from bench.scoring import McqResult, accuracy_report, mean_by

if TYPE_CHECKING:
    from bench.run.config import RunConfig


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
                 "mean_token_f1": _mean(r["open"].get("token_f1") for r in opens),
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
