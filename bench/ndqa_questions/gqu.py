"""GQU item makers: stability, dominant factor, trend and overall grade of a whole video."""

from __future__ import annotations

from bench.ndqa_questions.kit import Ctx, add_item, choose, other_kinds, yes_no_item
from bench.ndqa_questions.plan import (
    GRADE_CUTS,
    GRADE_MARGIN,
    dominant_of,
    grade,
    impairment,
    stability_of,
    trend_of,
)
from bench.ndqa_questions.templates import (
    DOMINANT,
    GRADES,
    NO_DISTORTION,
    OVERALL,
    OVERALL_YESNO,
    STABILITY,
    STABILITY_OPTIONS,
    STABILITY_YESNO,
    TREND,
    TREND_OPTIONS,
    TREND_YESNO,
)
from bench.ndqa_questions.wording import label


def _gqu_stability(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    truth = stability_of(p)
    if j % 2 == 1:
        cands = [(want if truth == "stable" else not want, q, p.needles)
                 for want, q in STABILITY_YESNO]
        return yes_no_item(c, "stability", cands, target=truth)
    gold = STABILITY_OPTIONS[truth]
    distract = [v for k, v in STABILITY_OPTIONS.items() if k != truth]
    options, letter = c.bal.place(gold, distract)
    return add_item(c, "stability", "how", choose(rng, STABILITY), options, letter, p.needles,
                target=truth)


def _gqu_dominant(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    top = dominant_of(p)
    present = {n.distortion for n in p.needles}
    minor = [n for n in p.needles if top is None or n.distortion != top.distortion]
    distract = [label(n.distortion, n.level) for n in minor[:1]]
    avoid = list(present) or ["gaussian_blur"]
    if top is None:
        avoid = []
    distract += [label(o, 2) for o in other_kinds(c, c.pool, avoid, 3 - len(distract))]
    if top is None:
        gold_text = NO_DISTORTION
    else:
        gold_text = label(top.distortion, top.level)
        if j % 2 == 1:
            distract[-1] = NO_DISTORTION
    options, gold = c.bal.place(gold_text, distract[:3])
    spans = [n for n in p.needles if top is not None and n.distortion == top.distortion]
    return add_item(c, "dominant_factor", "what", choose(rng, DOMINANT), options, gold, spans,
                target=top.distortion if top else None)


def _gqu_trend(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    truth = trend_of(p)
    if truth is None or j % 2 == 1:
        cands = [(truth == t, q, p.needles) for t, q in TREND_YESNO]
        return yes_no_item(c, "trend", cands, target=truth)
    gold = TREND_OPTIONS[truth]
    options, letter = c.bal.place(gold, [v for k, v in TREND_OPTIONS.items() if k != truth])
    return add_item(c, "trend", "how", choose(rng, TREND), options, letter, p.needles,
                target=truth)


def _gqu_overall(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    imp = impairment(p)
    g = grade(imp)
    borderline = any(abs(imp - cut) < GRADE_MARGIN for cut in GRADE_CUTS)
    if borderline or j % 2 == 1:
        clean = not p.needles
        cands = [(want if clean else not want, q, p.needles) for want, q in OVERALL_YESNO]
        return yes_no_item(c, "overall", cands, target=g, impairment=round(imp, 3))
    options, letter = c.bal.place(g, [x for x in GRADES if x != g])
    return add_item(c, "overall", "how", choose(rng, OVERALL), options, letter, p.needles,
                target=g, impairment=round(imp, 3))


MAKERS = {"stability": _gqu_stability, "dominant_factor": _gqu_dominant,
          "trend": _gqu_trend, "overall": _gqu_overall}
