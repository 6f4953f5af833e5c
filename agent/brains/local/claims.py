"""Yes/no claims a question makes beyond presence: where ("is the dark part also noisy?",
"only in the first half?"), how much of the video ("more than half?"), at what level ("is
the blur barely noticeable?"), and the note for softness reported as the coder's."""

from __future__ import annotations

import re
from typing import Any

from agent.amounts import numbers
from agent.brains.local.common import (
    agree,
    asks_whether,
    ev_line,
    segments,
    spans_text,
    what,
    yes_no,
)
from agent.brains.local.evidence import Evidence, fitting, touching
from agent.brains.local.levels import LEVEL_NAMES, events_level, level_word
from agent.brains.stretches import split_lasting
from agent.context import RunContext
from agent.context_times import asking_span
from agent.questions import Question, type_name
from agent.timefmt import hms
from tools.timeline import span_union_s

_PLACES = r"(scene|part|section|segment|shot|bit|portion|stretch|passage|clip)s?"
_PLACE = re.compile(rf"\b{_PLACES}$", re.I)
_PLACE_NEXT = re.compile(rf"\s+{_PLACES}\b", re.I)


def in_named_place(q: Question, ev: Evidence) -> dict[str, Any] | None:
    """"Is the dark part also noisy?": whether the second named type lies in the stretches of
    the first, which names a part of the video by its defect; None when it names none."""
    if len(q.types) != 2 or q.window:
        return None
    place, what_ = q.types
    after = _PLACE_NEXT.match(q.text[place.pos + len(place.text):])
    if not (_PLACE.search(place.text) or after):
        return None
    place_name = place.text + (after.group(0) if after else "")
    if place.type == what_.type:
        return None
    lasting = split_lasting(ev.all_events())[0]
    where_ = fitting(place, [e for e in lasting if e["type"] in place.accepts])
    there = [e for e in fitting(what_, [e for e in lasting if e["type"] in what_.accepts])
             if touching(where_, e["start_s"], e["end_s"])]
    pname, wname = type_name(place.type), type_name(what_.type)
    if not where_:
        text = f"No: no {place_name} was found (no lasting {pname})."
        present = False
    else:
        present = bool(there)
        spans_ = "; ".join(f"{hms(p['start_s'])}-{hms(p['end_s'])}" for p in where_[:4])
        text = (f"{'Yes' if present else 'No'}: the {place_name} ({pname}: {spans_}) "
                + (f"also has {wname}: " + "; ".join(ev_line(e) for e in there[:3])
                   if present else f"has no {wname}"))
        elsewhere = [e for e in lasting if e["type"] in what_.accepts and e not in there]
        if not present and elsewhere:
            text += f"; the {wname} {agree(wname, 'is', 'are')} elsewhere: " + spans_text(elsewhere)
        text += "."
    return {"answer": text, "choice": yes_no(q, present != q.absent),
            "segments": segments(where_ + there), "confidence": 0.7}


_SHARE = re.compile(r"\b(more than|over|at least|less than|under|fewer than)\s+(half|a half|"
                    r"a third|one third|a quarter|one quarter|(\d+(?:\.\d+)?)\s*(?:%|percent))\s+"
                    r"of\s+(?:the\s+)?(?:video|clip|footage|time|running\s*time|runtime|it)\b|"
                    r"\b(most|the majority) of\s+(?:the\s+)?(?:video|clip|footage|time|it)\b",
                    re.IGNORECASE)
_SHARE_WORDS = {"half": 0.5, "a half": 0.5, "a third": 1 / 3, "one third": 1 / 3,
                "a quarter": 0.25, "one quarter": 0.25}


def share_answer(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any] | None:
    """"Does more than half of the video have problems?": the share the lasting events (of
    the named type, else any) cover against the share claimed; None when none is claimed."""
    m = _SHARE.search(q.text)
    if not m or q.window or ctx.duration_s <= 0:
        return None
    if m.group(4):
        op, frac = "more than", 0.5
    else:
        op = m.group(1).lower()
        frac = float(m.group(3)) / 100 if m.group(3) else _SHARE_WORDS[m.group(2).lower()]
    evs = [e for e in split_lasting(ev.all_events())[0] if not q.type or e["type"] == q.type]
    share = span_union_s((e["start_s"], e["end_s"]) for e in evs) / ctx.duration_s
    holds = share > frac if op in ("more than", "over") else share >= frac \
        if op == "at least" else share < frac
    name = what(q) if q.type else "quality distortion"
    text = (f"{'Yes' if holds else 'No'}: {name} covers {share:.0%} of the video "
            f"({share * ctx.duration_s:.0f} s of {ctx.duration_s:.0f} s), against the "
            f"{frac:.0%} asked about" + (": " + spans_text(evs) if evs else "") + ".")
    return {"answer": text, "choice": yes_no(q, holds), "segments": segments(evs),
            "confidence": 0.7}


