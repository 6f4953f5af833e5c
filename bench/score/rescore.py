"""Official scores of a finished results file, offline: each open answer is sent to its
paper's judge (bench.score.official) and LongVQUBench's answers get BERTScore. Lines go to
<results>.scores.jsonl, one appended and flushed per answer, so an interrupted scoring loses
nothing and the same command resumes; readers take the last line of an (id, kind).

    bench score agent.jsonl --items items.jsonl --judge-model gpt-4o
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bench.items import Item
from bench.score.official import InvalidReply, judge_answer, scorer_for

_ID_PREFIX = (("qbench_video-", "qbench_video"), ("videomme-", "videomme"),
              ("mmbench_video-", "mmbench_video"))


def scores_path(results: str | os.PathLike[str]) -> Path:
    """Where a results file's official scores go: X.jsonl -> X.scores.jsonl."""
    p = Path(results)
    return p.with_name(p.name.removesuffix(".jsonl") + ".scores.jsonl")


def benchmark_of(rec: dict[str, Any], item: Item | None = None) -> str:
    """The benchmark a result belongs to: its item's, else read from its id, else LongVQUBench."""
    if item is not None:
        return item.benchmark
    rid = str(rec.get("id") or "")
    return next((b for prefix, b in _ID_PREFIX if rid.startswith(prefix)), "longvqubench")


def read_scores(path: str | os.PathLike[str]) -> dict[tuple[str, str], dict[str, Any]]:
    """The last line of every (id, kind) in a scores file (cut lines skipped)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    p = Path(path)
    if not p.exists():
        return out
    for line in p.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if isinstance(rec, dict) and isinstance(rec.get("id"), str):
            out[(rec["id"], str(rec.get("kind")))] = rec
    return out


def open_answers(results: dict[str, dict[str, Any]],
                 items: dict[str, Item] | None = None) -> list[dict[str, Any]]:
    """The open answers of a run with a reference: id, benchmark, question, reference, answer."""
    out = []
    for rid, rec in results.items():
        if rec.get("format") != "open" or rec.get("skipped") or not rec.get("gold"):
            continue
        out.append({"id": rid, "benchmark": benchmark_of(rec, (items or {}).get(rid)),
                    "question": rec.get("question") or "", "reference": rec["gold"],
                    "answer": rec.get("prediction") or rec.get("response") or ""})
    return out


class _Appender:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.fh = open(path, "a", encoding="utf-8")  # noqa: SIM115 - closed in close()

    def write(self, rec: dict[str, Any]) -> None:
        from agent.brains.redact import scrub_value

        self.fh.write(json.dumps(scrub_value(rec), ensure_ascii=False) + "\n")
        self.fh.flush()

    def close(self) -> None:
        self.fh.close()


def judge_all(answers: Sequence[dict[str, Any]], judge: Any, out: Path,
              on_line: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Ask the judge for every answer not yet judged; returns how many lines were written."""
    done = read_scores(out)
    writer = _Appender(out)
    n = 0
    try:
        for a in answers:
            scorer = scorer_for(a["benchmark"])
            prev = done.get((a["id"], "judge"))
            if scorer is None or (prev and not prev.get("error")):
                continue
            line: dict[str, Any] = {"id": a["id"], "kind": "judge", "scorer": scorer.key,
                                    "judge_model": judge.settings.model}
            try:
                line.update(judge_answer(scorer, judge, a["question"], a["reference"],
                                         a["answer"]), error=None)
            except InvalidReply as exc:
                line.update(score=None, error=f"invalid judge reply: {exc}")
            writer.write(line)
            n += 1
            if on_line:
                on_line(line)
    finally:
        writer.close()
    return n


def bertscore_all(answers: Sequence[dict[str, Any]], out: Path) -> tuple[int, str | None]:
    """BERTScore (idf, rescaled) of LongVQUBench's answers, in one batch; (lines, why missing)."""
    from bench.score.bertscore import BertScoreMissing, bertscore, model_from_env

    lvq = [a for a in answers if scorer_for(a["benchmark"]) is not None
           and scorer_for(a["benchmark"]).key == "longvqubench"]
    if not lvq:
        return 0, None
    model = model_from_env()
    try:
        s = bertscore([a["answer"] for a in lvq], [a["reference"] for a in lvq], model)
    except BertScoreMissing as exc:
        writer = _Appender(out)
        writer.write({"id": "*", "kind": "bertscore_missing", "reason": str(exc)})
        writer.close()
        return 0, str(exc)
    writer = _Appender(out)
    try:
        for a, p, r, f in zip(lvq, s.precision, s.recall, s.f1, strict=True):
            writer.write({"id": a["id"], "kind": "bertscore", "model": s.model,
                          "layers": model.layers, "idf": s.idf, "rescaled": s.rescaled,
                          "precision": round(p, 5), "recall": round(r, 5), "f1": round(f, 5)})
    finally:
        writer.close()
    return len(lvq), None
