"""Options judged one by one against what was found: statements ("The video gets darker
around 0:15-0:45", "The video has no problems"), and "the first one / the second one" of the
degraded stretches."""

from __future__ import annotations

import re
from typing import Any

from agent.brains.local.common import (
    ev_line,
    option_span,
    segments,
    spans_text,
    timed_mentions,
    yes_no,
)
from agent.brains.local.evidence import Evidence
from agent.brains.local.levels import events_level, level_word
from agent.brains.stretches import Stretch, split_lasting, stretches
from agent.context import RunContext
from agent.questions import Option, Question, back_reference, type_name
from agent.timefmt import hms
from agent.times import ORDINALS

# "Which statement is false?": the one the events bear out least.
_FALSE = re.compile(r"\b(?:false|wrong|incorrect|untrue|not (?:true|correct|accurate))\b", re.I)


# A statement that denies its distortion ("there is no interlacing", "the video never
# freezes"), and one that claims only that it shows somewhere in its time ("appears in the
# first minute"), not that it fills it.
_DENIED = re.compile(r"\b(?:no|not|never|without|free of|none)\b|n't\b", re.I)
_PRESENCE = re.compile(r"\b(?:appear\w*|occur\w*|show\w* up|happen\w*|is present|are present|"
                       r"contains?|there (?:is|are)|at some point|somewhere|starts?|begins?|"
                       r"sets? in)\b", re.I)


# A claim's time shorter than this is an instant ("at 0:13"), held if an event covers it
# within MOMENT_SLACK_S (event edges are placed to a second or two).
MOMENT_S = 10.0
MOMENT_SLACK_S = 2.0
# Words that set two claims of one option in sequence ("early on ... later", "then")
_SEQUENCE = re.compile(r"\b(?:early|earlier|first|at first|initially|then|later|latest|afterwards|"
                       r"after that|followed by|before|after|eventually|finally)\b", re.I)
_ONLY = re.compile(r"\b(?:only|just|nothing but|solely|exclusively)\b", re.I)


def is_statement_set(q: Question) -> bool:
    """Whether the options claim each a distortion somewhere (two or more of them with their
    own time or part, or two distortions in a stated order), while the question itself names
    neither."""
    if q.types or q.windows:
        return False
    return sum((bool(o.types) and bool(o.windows)) or (
        len({m.type for m in o.types}) == 2 and bool(_SEQUENCE.search(o.text)))
        for o in q.options) >= 2


def _truth(o: Option, lasting: list[dict[str, Any]], duration: float) -> float:
    """How far the events bear the option out, 0..1: the share of its time its distortion
    covers (anywhere in the video when it names no time); "no problems" holds when nothing
    lasting was found; an option of two claims, each a distortion with its own time ("colours
    fade around 1:00 and edges get harsh around 2:00"), as far as its claims on average."""
    if not o.types:  # "no problems" holds when nothing lasting was found
        return (0.0 if lasting else 1.0) if (o.none or o.no or _DENIED.search(o.text)) else 0.0
    if _ONLY.search(o.text) and not o.windows:  # "only blur": that and nothing else
        accepts = {t for m in o.types for t in m.accepts}
        kinds = {e["type"] for e in lasting}
        return float(bool(kinds) and kinds <= accepts)
    order = _ordered(o, lasting)
    if order is not None:
        return order
    pairs = _paired(o)
    if pairs:  # (the mean: one claim missed by the detectors does not sink a true option)
        return sum(_claim(o.text, [m], w.span, lasting, _is_part(w)) for m, w in pairs) / len(
            pairs)
    span = option_span(o, duration)
    return _claim(o.text, o.types, span, lasting, bool(o.windows) and _is_part(o.windows[0]))


def _is_part(w: Any) -> bool:
    """Whether a window is a part of the video named in words ("at the beginning", "in the
    second half"), not a time: its claim holds where the distortion lies inside it."""
    return not re.search(r"\d", w.label)