# "Is the noise constant throughout?", "is it blurry the whole time?": a claim that the named
# defect covers the video ("throughout" alone often means "anywhere in": not read so).
_ALL_ALONG = re.compile(r"\b(?:(?:the\s+)?same\s+(?:strength|level|intensity|severity|amount)|"
                        r"constant|constantly|continuous|continuously|persistent|"
                        r"persistently|the whole time|all the time|the entire time|at all times|"
                        r"(?:the )?(?:whole|entire) (?:video|clip|footage|film|recording|way "
                        r"through)|from (?:start|beginning) to (?:finish|end)|all the way "
                        r"through|all through)\b", re.I)
_COVERS = 0.9  # share of the video a defect must cover to be there "all along"
_WHOLE_OPTION = re.compile(r"\b(?:whole|entire|throughout|all of it|all the time|everywhere|"
                           r"all along|constant\w*|continuous\w*)\b", re.I)
_PART_OPTION = re.compile(r"\b(?:part|parts|partly|partially|some of|sometimes|at times|"
                          r"occasional\w*|intermittent\w*|in places|certain|comes? and goes?|"
                          r"on and off|off and on|now and (?:then|again)|from time to time|"
                          r"here and there|in bursts|in episodes|on-off)\b", re.I)


def extent_answer(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any] | None:
    """"Is the whole video noisy, or only part of it?", "is the noise constant throughout?":
    how much of the video the named defect's lasting events cover, against all of it; None
    when the question claims no extent."""
    if q.window or q.absent or ctx.duration_s <= 0 or not q.types:
        return None
    whole = next((o.letter for o in q.options if _WHOLE_OPTION.search(o.text)
                  and not _PART_OPTION.search(o.text)), None)
    part = next((o.letter for o in q.options if _PART_OPTION.search(o.text)), None)
    none = next((o.letter for o in q.options if o.no or o.none
                 or re.search(r"\b(?:not|never|no)\b", o.text, re.I)), None)
    asked = whole and part or (not q.options or any(o.yes for o in q.options)) and \
        _ALL_ALONG.search(q.text)
    if not asked:
        return None
    evs = fitting(q.types[0], [e for e in split_lasting(ev.all_events())[0]
                               if e["type"] in q.types[0].accepts])
    share = span_union_s((e["start_s"], e["end_s"]) for e in evs) / ctx.duration_s
    holds = share >= _COVERS
    name = what(q)
    said = (f"{name} covers {share:.0%} of the video ({share * ctx.duration_s:.0f} s of "
            f"{ctx.duration_s:.0f} s)" + (": " + spans_text(evs) if evs else ""))
    if whole and part:
        choice = whole if holds else part if evs else (none or part)
        text = (f"{'All of it' if holds else 'Only part of it' if evs else 'None of it'}: "
                f"{said}.")
    else:
        choice = yes_no(q, holds)
        text = f"{'Yes' if holds else 'No'}: {said}, not all of it." if not holds else \
            f"Yes: {said}."
    return {"answer": text, "choice": choice, "segments": segments(evs), "confidence": 0.7}


# "Is there only one kind of problem?", "more than one type of defect?": a claim on how many
# kinds of defect the video shows
_KINDS_CLAIM = re.compile(r"\b(?:(only|just|exactly|a single)\s+|(more than|at least|over)\s+)?"
                          r"(one|two|three|four|\d)\s+(?:different\s+)?(?:kinds?|types?|sorts?|"
                          r"categor(?:y|ies))\s+of\s+(?:problems?|defects?|distortions?|"
                          r"issues?|artifacts?|artefacts?|degradations?|flaws?)\b", re.I)


def kinds_answer(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any] | None:
    """"Is there only one kind of problem in the video?": the number of kinds of the lasting
    stretches against the number claimed; None when no such number is claimed."""
    m = _KINDS_CLAIM.search(q.text)
    if not m or q.types or not (m.group(1) or m.group(2)):
        return None
    n = numbers(m.group(3))[0]
    lasting = split_lasting(ev.all_events())[0]
    if q.window:
        lasting = touching(lasting, q.window.start_s, q.window.end_s)
    kinds = sorted({e["type"] for e in lasting})
    holds = len(kinds) > n if m.group(2) and m.group(2).lower() != "at least" else \
        len(kinds) >= n if m.group(2) else len(kinds) == n
    text = (f"{'Yes' if holds else 'No'}: {len(kinds)} kind(s) of defect "
            + (f"({', '.join(type_name(k) for k in kinds)})" if kinds else "") + ": "
            + spans_text(lasting) + "." if lasting else
            f"{'Yes' if holds else 'No'}: no lasting defect was found.")
    return {"answer": text, "choice": yes_no(q, holds), "segments": segments(lasting),
            "confidence": 0.7}


_ONLY = re.compile(r"\b(?:only|solely|exclusively|confined to|limited to|restricted to)\b", re.I)


