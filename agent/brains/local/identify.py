"""Which distortion it is: classification of a window, and the dominant factor of a video."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from agent.brains.local.common import (
    by_type,
    ev_line,
    none_option,
    segments,
    subtypes,
    type_load,
    where,
)
from agent.brains.local.evidence import (
    Evidence,
    found,
    near_vague_part,
    nth_stretch,
    touching,
)
from agent.brains.local.statements import is_statement_set, statements
from agent.brains.local.totals import aggregate, type_sets
from agent.brains.stretches import stretch_types, stretches
from agent.context import RunContext
from agent.distortions import TYPE_NAMES
from agent.kinds import BOTH_OPTION, RANKED_BY
from agent.questions import Question
from agent.timefmt import hms

_LOOSE = re.compile(r"^(?:at|around|about|near)\s+", re.I)  # "near (around) the middle"


def classification(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The type of the distortion in the window (or the video), named as the options do."""
    if is_statement_set(q):  # "which statement is true?" (also of two types, each timed)
        return statements(q, ev, ctx)
    if type_sets(q):
        return aggregate(q, ev, ctx)
    evs, _ = found(replace(q, types=[]), ev, ctx.duration_s)
    if _NOT_PRESENT.search(q.text) and sum(bool(o.types) for o in q.options) >= 2:
        return _not_present(q, evs, where(q, ctx.duration_s))
    if _LONGEST.search(q.text) and not q.window:  # "which lasts longer, the blur or ...?"
        return dominant_factor(q, ev, ctx)
    if (nth := nth_stretch(q, evs)) is not None:  # "what is the second problem?"
        evs = nth
    elif not q.window:  # the whole video: what a viewer would name, not passing spikes
        evs = [s.primary for s in stretches(evs)] or evs
    span = where(q, ctx.duration_s)
    if not evs and (near := near_vague_part(replace(q, types=[]), ev)):
        # "it jumps a bit at the beginning: stutter or blur?": a defect that starts just
        # after the words' part of the video is the one meant (as yes/no questions read it)
        evs, span = near, f"near {_LOOSE.sub('', q.window.label)} ({span})"
    load = type_load(evs)
    if not evs:
        choice = none_option(q)
        conf = 0.6
        text = f"No quality distortion was detected {span}."
        if choice is None and q.options:
            scores = (ev.get("measure_window") or {}).get("type_scores") or {}
            choice, _ = by_type(q, {k: v for k, v in scores.items() if v > 0})
            conf = 0.25
            picked = next((o for o in q.options if o.letter == choice), None)
            if picked is not None:
                t, v = max(((t, scores.get(t, 0.0)) for m in picked.types for t in m.accepts),
                           key=lambda tv: tv[1])
                text += (f" Option {choice} is a guess: its {TYPE_NAMES.get(t, t)} signal is "
                         f"the strongest measured there ({v:.1f}x the smallest step a "
                         "detector reports), below an event's.")
        return {"answer": text, "choice": choice, "confidence": conf}
    top = max(load, key=load.get)
    subs = subtypes(evs)
    choice, conf = by_type(q, load, subs)
    typed = [o for o in q.options if o.types]
    both = next((o for o in q.options if not o.types and BOTH_OPTION.match(o.text)), None)
    if both and len(typed) >= 2 and all(any(t in load for m in o.types for t in m.accepts)
                                        for o in typed):
        choice = both.letter  # "noise / over-sharpening / both / neither": each is there
    main = [e for e in evs if e["type"] == top]
    name = TYPE_NAMES.get(top, top)
    text = (f"The distortion {span} is {name}"
            + (f" ({subs[top]})" if subs.get(top) and f"({subs[top]})" not in name else "")
            + ": "
            + "; ".join(ev_line(e) for e in main[:3]) + ".")
    picked = next((o for o in q.options if o.letter == choice), None)
    named = [t for m in (picked.types if picked else []) for t in m.accepts if t in load]
    if named and top not in named:  # the option chosen names a type beside the main one
        text += (f" Of the options' distortions, {TYPE_NAMES.get(named[0], named[0])} is the "
                 "one present: " + ev_line(next(e for e in evs if e["type"] == named[0]))
                 + ".")
    others = sorted(set(load) - {top} - set(named[:1]))
    if others:
        # each with where it is: "what's wrong with this video?" wants every problem placed
        text += " Also present: " + "; ".join(
            f"{TYPE_NAMES.get(t, t)} " + ", ".join(
                [f"{hms(e['start_s'])}-{hms(e['end_s'])}" for e in evs if e["type"] == t][:3])
            for t in others) + "."
    return {"answer": text, "choice": choice, "segments": segments(evs), "confidence": conf}


