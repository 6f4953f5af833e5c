"""CQR item makers: comparison, cumulative effect, integration and temporal relation of needles."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bench.ndqa_questions.kit import Ctx, add_item, choose, other_kinds, yes_no_item
from bench.ndqa_questions.plan import SEGMENT_S, Needle
from bench.ndqa_questions.templates import (
    COMPARISON_TYPES,
    COMPARISON_WINDOWS,
    COMPARISON_YESNO,
    CUMULATIVE_COUNT,
    CUMULATIVE_DURATION,
    INTEGRATION_COUNT,
    INTEGRATION_SET,
    TEMPORAL_ORDER,
    TEMPORAL_PAIR,
    TEMPORAL_YESNO,
)
from bench.ndqa_questions.wording import (
    count_word,
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


def _names(needles: Sequence[Needle], rng: np.random.Generator) -> list[str]:
    return [the(noun(n.distortion, n.level, rng)) for n in needles]


def _cqr_comparison(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    top = max(p.needles, key=lambda n: n.level)
    variant = j % 3
    if variant == 0:
        q = choose(rng, COMPARISON_WINDOWS)
        style = int(rng.integers(3))
        rest = [n for n in p.needles if n is not top]
        distract = [option_window(n.start_s, n.end_s, style) for n in rest]
        clean = p.clean_segments()
        for i in rng.permutation(len(clean))[: max(0, 3 - len(distract))]:
            distract.append(option_window(*p.segment(clean[int(i)]), style))
        options, gold = c.bal.place(option_window(top.start_s, top.end_s, style), distract)
        return add_item(c, "comparison", "which", q, options, gold, [top])
    pairs = [(a, b) for a in p.needles for b in p.needles
             if a is not b and a.level != b.level]
    if not pairs:
        return False
    a, b = pairs[int(rng.integers(len(pairs)))]
    na, nb = _names([a, b], rng)
    if variant == 1:
        q = choose(rng, COMPARISON_TYPES).format(a=na, b=nb)
        worse, other = (a, b) if a.level > b.level else (b, a)
        options, gold = c.bal.place(label(worse.distortion, worse.level),
                                    [label(other.distortion, other.level)])
        return add_item(c, "comparison", "which", q, options, gold, [worse])
    cands = []
    for k, template in enumerate(COMPARISON_YESNO):
        for x, y, nx, ny in ((a, b, na, nb), (b, a, nb, na)):
            truth = x.level > y.level if k == 0 else x.level < y.level
            cands.append((truth, template.format(
                a=nx, b=ny, Be_a="Are" if plural(nx) else "Is",
                win_a=window_phrase(x.start_s, x.end_s, rng),
                win_b=window_phrase(y.start_s, y.end_s, rng)), [x, y]))
    return yes_no_item(c, "comparison", cands)


def _cqr_cumulative(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    m = len(p.needles)
    if j % 2 == 0:
        total = int(sum(n.end_s - n.start_s for n in p.needles))
        values, gold = c.bal.ordinal(total, int(SEGMENT_S), int(SEGMENT_S))
        q = choose(rng, CUMULATIVE_DURATION)
        return add_item(c, "cumulative_effect", "how", q, [seconds_phrase(v) for v in values],
                    gold, p.needles, target_seconds=total)
    values, gold = c.bal.ordinal(m, 1, 1)
    q = choose(rng, CUMULATIVE_COUNT)
    return add_item(c, "cumulative_effect", "how", q, [count_word(v) for v in values], gold,
                p.needles, target_count=m)


def _cqr_integration(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    m = len(p.needles)
    if j % 2 == 1:
        values, gold = c.bal.ordinal(m, 1, 1)
        q = choose(rng, INTEGRATION_COUNT)
        return add_item(c, "integration", "how", q, [count_word(v) for v in values], gold,
                    p.needles, target_count=m)
    present = [short(n.distortion, n.level) for n in p.needles]
    absent = [short(o) for o in other_kinds(c, c.pool, [n.distortion for n in p.needles], 2)]
    # Wrong sets: one type swapped for an absent one, one absent type added, one type left out.
    sets: list[list[str]] = []
    for k, extra in enumerate(absent):
        swap = list(present)
        swap[int(rng.integers(m))] = extra
        sets.append(swap)
        if k == 0:
            sets.append(present + [extra])
    if m > 1:
        sets += [present[:i] + present[i + 1:] for i in rng.permutation(m).tolist()]
    sets = [sets[i] for i in rng.permutation(len(sets))]
    gold_text = join_words(present).capitalize()
    distract: list[str] = []
    for s in sets:
        text = join_words(s).capitalize()
        if s and set(s) != set(present) and text not in distract:
            distract.append(text)
    if len(distract) < 2:
        return False
    options, gold = c.bal.place(gold_text, distract[:3])
    return add_item(c, "integration", "which", choose(rng, INTEGRATION_SET), options, gold,
                p.needles)


def _cqr_temporal(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    order = sorted(p.needles, key=lambda n: n.start_s)
    variant = j % 3
    if variant == 0:
        which, q = choose(rng, TEMPORAL_ORDER)
        target = order[0] if which == "first" else order[-1]
        others = [label(n.distortion, n.level) for n in order if n is not target]
        if len(others) < 2:
            others += [label(o, 2) for o in
                       other_kinds(c, c.pool, [n.distortion for n in order], 1)]
        options, gold = c.bal.place(label(target.distortion, target.level), others)
        return add_item(c, "temporal_relation", "which", q, options, gold, [target], order=which)
    a, b = (order[i] for i in sorted(rng.choice(len(order), 2, replace=False).tolist()))
    na, nb = _names([a, b], rng)
    if variant == 1:
        cands = []
        for rel, template in TEMPORAL_YESNO:
            for x, y, nx, ny, first in ((a, b, na, nb, True), (b, a, nb, na, False)):
                truth = first if rel == "before" else not first
                cands.append((truth, template.format(a=nx, b=ny,
                                                     Do_a="Do" if plural(nx) else "Does"), [x, y]))
        return yes_no_item(c, "temporal_relation", cands)
    sa, sb = (short(n.distortion, n.level) for n in (a, b))

    def order(x: str, y: str) -> str:
        return f"{the(x).capitalize()} {'come' if plural(x) else 'comes'} first, then {the(y)}"
    options, gold = c.bal.place(order(sa, sb), [order(sb, sa), "They occur at the same time"])
    return add_item(c, "temporal_relation", "which", TEMPORAL_PAIR.format(a=na, b=nb), options,
                gold, [a, b])


MAKERS = {"comparison": _cqr_comparison, "cumulative_effect": _cqr_cumulative,
          "integration": _cqr_integration, "temporal_relation": _cqr_temporal}
