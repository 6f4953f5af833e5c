"""Arithmetic on the stretches' lengths: how much longer one is than another ("by how many
seconds is the last freeze longer than the first?"), their combined length ("the combined
duration of the shake and the flicker"), and the gap between two stretches of one type."""

from __future__ import annotations

import re
from typing import Any

from agent.brains.local.common import agree, asks_whether, nearest, option_seconds, segments, yes_no
from agent.brains.local.evidence import Evidence
from agent.brains.local.levels import events_level, level_word
from agent.brains.stretches import split_lasting
from agent.distortions import TYPE_NAMES
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


# "Do all the freezes have the same length?", "are the stops equally long?"
SAME_LENGTH = re.compile(r"\b(?:(?:the\s+)?same\s+(?:length|duration)|equally\s+long|as\s+long\s+"
                         r"as\s+each\s+other|(?:length|duration)s?\s+(?:vary|varies|differ|"
                         r"differs))\b", re.I)
# Lengths within this ratio of each other are "the same" (a 2-s and a 2.3-s freeze are).
SAME_RATIO = 1.25


def same_length(q: Question, ev: Evidence) -> dict[str, Any] | None:
    """Whether the named type's stretches all last about as long (within SAME_RATIO); None
    when the question does not ask it, or there are fewer than two."""
    def judged(evs: list[dict[str, Any]]) -> tuple[bool, list[str]]:
        lengths = [_length(e) for e in evs]
        return (max(lengths) <= SAME_RATIO * max(min(lengths), 1e-6),
                [f"{x:.1f} s" for x in lengths])

    return _alike(q, ev, SAME_LENGTH, judged, ("last", "about the same.", "not the same."),
                  0.7, _longer_option)


def _longer_option(q: Question, evs: list[dict[str, Any]]) -> str | None:
    """Of two stretches of unlike length, the option saying which is longer ("no, the first
    is much longer / no, the second is much longer"); None without such options."""
    nth = [(o, _NTH_LONGER.search(o.text)) for o in q.options]
    if len(evs) != 2 or sum(bool(m) for _, m in nth) < 2:
        return None
    first_longer = _length(evs[0]) > _length(evs[1])
    return next((o.letter for o, m in nth if m and (m.group(1).lower() in (
        "first", "earlier", "former")) == (first_longer == (m.group(2).lower() in (
            "longer", "long")))), None)


def _alike(q: Question, ev: Evidence, asked: re.Pattern, judged, words: tuple[str, str, str],
           confidence: float, unlike_option=None) -> dict[str, Any] | None:
    """Whether the named type's stretches are alike by `judged` (-> whether they are, and
    each one said), as the question `asked` claims (they are, or they vary); None when it
    does not ask, or there are fewer than two stretches. `unlike_option` (question, the
    stretches) picks an option saying how unlike ones differ, when there is one."""
    m = asked.search(q.text)
    evs = _of_type(q, ev)
    if not m or len(evs) < 2:
        return None
    same, said = judged(evs)
    holds = same != bool(re.search(r"vary|varies|differ|change", m.group(0), re.I))
    verb, alike, unlike = words
    text = (f"{'Yes' if holds else 'No'}: the {len(evs)} {type_name(evs[0]['type'])} stretches "
            f"{verb} {', '.join(said)}, " + (alike if same else unlike) + " "
            + "; ".join(_line(e) for e in evs[:5]) + ".")
    choice = (unlike_option(q, evs) if unlike_option and not same else None) \
        or yes_no(q, holds)
    return {"answer": text, "choice": choice, "segments": segments(evs),
            "confidence": confidence}


# "the first is (much) longer", "the second one is shorter": which of two stretches
_NTH_LONGER = re.compile(r"\b(first|second|earlier|later|former|latter)\b[^,;]{0,20}?\b(longer|"
                         r"shorter|long|short)\b", re.I)


# "which is shorter?", "less time": the least asked for
SHORTER = re.compile(r"\b(shorter|less time)\b", re.I)


def compare_durations(q: Question, ev: Evidence, types: list[str]) -> dict[str, Any]:
    """Which of two named types lasts longer, from their lasting events' total time."""
    lasting, _ = split_lasting(ev.all_events())
    secs = {t: sum(e["end_s"] - e["start_s"] for e in lasting if e["type"] == t)
            for t in types}
    a, b = types
    shorter = bool(SHORTER.search(q.text))
    first_holds = secs[a] < secs[b] if shorter else secs[a] > secs[b]
    choice = yes_no(q, first_holds)
    if choice is None:
        longest = min(secs, key=secs.get) if shorter else max(secs, key=secs.get)
        choice = next((o.letter for o in q.options if o.types and o.types[0].type == longest),
                      None)
    if asks_whether(q.text):
        lead = "Yes. " if first_holds else "No. "
    elif shorter:
        low = min(secs, key=secs.get)
        name = TYPE_NAMES.get(low, low)
        lead = f"The {name} {agree(name, 'lasts', 'last')} a shorter time. "
    else:
        top = max(secs, key=secs.get)
        name = TYPE_NAMES.get(top, top)
        lead = f"The {name} {agree(name, 'lasts', 'last')} longer. "
    said = "; ".join(f"{TYPE_NAMES.get(t, t)}: {secs[t]:.1f} s in all" for t in types)
    text = lead + said[0].upper() + said[1:] + "."
    return {"answer": text, "choice": choice, "confidence": 0.6,
            "segments": segments([e for e in lasting if e["type"] in secs])}


# "Is the blur always equally strong?", "the same strength each time?"
SAME_STRENGTH = re.compile(r"\b(?:equally\s+(?:strong|severe|bad|heavy|intense|visible|"
                           r"noticeable)|(?:the\s+)?same\s+(?:strength|severity|intensity|"
                           r"level)|as\s+(?:strong|severe|bad)\s+each\s+time|(?:strength|"
                           r"severity|intensity)\s+(?:vary|varies|differ|differs|change|changes))"
                           r"\b", re.I)


def same_strength(q: Question, ev: Evidence) -> dict[str, Any] | None:
    """Whether the named type's stretches are all graded alike (the same level word on its
    detector's cuts); None when the question does not ask it, or there are fewer than two."""
    def judged(evs: list[dict[str, Any]]) -> tuple[bool, list[str]]:
        words = [level_word(e["severity"], events_level([e])) for e in evs]
        return len(set(words)) == 1, [f"{w} ({e['severity']:.2f})"
                                      for w, e in zip(words, evs, strict=True)]

    return _alike(q, ev, SAME_STRENGTH, judged, ("are", "all alike.", "not equally strong."),
                  0.65)
