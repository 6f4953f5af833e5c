"""NDQA questions: how each table-S5 distortion is named, which ones a viewer could confuse,
several natural phrasings per dimension, the ground truth of a planned video (trend,
stability, dominant distortion, overall grade), and the item makers that turn a plan into
balanced MCQ and open-ended items with reference answers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from bench.items import OPEN_DIMENSION, Item
from bench.ndqa_questions import cqr, gqu, lqu
from bench.ndqa_questions.balance import Balancer
from bench.ndqa_questions.kit import Ctx, Maker, fill_dimension
from bench.ndqa_questions.open_ended import open_item, reference
from bench.ndqa_questions.plan import (
    GRADE_CUTS,
    GRADE_MARGIN,
    LEVEL_WEIGHT,
    SEGMENT_S,
    Needle,
    VideoPlan,
    dominant_of,
    grade,
    impairment,
    stability_of,
    trend_of,
)
from bench.ndqa_questions.templates import GRADES, NO_DISTORTION, STABILITY_OPTIONS, TREND_OPTIONS
from bench.ndqa_questions.wording import (
    LEVEL_WORDS,
    VOCAB,
    Vocab,
    category,
    clock,
    confusable,
    count_word,
    fill,
    join_words,
    label,
    noun,
    option_window,
    plural,
    seconds_phrase,
    short,
    the,
    window_phrase,
)

__all__ = [
    "GRADES", "GRADE_CUTS", "GRADE_MARGIN", "LEVEL_WEIGHT", "LEVEL_WORDS", "MAKERS",
    "NO_DISTORTION", "SEGMENT_S", "STABILITY_OPTIONS", "TREND_OPTIONS", "VOCAB", "Balancer",
    "Maker", "Needle", "VideoPlan", "Vocab", "build_items", "category", "clock", "confusable",
    "count_word", "dominant_of", "fill", "grade", "impairment", "join_words", "label", "noun",
    "option_window", "plural", "reference", "seconds_phrase", "short", "stability_of", "summary",
    "the", "trend_of", "window_phrase",
]

MAKERS: dict[str, dict[str, Maker]] = {"LQU": lqu.MAKERS, "CQR": cqr.MAKERS, "GQU": gqu.MAKERS}


def build_items(plans: Sequence[VideoPlan], seed: int, pool: Sequence[str],
                per_dimension: int = 2, open_per_video: int = 2) -> list[Item]:
    """Every item of the set, in video order (deterministic given the plans and the seed).

    `pool` is where distractor distortions come from.
    """
    bal = Balancer(np.random.default_rng([seed, 303]))
    items: list[Item] = []
    for k, p in enumerate(plans):
        c = Ctx(p, np.random.default_rng([seed, 202, k]), bal, seed, list(pool), k)
        for dim, maker in MAKERS[p.level].items():
            fill_dimension(c, dim, maker, per_dimension)
        fill_dimension(c, OPEN_DIMENSION, open_item, open_per_video)
        items.extend(c.items)
    return items


def summary(items: Sequence[Item]) -> dict[str, Any]:
    """Counts per level and dimension, correct-letter and yes/no balance."""
    per: dict[str, Counter[str]] = {}
    letters: Counter[str] = Counter()
    yes_no: Counter[str] = Counter()
    for it in items:
        per.setdefault(it.tags["level"], Counter())[it.tags["dimension"]] += 1
        if it.format == "mcq":
            letters[it.gold or "?"] += 1
            if it.question_type == "yes_no":
                yes_no[it.gold_text or "?"] += 1
    return {"items": len(items), "mcq": sum(i.format == "mcq" for i in items),
            "open": sum(i.format == "open" for i in items),
            "per_level": {k: dict(v) for k, v in per.items()},
            "gold_letters": dict(sorted(letters.items())), "yes_no": dict(yes_no)}
