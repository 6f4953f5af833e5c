"""Which of the named distortion types is worse (or milder): their lasting events' levels on
each detector's own cuts, ties told apart by how much of the video each spoils."""

from __future__ import annotations

import re
from typing import Any

from agent.brains.local.claims import claim_subject
from agent.brains.local.common import (
    agree,
    asks_whether,
    by_type,
    segments,
    type_load,
    verdict,
    yes_no,
)
from agent.brains.local.evidence import Evidence
from agent.brains.local.levels import events_level, level_word, type_grade
from agent.brains.local.statements import SAME_OPTION
from agent.brains.stretches import split_lasting
from agent.distortions import TYPE_NAMES
from agent.questions import Question


def claims_less(text: str) -> bool:
    """Whether a comparison asks "is A milder/less/shorter than B" rather than "worse"."""
    return bool(re.search(r"\b(less|better|milder|weaker|fewer|lighter|shorter)\b", text, re.I))


# "Are the halos as strong as the noise?": the two at one level
_AS_AS = re.compile(r"\bas\s+(?:strong|bad|severe|noticeable|visible|serious|heavy|intense|"
                    r"annoying|disturbing)\s+as\b", re.I)


_MORE_WORD = re.compile(r"\b(?:stronger|worse|more|heavier|bigger|greater|harsher|"
                        r"more\s+severe|more\s+visible|more\s+noticeable)\b", re.I)
_AS_BAD = re.compile(r"\bas\s+(?:bad|strong|severe|heavy|visible)\b|\bequally\b", re.I)
_LESS_WORD = re.compile(r"\b(?:weaker|milder|less|lighter|smaller)\b", re.I)


def compare_types(q: Question, ev: Evidence,
                  types: list[str] | None = None) -> dict[str, Any]:
    """Options (or the question) naming distortion types: the one whose lasting events are
    worst (or least)."""
    lasting, brief = split_lasting(ev.all_events())
    named = set(types) if types else {o.types[0].type for o in q.options if o.types}
    # The question says each named type is there: one seen only briefly (a degradation
    # over whole shots shows only where it crosses a cut) is judged on that glimpse.
    seen = {e["type"] for e in lasting}
    pool = (lasting + [e for e in brief if e["type"] in named - seen]) or ev.all_events()
    grade = type_grade(pool)
    if types:  # named in the question: only they are compared
        grade = {t: grade.get(t, 0.0) for t in types}
    # Equal grades (two types at the top of their scales) are told apart by how much of the
    # video each spoils, its severity-weighted seconds: a tie-break far below a grade step,
    # so the answer's text and its choice name the same type.
    spoilt = type_load(pool)
    most = max(spoilt.values(), default=0.0) or 1.0
    load = {t: g + (1e-3 * spoilt.get(t, 0.0) / most if g else 0.0) for t, g in grade.items()}
    if q.least:
        inv = {t: 1.0 / (1e-3 + load.get(t, 0.0)) for t in named}
        choice, conf = by_type(q, inv)
    else:
        choice, conf = by_type(q, load)
    top = max(load, key=load.get) if any(load.values()) else None
    said = [(o, o.types[0].type, bool(_MORE_WORD.search(o.text)), bool(_LESS_WORD.search(o.text)))
            for o in q.options if o.types]
    if top and len(said) >= 2 and all(more != less for _, _, more, less in said):
        # "blur is stronger / overexposure is stronger / about the same": each option says
        # which way one type goes
        choice = next((o.letter for o, t, more, _ in said if (t == top) == more), choice)
    tie = types and top is not None and len(types) >= 2 and \
        abs(grade[types[0]] - grade[types[1]]) < 1e-6
    if types and choice is None and q.options and not any(o.types for o in q.options) and top:
        # "is the washed-out part as bad as the compression? worse / about as bad / milder":
        # the question's subject against the other
        subject = claim_subject(q, types)
        way = "same" if tie else "more" if top == subject else "less"
        said_way = {"same": lambda t: SAME_OPTION.search(t) or _AS_BAD.search(t),
                    "more": _MORE_WORD.search, "less": _LESS_WORD.search}[way]
        choice = next((o.letter for o in q.options if said_way(o.text)), None)
    if types and choice is None and _AS_AS.search(q.text):  # "as strong as the noise?"
        choice = yes_no(q, bool(tie))
    elif types and choice is None:  # "is the blur worse than the noise?"
        choice = yes_no(q, False if tie else
                        (top == claim_subject(q, types)) != claims_less(q.text))
    if tie:
        return {"answer": f"Neither: the {TYPE_NAMES.get(types[0], types[0])} and the "
                          f"{TYPE_NAMES.get(types[1], types[1])} are equally severe "
                          f"({level_word(max(e['severity'] for e in pool if e['type'] == top))}"
                          ").",
                "choice": choice, "confidence": 0.4,
                "segments": segments([e for e in lasting if e["type"] in types])}
    tops = [e for e in pool if e["type"] == top]
    worst = max((e["severity"] for e in tops), default=0.0)
    text = ("The most severe distortion is " + TYPE_NAMES.get(top, top)
            + f" ({level_word(worst, events_level(tops))}, severity {worst:.2f})."
            if top else "No distortion was detected, so none is more severe.")
    if (types or len(named) >= 2) and top:  # the other named types' worst, beside it
        # each with its level word: raw severities do not compare across detectors, so a
        # bare "reaches 0.69" beside a "severe 0.59" would read as a contradiction
        rest = [(TYPE_NAMES.get(t, t), max((e["severity"] for e in pool if e["type"] == t),
                                           default=0.0),
                 events_level([e for e in pool if e["type"] == t]))
                for t in (types or sorted(named)) if t != top]
        text += "".join(f" The {n} {agree(n, 'is', 'are')} {level_word(s_, lv)} at "
                        f"{agree(n, 'its', 'their')} worst (severity {s_:.2f} on "
                        f"{agree(n, 'its', 'their')} detector's own scale)." if s_ else
                        f" No {n} {agree(n, 'was', 'were')} detected." for n, s_, lv in rest)
        if types and not q.options and asks_whether(q.text):  # "is the noise heavier ...?"
            holds = (top == claim_subject(q, types)) != claims_less(q.text)
            text = verdict(holds, text)
    if q.least and top and len(named) >= 2 and not asks_whether(q.text):
        # "which is milder?": that one named first
        low = min(named, key=lambda t: load.get(t, 0.0))
        lows = [e for e in pool if e["type"] == low]
        mild = max((e["severity"] for e in lows), default=0.0)
        text = (f"The milder distortion is {TYPE_NAMES.get(low, low)} "
                + (f"({level_word(mild, events_level(lows))}, severity {mild:.2f}). "
                   if lows else "(not detected). ") + text)
    level = [t for t in named if t != top and top and grade.get(t) == grade[top]]
    if level:  # as severe at its worst: say what decided
        other = TYPE_NAMES.get(level[0], level[0])
        name = TYPE_NAMES.get(top, top)
        text += (f" The {other} {agree(other, 'is', 'are')} as severe at "
                 f"{agree(other, 'its', 'their')} worst; the {name} "
                 f"{agree(name, 'spoils', 'spoil')} more of the video "
                 f"({spoilt.get(top, 0.0):.0f} against {spoilt.get(level[0], 0.0):.0f} "
                 "severity-weighted seconds).")
    return {"answer": text, "choice": choice, "confidence": min(conf, 0.5) if level else conf,
            "segments": segments([e for e in lasting if e["type"] == top])}
