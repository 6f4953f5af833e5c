"""MCQ scoring: the option letter a free-text response chose, and accuracy with standard errors
clustered by video (questions on one video are correlated) and a 95 % interval."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bench.items import LEVELS, MCQ_DIMENSIONS, Item, letter, option_letters

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