def _ordered(o: Option, lasting: list[dict[str, Any]]) -> float | None:
    """"Blurry early on, blocky later": 1 when the distortion named first starts before the
    one named second (0 when after, or one is missing); None when the option claims no such
    order or names a time for each."""
    if len(o.types) != 2 or len(o.windows) > 1 or not _SEQUENCE.search(o.text):
        return None
    first, second = sorted(o.types, key=lambda m: m.pos)
    starts = [min((e["start_s"] for e in lasting if e["type"] in m.accepts), default=None)
              for m in (first, second)]
    if None in starts or first.type == second.type:
        return 0.0
    return float(starts[0] < starts[1])


def _paired(o: Option) -> list[tuple[Any, Any]]:
    """Each distortion of an option with the time named after it (`timed_mentions`), when it
    names two or more of each and every distortion has its time; else empty."""
    kinds = {m.type for m in o.types}
    if len(kinds) < 2 or len(o.windows) < 2:
        return []
    pairs = timed_mentions(o.types, o.windows)
    return pairs if len(pairs) == len(kinds) else []


def _claim(text: str, types: list[Any], span: tuple[float, float] | None,
           lasting: list[dict[str, Any]], part: bool = False) -> float:
    """How far the events bear out one claim: its distortions over its span."""
    accepts = {t for m in types for t in m.accepts}
    mine = [e for e in lasting if e["type"] in accepts]
    denied = bool(_DENIED.search(text))  # "there is no interlacing"
    if not types or span is None:
        return float(bool(mine) != denied)
    a, b = span
    if b <= a:
        return 0.0
    covered = sum(max(0.0, min(b, e["end_s"]) - max(a, e["start_s"])) for e in mine)
    share = min(1.0, covered / (b - a))
    if b - a < MOMENT_S:  # "blur at 1:58": an instant the events cover, give or take
        mid = (a + b) / 2
        share = float(any(e["start_s"] - MOMENT_SLACK_S <= mid <= e["end_s"] + MOMENT_SLACK_S
                          for e in mine))
    elif part or _PRESENCE.search(text):
        # "it appears in the first minute", "noisy at the beginning": some of it lies there
        share = max(share, max((max(0.0, min(b, e["end_s"]) - max(a, e["start_s"]))
                                / max(e["end_s"] - e["start_s"], 1e-6) for e in mine),
                               default=0.0))
    return 1.0 - share if denied else share


