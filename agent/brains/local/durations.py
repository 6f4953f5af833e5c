"""Arithmetic on the stretches' lengths: how much longer one is than another ("by how many
seconds is the last freeze longer than the first?"), their combined length ("the combined
duration of the shake and the flicker"), and the gap between two stretches of one type."""

from __future__ import annotations

import re
from typing import Any

from agent.brains.local.common import nearest, option_seconds, segments
from agent.brains.local.evidence import Evidence
from agent.brains.stretches import split_lasting
from agent.questions import Question, rank_event, type_name
from agent.timefmt import hms
from tools.timeline import span_union_s

# "the combined / total duration of A and B", "A and B together"
COMBINED = re.compile(r"\b(?:combined|together|added up|in total|total)\b", re.I)
# "the gap between the two damaged stretches"
GAP_OF_ONE = re.compile(r"\b(?:gap|interval|pause|time)\s+between\s+(?:the\s+)?(?:two|2|both)\b",
                        re.I)


def _of_type(q: Question, ev: Evidence) -> list[dict[str, Any]]:
    """The lasting stretches of the question's first named type, in time order (none when it
    names no type)."""
    if not q.types:
        return []
    etype = q.types[0].type
    return sorted((e for e in split_lasting(ev.all_events())[0] if e["type"] == etype),
                  key=lambda e: e["start_s"])


def _length(e: dict[str, Any]) -> float:
    return e["end_s"] - e["start_s"]


def _line(e: dict[str, Any]) -> str:
    return f"{type_name(e['type'])} {hms(e['start_s'])}-{hms(e['end_s'])} ({_length(e):.1f} s)"


def _answer(text: str, seconds: float, q: Question, evs: list[dict[str, Any]]) -> dict[str, Any]:
    choice = nearest(q.options, lambda o: option_seconds(q, o), seconds) if q.options else None
    return {"answer": text, "choice": choice, "segments": segments(evs), "confidence": 0.65}


def length_difference(q: Question, ev: Evidence) -> dict[str, Any] | None:
    """How much longer one stretch of the named type is than another: the two ranked in the
    question, else its longest and shortest, else its first two; None when it names no type
    or there are fewer than two."""
    mine = _of_type(q, ev)
    if len(mine) < 2:
        return None
    if len(q.ranks) == 2:
        pair = [rank_event(mine, rank, t) for rank, t in q.ranks]
        if None in pair:
            return None
    elif re.search(r"\blongest\b", q.text, re.I) and re.search(r"\bshortest\b", q.text, re.I):
        pair = [max(mine, key=_length), min(mine, key=_length)]
    else:
        pair = mine[:2]
    diff = abs(_length(pair[0]) - _length(pair[1]))
    text = (f"They differ by {diff:.1f} s: " + "; ".join(_line(e) for e in pair) + ".")
    return _answer(text, diff, q, pair)


def combined_length(q: Question, ev: Evidence) -> dict[str, Any] | None:
    """The time the named types' lasting stretches cover together (overlaps once); None
    unless the question names two or more types and asks for them combined."""
    types = {m.type for m in q.types}
    if len(types) < 2 or not COMBINED.search(q.text):
        return None
    mine = [e for e in split_lasting(ev.all_events())[0] if e["type"] in types]
    total = span_union_s((e["start_s"], e["end_s"]) for e in mine)
    text = (f"Together they last {total:.1f} s: "
            + ("; ".join(_line(e) for e in mine) if mine else "none of them was found") + ".")
    return _answer(text, total, q, mine)


def gap_of_one_type(q: Question, ev: Evidence) -> dict[str, Any] | None:
    """The clean time between consecutive stretches of the one named type ("the gap between
    the two damaged stretches"); None unless it names one type with two or more stretches."""
    if len({m.type for m in q.types}) != 1 or not GAP_OF_ONE.search(q.text):
        return None
    mine = _of_type(q, ev)
    if len(mine) < 2:
        return None
    etype = mine[0]["type"]
    gaps = [max(0.0, b["start_s"] - a["end_s"]) for a, b in zip(mine, mine[1:], strict=False)]
    text = (f"The {type_name(etype)} stretches are {', '.join(f'{g:.1f} s' for g in gaps)} "
            "apart: " + "; ".join(_line(e) for e in mine) + ".")
    return _answer(text, gaps[0], q, mine)
