"""Degradations ranked by how bad they are: the types found ("rank the problems from worst to
mildest"), or the stretches of one type ("rank the three blurry segments")."""

from __future__ import annotations

import re
from typing import Any

from agent.brains.local.common import ev_line, segments, type_load
from agent.brains.local.evidence import Evidence
from agent.brains.local.levels import events_level, level_word, type_grade
from agent.brains.stretches import split_lasting
from agent.distortions import TYPE_NAMES
from agent.questions import Question, type_name
from agent.timefmt import hms

MILD_FIRST = r"\bfrom (?:the )?(?:mildest|least|best)\b"
RANK = re.compile(r"\b(rank\w*|order (?:them|the \w+) by|ordered by|in order of|sort\w*|"
                  r"from (?:the )?(?:worst|most)\b"
                   rf"|{MILD_FIRST})", re.I)


def rank_types(q: Question, ev: Evidence) -> dict[str, Any]:
    """The types found, ranked by level (then by how much of the video each spoils): worst
    first, or mildest first when the question asks from the mildest."""
    lasting, brief = split_lasting(ev.all_events())
    pool = lasting or brief
    if not pool:
        return {"answer": "No distortion was detected, so there is nothing to rank.",
                "choice": None, "segments": [], "confidence": 0.5}
    grade, load = type_grade(pool), type_load(pool)
    order = sorted(grade, key=lambda t: (grade[t], load.get(t, 0.0)), reverse=True)
    mild_first = bool(re.search(MILD_FIRST, q.text, re.I) or _TO_WORST.search(q.text))
    if mild_first:
        order.reverse()
    parts = []
    for t in order:
        mine = [e for e in pool if e["type"] == t]
        worst = max(e["severity"] for e in mine)
        secs = sum(e["end_s"] - e["start_s"] for e in mine)
        when = ", ".join(f"{hms(e['start_s'])}-{hms(e['end_s'])}"
                         for e in sorted(mine, key=lambda e: e["start_s"])[:3])
        parts.append(f"{TYPE_NAMES.get(t, t)} ({level_word(worst, events_level(mine))}, "
                     f"worst severity {worst:.2f}, {secs:.0f} s: {when})")
    head = "mildest first" if mild_first else "worst first"
    text = f"Ranked, {head}: " + "; ".join(f"{i}. {p}" for i, p in enumerate(parts, 1)) + "."
    return {"answer": text, "choice": None, "segments": segments(pool), "confidence": 0.6}


def rank_events(q: Question, ev: Evidence, etype: str) -> dict[str, Any]:
    """The lasting events of one type, ranked by level then severity: worst first, or
    mildest first when the question asks from the mildest (or to the strongest)."""
    evs = sorted((e for e in split_lasting(ev.all_events())[0] if e["type"] == etype),
                 key=lambda e: e["start_s"])
    name = type_name(etype)
    if not evs:
        return {"answer": f"No lasting {name} was detected, so there is nothing to rank.",
                "choice": None, "segments": [], "confidence": 0.5}
    mild_first = bool(re.search(MILD_FIRST, q.text, re.I) or _TO_WORST.search(q.text))
    order = sorted(evs, key=lambda e: (events_level([e]), e["severity"]),
                   reverse=not mild_first)
    head = "mildest first" if mild_first else "worst first"
    text = (f"The {len(evs)} {name} stretch(es) ranked, {head}: "
            + "; ".join(f"{i}. {ev_line(e)} ({level_word(e['severity'], events_level([e]))})"
                        for i, e in enumerate(order, 1)) + ".")
    return {"answer": text, "choice": None, "segments": segments(evs), "confidence": 0.6}


# "... from mildest to strongest", "... up to the worst": the mildest first
_TO_WORST = re.compile(r"\bto (?:the )?(?:strongest|worst|most severe|heaviest|severest)\b", re.I)