def statements(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The option the events bear out best (least, when the question asks which is false)."""
    lasting, _ = split_lasting(ev.all_events())
    truth = {o.letter: _truth(o, lasting, ctx.duration_s) for o in q.options}
    false = bool(_FALSE.search(q.text))
    pick = (min if false else max)(q.options, key=lambda o: truth[o.letter])
    ranked = sorted(q.options, key=lambda o: -truth[o.letter])
    text = (f"Option {pick.letter} ({pick.text}) is the one the measurements "
            f"{'bear out least' if false else 'bear out'}: "
            + "; ".join(f"{o.letter} {truth[o.letter]:.0%}" for o in ranked)
            + " of each claim's time covered by its distortion.")
    accepts = {t for m in pick.types for t in m.accepts}
    backing = [e for e in lasting if e["type"] in accepts]
    if backing and not false:
        text += " Found: " + "; ".join(ev_line(e) for e in backing[:3]) + "."
    spread = max(truth.values()) - min(truth.values())
    return {"answer": text, "choice": pick.letter, "segments": segments(backing),
            "confidence": round(0.4 + 0.5 * spread, 2)}


# An option saying the stretches compared are alike ("the same", "equal", "no difference")
SAME_OPTION = re.compile(r"\b(same|equal\w*|no\s+difference|alike|similar|neither)\b", re.I)
SAME_SEVERITY = 0.03


def _weight(s: Stretch) -> tuple[float, float]:
    """How bad a stretch is, to rank it: its level, then its severity."""
    return (events_level(s.events), s.severity)


def compare_found(q: Question, ev: Evidence, milder: bool) -> dict[str, Any]:
    """Options pointing back at the degraded stretches in their order ("the first one", "the
    second one"): the worse (or milder) of the stretches they name, by level then severity."""
    types = {m.type for m in q.types}  # "which corruption burst is worse, ...?": of that type
    found = sorted(stretches([e for e in ev.all_events() if not types or e["type"] in types]),
                   key=lambda s: s.start_s)
    named = {o.letter: found[i] for o in q.options
             if (i := back_reference(o.text)) is not None and -len(found) <= i < len(found)}
    if len(named) < 2:
        return {"answer": f"Only {len(found)} degraded stretch(es) were found: "
                          + spans_text([s.to_event() for s in found]) + ".",
                "choice": None, "segments": segments([s.to_event() for s in found]),
                "confidence": 0.3}
    pick = (min if milder else max)(named, key=lambda k: _weight(named[k]))
    same = next((o.letter for o in q.options if SAME_OPTION.search(o.text)), None)
    weights = sorted(_weight(s) for s in named.values())
    if same and weights[-1][0] == weights[0][0] and \
            weights[-1][1] - weights[0][1] < SAME_SEVERITY:
        pick = same  # the same level, severities a hair apart
    text = "; ".join(f"{k}: {type_name(s.type)} {hms(s.start_s)}-{hms(s.end_s)}, "
                     f"{level_word(s.severity, events_level(s.events))} (severity "
                     f"{s.severity:.2f})" for k, s in sorted(named.items()))
    said = "Both stretches are alike." if pick == same else \
        f"Option {pick} names the {'milder' if milder else 'worse'} stretch."
    return {"answer": f"{said} "
                      + text + ".", "choice": pick,
            "segments": segments([named[pick].to_event()] if pick in named else
                                 [s.to_event() for s in named.values()]), "confidence": 0.6}


# "Is the second problem worse than the first?": two of the degraded stretches by their order
_GENERIC_RANK = re.compile(r"\bthe\s+(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+"
                           r"(?:problem|issue|distortion|event|defect|artefact|artifact|glitch|"
                           r"degradation|degraded\s+\w+)s?\b", re.I)
_ORDINAL = re.compile(r"\b(first|second|third|fourth|last|1st|2nd|3rd|4th)\b", re.I)


def ranked_found(q: Question, ev: Evidence, milder: bool) -> dict[str, Any] | None:
    """For "is the second problem worse than the first?" (no type named): whether the first
    stretch the question ranks is worse (milder) than the second; None for other questions."""
    m = _GENERIC_RANK.search(q.text)
    if not m or q.types or q.windows:
        return None
    words = [w.group(1).lower() for w in _ORDINAL.finditer(q.text, m.start())][:2]
    found = sorted(stretches(ev.all_events()), key=lambda s: s.start_s)
    if len(words) < 2:
        return None
    i, j = (-1 if w == "last" else ORDINALS[w] - 1 for w in words)
    if not (-len(found) <= i < len(found) and -len(found) <= j < len(found)):
        return {"answer": f"Only {len(found)} degraded stretch(es) were found, so there is no "
                          f"{words[0]} and {words[1]} to compare.", "choice": None,
                "segments": segments([s.to_event() for s in found]), "confidence": 0.3}
    a, b = found[i], found[j]
    holds = _weight(a) < _weight(b) if milder else _weight(a) > _weight(b)
    text = ("Yes. " if holds else "No. ") + "; ".join(
        f"the {w} problem: {type_name(s.type)} {hms(s.start_s)}-{hms(s.end_s)}, "
        f"{level_word(s.severity, events_level(s.events))} (severity {s.severity:.2f})"
        for w, s in zip(words, (a, b), strict=True)) + "."
    return {"answer": text, "choice": yes_no(q, holds),
            "segments": segments([a.to_event(), b.to_event()]), "confidence": 0.6}
