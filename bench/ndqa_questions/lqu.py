"""LQU item makers: detection, localization, classification and severity of one needle."""

from __future__ import annotations

from collections.abc import Sequence

from bench.ndqa_questions.kit import Ctx, add_item, choose, other_kinds, yes_no_item
from bench.ndqa_questions.plan import Needle
from bench.ndqa_questions.templates import (
    CLASSIFICATION,
    CLASSIFICATION_WHOLE,
    DETECTION_GENERIC,
    DETECTION_NAMED,
    LOCALIZATION_GENERIC,
    LOCALIZATION_NAMED,
    SEVERITY,
)
from bench.ndqa_questions.wording import fill, label, noun, option_window, window_phrase


def _lqu_detection(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    nd = p.needles[0]
    a, b = nd.start_s, nd.end_s
    free = p.clean_segments()
    ca, cb = p.segment(int(choose(rng, free))) if free else (a, b)
    named = choose(rng, DETECTION_NAMED)
    generic = choose(rng, DETECTION_GENERIC)
    other = other_kinds(c, c.pool, [nd.distortion], 1)[0]
    nn = noun(nd.distortion, nd.level, rng)
    cands: list[tuple[bool, str, Sequence[Needle]]] = [
        (True, fill(named, nn, win=window_phrase(a, b, rng)), [nd]),
        (True, generic.format(win=window_phrase(a, b, rng)), [nd]),
        (False, generic.format(win=window_phrase(ca, cb, rng)), []),
        (False, fill(named, noun(other, 2, rng), win=window_phrase(a, b, rng)), []),
    ]
    if free:
        cands.append((False, fill(named, nn, win=window_phrase(ca, cb, rng)), []))
    return yes_no_item(c, "detection", cands)


def _window_options(c: Ctx, target: tuple[float, float], others: Sequence[int],
                    k: int) -> tuple[list[str], str]:
    style = int(c.rng.integers(3))
    pick = [others[int(i)] for i in c.rng.permutation(len(others))[:k]]
    distract = [option_window(*c.plan.segment(s), style) for s in pick]
    return c.bal.place(option_window(*target, style), distract)


def _lqu_localization(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    nd = p.needles[0]
    named = j % 3 != 2
    if named:
        nn = noun(nd.distortion, nd.level, rng)
        q = fill(choose(rng, LOCALIZATION_NAMED), nn)
    else:
        q = choose(rng, LOCALIZATION_GENERIC)
    options, gold = _window_options(c, (nd.start_s, nd.end_s), p.clean_segments(), 3)
    return add_item(c, "localization", "which", q, options, gold, [nd], named=named)


def _lqu_classification(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    nd = p.needles[0]
    if j % 4 == 3:
        q = choose(rng, CLASSIFICATION_WHOLE)
    else:
        q = choose(rng, CLASSIFICATION).format(win=window_phrase(nd.start_s, nd.end_s, rng))
    others = other_kinds(c, c.pool, [nd.distortion], 3)
    options, gold = c.bal.place(label(nd.distortion, nd.level),
                                [label(o, 2) for o in others])
    return add_item(c, "classification", "what", q, options, gold, [nd])


def _severity_item(c: Ctx, nd: Needle, j: int) -> bool:
    template, scale = SEVERITY[j % len(SEVERITY)]
    nn = noun(nd.distortion, nd.level, c.rng)
    q = fill(template, nn, win=window_phrase(nd.start_s, nd.end_s, c.rng))
    c.bal.slot(3, [nd.level - 1])  # ordinal scale: position is the level itself
    return add_item(c, "severity_comfort", "how", q, list(scale), chr(ord("A") + nd.level - 1),
                [nd], target_level=nd.level)


def _lqu_severity(c: Ctx, j: int) -> bool:
    return _severity_item(c, c.plan.needles[0], j)


MAKERS = {"detection": _lqu_detection, "localization": _lqu_localization,
          "classification": _lqu_classification, "severity_comfort": _lqu_severity}