def also_outside(q: Question, lasting: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """For "is the X only in <window>?": the lasting X events lying mostly outside the
    window (none when the question says no "only", or names no window or type)."""
    w = q.window
    if w is None or q.type is None or q.absent or not _ONLY.search(q.text):
        return []
    def outside_share(e: dict[str, Any]) -> float:
        inter = max(0.0, min(e["end_s"], w.end_s) - max(e["start_s"], w.start_s))
        return 1.0 - inter / max(e["end_s"] - e["start_s"], 1e-6)
    return [e for e in lasting if e["type"] in (q.types[0].accepts if q.types else (q.type,))
            and outside_share(e) > 0.5]


# The level a yes/no question claims, in words said of a defect's strength only ("low" is not
# one: "the resolution looks low" names the defect, not its level).
_LEVEL_CLAIM = re.compile(r"\b(?:(mild|slight|minor|subtle|faint|barely (?:noticeable|visible)|"
                          r"hardly (?:noticeable|visible)|negligible|minimal)|(moderate|medium)|"
                          r"(severe|serious|strong|heavy|major|extreme|bad))\b", re.I)


# "Is there ...?", "any ...?": a question whether a defect is there at all
_EXISTS = re.compile(r"\b(?:is|are)\s+there\b|\bany\b|\bdo\s+you\s+see\b|\bcan\s+you\s+see\b",
                     re.I)


def level_claim(q: Question, evs: list[dict[str, Any]]) -> tuple[str, bool] | None:
    """For a yes/no question that claims a level ("is the noise mild?", "would you call the
    dark part severe?"): the verdict on the measured level in words, and whether the claim
    holds; None when it claims none."""
    if not asks_whether(q.text) or q.type is None or (
            q.options and not all(o.yes or o.no for o in q.options)):
        return None
    span = asking_span(q.text)
    if span and any(span[0] <= t.pos < span[1] for t in q.types):
        # "I feel it stutters heavily near the end. Does it stutter in the second half?":
        # the asking sentence names the defect itself; the context's level is no claim
        m = _LEVEL_CLAIM.search(q.text, span[0], span[1])
    else:
        m = _LEVEL_CLAIM.search(q.text)
    if not m:
        return None
    if m.group(1) and _EXISTS.search(q.text) and q.types and m.start() < q.types[0].pos:
        # "is there mild compression in the second half?": whether it is there at all (a
        # stronger one is there too); "is there heavy compression?" still claims its level
        return None
    worst = max(e["severity"] for e in evs)
    word = level_word(worst, events_level(evs))
    want = LEVEL_NAMES[next(i for i, g in enumerate(m.groups(), 1) if g)]
    name = what(q)
    holds = word == want
    return (f"{'Yes' if holds else 'No'}: the {name} {agree(name, 'is', 'are')} {word} "
            f"(worst severity {worst:.2f})" + ("" if holds else f", not {want}") + ": "
            + "; ".join(ev_line(e) for e in evs[:5])), holds


def coder_note(q: Question, ev: Evidence, duration: float) -> str:
    """For a blur question answered "none": the soft stretches the index reports as the
    coder's (compression whose softness came with macroblock kinks), which a viewer may still
    call blurry; else ""."""
    if q.type != "blur":
        return ""
    lo, hi = q.scope(duration)
    coded = [e for e in touching(ev.all_events(), lo, hi)
             if str((e.get("evidence") or {}).get("recoded_from", "")).startswith("blur/")]
    if not coded:
        return ""
    return (" The picture is soft where a low bitrate coded it, which is reported as "
            "compression, not blur (its macroblock kinks rise, where a blur lowers them): "
            + "; ".join(ev_line(e) for e in coded[:4]) + ".")


# Words that make what follows them the reference of a comparison, not its subject:
# "compared with the first half, is the second half noisier?" claims the second is worse
# (a window's own words may begin with the preposition: "compared | with the start").
_REFERENCE_BEFORE = re.compile(r"\b(?:compared(?:\s+(?:with|to))?|"
                               r"in\s+comparison(?:\s+(?:with|to))?|relative(?:\s+to)?|than|"
                               r"versus|vs\.?|against|unlike)\s+"
                               r"(?:(?:the|that|this|in|at|during)\s+){0,2}$", re.I)


def reference_first(text: str, first_pos: int) -> bool:
    """Whether the first-named of two things compared is the reference ("compared with the
    first half, ...") and the claim is about the second."""
    return bool(_REFERENCE_BEFORE.search(text[:max(0, first_pos)]))


def claim_subject(q: Question, types: list[str]) -> str:
    """Of two named types, the one a yes/no comparison claims something of: the first named,
    unless that one is the reference ("compared with the blur, is the noise worse?")."""
    first = min((m for m in q.types if m.type == types[0]), key=lambda m: m.pos, default=None)
    if len(types) >= 2 and first is not None and reference_first(q.text, first.pos):
        return types[1]
    return types[0]
