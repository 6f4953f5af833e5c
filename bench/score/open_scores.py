"""The project's own open-answer scores together (judge + MiniLM similarity), and means per
group with clustered standard errors."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bench.score.mcq import clustered_mean
from bench.score.project_judge import judge_open
from bench.score.similarity import minilm_token_f1, semantic_similarity

# ---------------------------------------------------------------- open-ended, together


@dataclass(frozen=True)
class OpenScore:
    """Scores of one open answer; a field is None when that method was not run."""

    completeness: float | None = None
    relevance: float | None = None
    similarity: float | None = None
    token_f1: float | None = None  # MiniLM token matching (not BERTScore)
    judge_raw: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def score_open(
    question: str,
    reference: str,
    response: str,
    *,
    judge_model: str | None = None,
    client: Any = None,
    base_url: str | None = None,
    embedding: bool = True,
) -> OpenScore:
    """Judge scores when a judge model is configured, plus offline embedding similarity."""
    judged = None
    if judge_model:
        judged = judge_open(
            question, reference, response, model=judge_model, client=client, base_url=base_url
        )
    sim = f1 = None
    if embedding:
        sim = semantic_similarity(response, reference)
        f1 = minilm_token_f1(response, reference).f1
    return OpenScore(
        completeness=judged.completeness if judged else None,
        relevance=judged.relevance if judged else None,
        similarity=sim,
        token_f1=f1,
        judge_raw=judged.raw if judged else None,
    )


def mean_by(
    values: Sequence[float | None],
    videos: Sequence[str],
    groups: Sequence[str | None] | None = None,
) -> dict[str, tuple[float, float, int]]:
    """(mean, clustered SE, n) overall and per group, skipping None values (e.g. judge failures)."""
    groups = groups if groups is not None else [None] * len(values)
    buckets: dict[str, tuple[list[float], list[str]]] = defaultdict(lambda: ([], []))
    for v, vid, g in zip(values, videos, groups, strict=True):
        if v is None:
            continue
        for key in ("overall", g):
            if key is not None:
                buckets[key][0].append(v)
                buckets[key][1].append(vid)
    return {k: (*clustered_mean(vs, cs), len(vs)) for k, (vs, cs) in buckets.items()}
