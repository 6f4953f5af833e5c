"""Yes/no questions naming several types: "is it blurry or noisy?", "both noise and
darkening?", "is the blur in the first half and the contrast problem in the second?"."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from agent.brains.local.common import (
    asks_whether,
    by_type,
    ev_line,
    segments,
    timed_mentions,
    type_load,
    where,
    yes_no,
)
from agent.brains.local.evidence import (
    Evidence,
    fitting,
    in_question_window,
    in_window,
    touching,
)
from agent.brains.stretches import split_lasting
from agent.context import RunContext
from agent.questions import Question, type_name
from agent.timefmt import hms
from agent.times import Window

_BETWEEN = re.compile(r"\bbetween\s+[^\s,?]+(?:\s+(?:s|sec|seconds|min|minutes))?\s+and\s+"
                      r"[^\s,?]+", re.I)


def _own_windows(q: Question) -> dict[str, Window]:
    """For a question naming two or more types, each with a window of its own after it ("the
    blur in the first half and the contrast problem in the second half"): each type -> its
    window (`timed_mentions`); empty unless two windows or more are so taken."""
    if len(q.types) < 2 or len(q.windows) < 2:
        return {}
    out = {m.type: w for m, w in timed_mentions(q.types, q.windows)}
    return out if len({id(w) for w in out.values()}) >= 2 else {}


def each_type(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """"Is it blurry or noisy?" / "both noise and darkening?": each named type on its own;
    yes when any (or, with "both" / "and", every) one of them is there."""
    lo, hi = q.scope(ctx.duration_s)
    seen: dict[str, list[dict[str, Any]]] = {}
    accepts: dict[str, tuple[str, ...]] = {}
    own = _own_windows(q)  # "the blur in the first half and the contrast in the second"
    placed: dict[str, str] = {}
    for m in q.types:
        # "does it drop frames or stutter?": words of one defect (one accepts the other's
        # events) are answered once, with the events of both
        key = next((k for k in seen if k in m.accepts or m.type in accepts[k]), m.type)
        accepts.setdefault(key, m.accepts)
        w = own.get(m.type)
        a, b = (w.start_s, w.end_s) if w else (lo, hi)
        placed.setdefault(key, f" {hms(a)}-{hms(b)}" if w else "")
        # softness found to be the coder's is smeared too: "smeary and blocky?" of a
        # low-bitrate window holds for both words
        evs = fitting(m, [e for e in touching(ev.all_events(), a, b)
                          if e["type"] in m.accepts or (m.type == "blur" and str(
                              e.get("graded_as", "")).startswith("blur/"))])
        lasting = split_lasting(evs)[0]
        got = seen.setdefault(key, [])
        got += [e for e in ([e for e in lasting if in_window(e, w)] if w else
                            in_question_window(q, lasting)) if e not in got]
    for evs in seen.values():
        evs.sort(key=lambda e: e["start_s"])
    said = _BETWEEN.sub(" ", q.text)  # ("between 1:40 and 2:10" joins no two defects)
    every = bool(re.search(r"\b(both|and|as well as|together with)\b", said, re.I)) and \
        not re.search(r"\bor\b", said, re.I)
    present = all(seen.values()) if every else any(seen.values())
    span = "each in its own window" if own else where(q, ctx.duration_s)
    parts = [f"{type_name(t)}{placed.get(t, '')}: " + ("; ".join(ev_line(e) for e in evs[:3])
                                                       if evs else "none")
             for t, evs in seen.items()]
    found_types = [type_name(t) for t, evs in seen.items() if evs]
    whether = asks_whether(q.text) and not re.search(r"\bor\b", said, re.I)
    if every or len(seen) == 1 or whether or any(o.yes or o.no for o in q.options):
        lead = "Yes" if present != q.absent else "No"
    else:  # "is it blurry or noisy?": which of them
        lead = (" and ".join(found_types).capitalize() if found_types else "Neither")
    choice = yes_no(q, present != q.absent)
    if choice is None and q.options:
        choice, _ = by_type(q, type_load([e for evs in seen.values() for e in evs]), {})
    return {"answer": f"{lead}. {span[0].upper()}{span[1:]}: " + " | ".join(parts) + ".",
            "choice": choice,
            "segments": segments([e for evs in seen.values() for e in evs]),
            "confidence": 0.7}


def distinct_defects(q: Question) -> list[Any]:
    """The question's type mentions, one per defect (words of one defect, one accepting the
    other's events, count once: "does it drop frames or stutter?")."""
    out: list[Any] = []
    for m in q.types:
        if not any(m.type in k.accepts or k.type in m.accepts for k in out):
            out.append(m)
    return out


def defect_windows(q: Question) -> list[tuple[Any, list[Window]]]:
    """Each defect of a question naming several, with the windows it is asked over: where
    every window the question names follows one defect ("noise near the end, plus a
    brightness jump earlier"), each defect its own (none: the whole video); else all of
    them."""
    defects = distinct_defects(q)
    own = {m.type: w for m, w in timed_mentions(defects, q.windows)}
    if q.windows and len({id(w) for w in own.values()}) == len(q.windows):
        return [(m, [own[m.type]] if m.type in own else []) for m in defects]
    return [(m, list(q.windows)) for m in defects]


def located_each(q: Question, ev: Evidence, ctx: RunContext,
                 locate: Callable[[Question, Evidence, RunContext], dict[str, Any]]
                 ) -> dict[str, Any]:
    """"When do the noise and the brightness problems occur?": each defect located on its
    own, over its own window when the question gives it one (`locate` answers one), the
    answers in the order named."""
    outs = [locate(replace(q, types=[m], windows=wins), ev, ctx)
            for m, wins in defect_windows(q)]
    return {"answer": " ".join(f"({i}) {o['answer']}" for i, o in enumerate(outs, 1)),
            "choice": None,
            "segments": [s for o in outs for s in o.get("segments", [])],
            "confidence": min(o.get("confidence", 0.5) for o in outs)}
