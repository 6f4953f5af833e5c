"""What every NDQA item maker shares: the video's context, adding an item, picking distractors."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bench import distort
from bench.items import MCQ_DIMENSIONS, OPEN_DIMENSION, Distortion, Item, Span
from bench.ndqa_questions.balance import Balancer
from bench.ndqa_questions.plan import Needle, VideoPlan
from bench.ndqa_questions.wording import category, confusable


@dataclass
class Ctx:
    """One video's item making: its plan, random stream, balancer and the items made so far."""

    plan: VideoPlan
    rng: np.random.Generator
    bal: Balancer
    seed: int
    pool: list[str]
    offset: int = 0  # the video's number: varies which variant comes first
    items: list[Item] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    counts: Counter[str] = field(default_factory=Counter)


def choose(rng: np.random.Generator, seq: Sequence[Any]) -> Any:
    """One element of seq, drawn from rng."""
    return seq[int(rng.integers(len(seq)))]


def _distortions(p: VideoPlan) -> list[Distortion]:
    return [Distortion(type=n.distortion, level=n.level,
                       params={"intensity": distort.intensity(n.distortion, n.level)
                               if n.distortion != "poisson_noise" else None,
                               "category": n.category},
                       start_s=n.start_s, end_s=n.end_s) for n in p.needles]


def _spans(needles: Sequence[Needle]) -> list[Span]:
    return [Span(start_s=n.start_s, end_s=n.end_s, label=f"{n.distortion}:{n.level}")
            for n in needles]


def add_item(c: Ctx, dim: str, qtype: str, question: str, options: Sequence[str] | None,
         gold: str, spans: Sequence[Needle] = (), **tags: Any) -> bool:
    """Add one item; False (nothing added) when the video already has this question."""
    if question in c.used:
        return False
    c.used.add(question)
    c.counts[dim] += 1
    abbr = "O" if dim == OPEN_DIMENSION else next(d.abbr for d in MCQ_DIMENSIONS if d.key == dim)
    p = c.plan
    c.items.append(Item(
        id=f"ndqa-s{c.seed}-{p.key}-{abbr}{c.counts[dim]}",
        benchmark="ndqa",
        videos=[p.path],
        question=question,
        format="open" if dim == OPEN_DIMENSION else "mcq",
        options=list(options or []),
        gold=gold,
        question_type=qtype,
        tags={"level": p.level, "dimension": dim, "pattern": p.pattern, "video_key": p.key,
              "duration_s": p.duration_s, **tags},
        spans=_spans(spans),
        distortions=_distortions(p),
    ))
    return True


def yes_no_item(c: Ctx, dim: str, cands: Sequence[tuple[bool, str, Sequence[Needle]]],
                 **tags: Any) -> bool:
    truth, (question, spans) = c.bal.pick([(t, (q, s)) for t, q, s in cands])
    options, gold = c.bal.yes_no(truth)
    return add_item(c, dim, "yes_no", question, options, gold, spans, truth=truth, **tags)


def other_kinds(c: Ctx, pool: Sequence[str], avoid: Sequence[str], k: int) -> list[str]:
    """k distortions whose categories differ from, and cannot be confused with, `avoid`'s
    and with each other."""
    cats = [category(a) for a in avoid]
    out: list[str] = []
    for i in c.rng.permutation(len(pool)):
        name = pool[int(i)]
        cat = category(name)
        if all(not confusable(cat, x) for x in cats + [category(o) for o in out]):
            out.append(name)
        if len(out) == k:
            break
    if len(out) < k:  # small pools: fall back to any other category
        for name in distort.DISTORTIONS:
            cat = category(name)
            if len(out) < k and name not in out and all(
                    not confusable(cat, x) for x in cats + [category(o) for o in out]):
                out.append(name)
    return out


Maker = Callable[[Ctx, int], bool]


def fill_dimension(c: Ctx, dim: str, maker: Maker, n: int) -> None:
    """n items of one dimension. The maker gets the attempt number, which picks its variant,
    and may decline (a variant that does not fit the video, or a repeated question)."""
    for attempt in range(12 * n + 12):
        if c.counts[dim] >= n:
            break
        mark = c.bal.mark()
        if not maker(c, attempt + c.offset):
            c.bal.rollback(mark)
