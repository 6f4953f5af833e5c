"""The single worst moment of a video (of one named type, if any): "where's the worst part?",
"rate the worst problem on a 1-5 scale"."""

from __future__ import annotations

from typing import Any

from agent.brains.local.common import agree, none_option, segments, spans_text, what, where
from agent.brains.local.course import scale_of
from agent.brains.local.evidence import Evidence, found
from agent.brains.local.levels import events_level, level_word
from agent.brains.local.locate import free_answer
from agent.brains.local.severity import top_is_best
from agent.brains.stretches import split_lasting
from agent.context import RunContext
from agent.distortions import TYPE_NAMES
from agent.questions import Question
from agent.timefmt import hms


def worst_moment(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The single worst degraded stretch (of the named type, if any), when the question
    names no parts to compare; the clean stretches when it asks for the best."""
    evs, _ = found(q, ev, ctx.duration_s)
    lasting, brief = split_lasting(evs)
    pool = lasting or brief
    if q.least:
        return free_answer(q, pool, ctx)
    if not pool:
        name = what(q)
        return {"answer": f"No {name} {agree(name, 'was', 'were')} detected "
                          f"{where(q, ctx.duration_s)}, so there is no worst moment.",
                "choice": none_option(q), "segments": [], "confidence": 0.6}
    worst = max(pool, key=lambda e: (e["severity"], e["end_s"] - e["start_s"]))
    name = TYPE_NAMES.get(worst["type"], worst["type"])
    others = [e for e in pool if e is not worst]
    text = (f"The worst moment is {hms(worst['start_s'])}-{hms(worst['end_s'])}: {name}"
            + (f" ({worst['subtype']})" if worst.get("subtype")
               and worst["subtype"] not in name else "")
            + f", severity {worst['severity']:.2f}."
            + (f" Other degraded stretches: {spans_text(others)}." if others else ""))
    if scale := scale_of(q.text):  # "rate the worst problem on a 1-5 scale": its level there
        lo, hi = scale
        level = min(events_level([worst]), 3.0)
        rated = lo + level / 3.0 * (hi - lo)
        if top_is_best(q, hi):
            rated = lo + hi - rated
        text += f" On the {lo}-{hi} scale asked for: {rated:.0f} ({level_word(0, level)})."
    return {"answer": text, "choice": None, "segments": segments([worst]),
            "confidence": 0.7}