# "Which of these does NOT appear?", "which is absent / missing?": the option not found.
_NOT_PRESENT = re.compile(r"\b(?:not|never|absent|missing|except)\b|n't\b", re.I)


def _not_present(q: Question, evs: list[dict[str, Any]], span: str) -> dict[str, Any]:
    """The option naming a distortion that was not found (of several, the first)."""
    present = {e["type"] for e in evs}
    absent = [o for o in q.options if o.types and not any(
        t in present for m in o.types for t in m.accepts)]
    names = ", ".join(sorted(TYPE_NAMES.get(t, t) for t in present)) or "nothing"
    if not absent:
        return {"answer": f"Every distortion the options name was found {span} ({names}).",
                "choice": none_option(q), "confidence": 0.3}
    pick = absent[0]
    kind = TYPE_NAMES.get(pick.types[0].type, pick.types[0].type)
    return {"answer": f"Option {pick.letter} ({pick.text}: {kind}) was not found {span}; "
                      f"found there: {names}.",
            "choice": pick.letter, "segments": segments(evs),
            "confidence": 0.8 if len(absent) == 1 else 0.4}


# "Which one lasts longest / takes up most of the time?": plain time, not severity-weighted.
_LONGEST = re.compile(r"\b(?:longest|longer|most (?:of the )?(?:screen |running |viewing )?time|"
                      r"most of the (?:video|clip|footage|film)|(?:takes?|taking|took|occup\w+|"
                      r"covers?|covering|spans?|spanning|fills?|filling)(?:\s+up)?\s+(?:the\s+)?"
                      r"most)\b", re.I)


def _ranked(found_: list, choice: str | None, conf: float) -> dict[str, Any]:
    """Every type found, ranked by its time in the degraded stretches, longest first."""
    secs = stretch_types(found_, weighted=False)
    worst: dict[str, float] = {}
    for s in found_:
        worst[s.type] = max(worst.get(s.type, 0.0), s.severity)
    order = sorted(secs, key=lambda t: -secs[t])
    text = ("Ranked by time, longest first: "
            + "; ".join(f"{i + 1}. {TYPE_NAMES.get(t, t)} ({secs[t]:.0f} s in all, worst "
                        f"severity {worst[t]:.2f})" for i, t in enumerate(order)) + ".")
    mains = [s.primary for s in found_]
    return {"answer": text, "choice": choice, "confidence": conf, "segments": segments(mains)}


def dominant_factor(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The type with the largest severity-weighted time over the degraded stretches (plain
    time when the question asks which lasts longest)."""
    evs = ev.all_events()
    if q.window:
        evs = touching(evs, q.window.start_s, q.window.end_s)
    found_ = stretches(evs)
    longest = bool(_LONGEST.search(q.text))
    load = stretch_types(found_, weighted=not longest)
    if not load:
        return {"answer": "No distortion was detected, so no factor dominates: the quality "
                          "is stable at the video's baseline.",
                "choice": none_option(q), "confidence": 0.5}
    top = max(load, key=load.get)
    mains = [s.primary for s in found_]
    choice, conf = by_type(q, load, subtypes(mains))
    unnamed = choice is None and any(o.types for o in q.options)
    if unnamed:  # what dominates is none of the kinds offered, and none of those was found
        choice, conf = none_option(q), 0.4
    share = load[top] / sum(load.values())
    if RANKED_BY.search(q.text):
        return _ranked(found_, choice, conf)
    text = (f"The dominant factor is {TYPE_NAMES.get(top, top)} ({share:.0%} of the "
            f"{'' if longest else 'severity-weighted '}time of all degraded stretches): "
            + "; ".join(ev_line(e) for e in mains if e["type"] == top)[:600] + ".")
    if unnamed:
        text += (" None of the distortions the options name was found"
                 + (", so none of them is noticeable." if choice else "."))
    return {"answer": text, "choice": choice, "confidence": conf,
            "segments": segments([e for e in mains if e["type"] == top])}
