"""Totals over the distinct degraded stretches: their time, number and types (cumulative
effect, integration, and "how many"/"how long" questions)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agent.amounts import share_bounds
from agent.brains.local.common import nearest, option_seconds, segments, timeline_text
from agent.brains.local.course import judges_quality, overall
from agent.brains.local.evidence import Evidence, in_window, same_defect_types
from agent.brains.local.explain import generic
from agent.brains.stretches import stretch_types, stretches, total_s
from agent.context import RunContext
from agent.distortions import TYPE_NAMES
from agent.questions import Option, Question

_SET_WORDS = re.compile(r"\b(only|alone|both|neither|none|all)\b", re.IGNORECASE)


def type_sets(q: Question) -> bool:
    """Whether the options are sets of distortion types ("Blur, noise and flicker"; or "Blur
    only" beside "Both blur and brightness")."""
    multi = sum(len(set(same_defect_types(o.types))) >= 2 for o in q.options)
    return multi >= 2 or (multi == 1 and sum(bool(_SET_WORDS.search(o.text))
                                             for o in q.options) >= 2)


def best_set(options: Sequence[Option], present: set[str]) -> str | None:
    """The option whose set of types is closest to the types present (Jaccard); a name
    counts as the type it accepts (or falls back to) that is present."""
    best, score = None, -1.0
    for o in options:
        claimed = {next((t for t in (*m.accepts, *m.fallback) if t in present), m.type)
                   for m in o.types}
        if not claimed and not re.search(r"\b(neither|none|no)\b", o.text, re.IGNORECASE):
            continue
        jac = len(claimed & present) / len(claimed | present) if claimed | present else 1.0
        if jac > score:
            best, score = o.letter, jac
    return best


# "What percentage / share / fraction of the video ...?", "how much of the clip ...?"
_SHARE_ASKED = re.compile(r"\b(?:percent\w*|share|fraction|proportion|portion|ratio)\b|"
                          r"\bhow much of\b|%", re.I)


def share_option(options: Sequence[Option], share: float) -> str | None:
    """The option whose range holds a share (0..1) of the video ("10-30%", "under a third",
    "about 0.2"), the narrowest of several, else the one whose range is nearest."""
    bounds = {o.letter: share_bounds(o.text) for o in options}
    percent = any("%" in o.text or "percent" in o.text.lower() for o in options) or max(
        b[1] for b in bounds.values() if b) > 1.0
    x = share * 100.0 if percent else share
    return min(options, key=lambda o: (max(bounds[o.letter][0] - x, x - bounds[o.letter][1], 0),
                                       bounds[o.letter][1] - bounds[o.letter][0])).letter


def aggregate(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """Totals over the distinct degraded stretches: their time, their number, their types."""
    evs = ev.all_events()
    if q.window:
        evs = [e for e in evs if in_window(e, q.window)]
    if q.type:
        evs = [e for e in evs if e["type"] == q.type]
    found = stretches(evs)
    # "how many freezes last over 3 s?": the stretches within the bounds (all, without)
    found = [s for s in found if q.lasting([{"start_s": s.start_s, "end_s": s.end_s}])]
    types = stretch_types(found)
    total, n = total_s(found), len(found)
    asks_types = bool(re.search(r"\b(types?|kinds?|sorts?|categor\w*)\b", q.text, re.I))
    choice = None
    if sum(bool(o.durations) for o in q.options) >= max(2, len(q.options) - 1):
        choice = nearest(q.options, lambda o: o.durations[0] if o.durations else None, total)
    elif re.search(r"\bhow long\b|\bin (?:seconds|secs|minutes|mins)\b", q.text, re.I) \
            and q.options and all(o.numbers for o in q.options):
        # "how many seconds are degraded in total? about 20 / 50 / 100": bare numbers in the
        # unit asked (the gloss reads "how many seconds" as "how long")
        choice = nearest(q.options, lambda o: option_seconds(q, o), total)
    elif re.search(r"\bhow (?:many|often)\b", q.text, re.I) and any(
            o.numbers for o in q.options):
        target = float(len(types) if asks_types else n)
        choice = nearest(q.options, lambda o: o.numbers[0] if o.numbers else None, target)
    elif q.options and _SHARE_ASKED.search(q.text) and ctx.duration_s > 0 and all(
            share_bounds(o.text) for o in q.options):  # "what percentage is degraded?"
        choice = share_option(q.options, total / ctx.duration_s)
    elif type_sets(q):
        choice = best_set(q.options, set(types))
    elif judges_quality(q) and not q.type:  # "considering all of it, is it acceptable?"
        return overall(q, ev, ctx)
    elif q.options:
        return generic(q, ev, ctx)
    kinds = ", ".join(TYPE_NAMES.get(t, t) for t in sorted(types, key=types.get,
                                                             reverse=True))
    share = f" ({total / ctx.duration_s:.0%} of the video)" if ctx.duration_s > 0 else ""
    text = (f"{n} distinct degraded stretch(es){q.bound_text}, {total:.0f} s in all{share}"
            + (f", of {len(types)} kind(s): {kinds}" if types else "") + ". "
            + timeline_text([s.to_event() for s in found]))
    return {"answer": text, "choice": choice, "confidence": 0.55,
            "segments": segments([s.to_event() for s in found])}
