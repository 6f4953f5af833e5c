"""The tool results of a run, and the events that answer for the type a question names.

A question's words may accept more than one event type: "macroblocking" is what both the
codec and decoder damage look like (`also`), a question about a frozen picture takes stutter
events when the index has no freeze (`fallback`), and over-sharpening is measured by the
noise detectors (READ_AS). Events of such a stand-in type are relabelled as the named type,
with "measured as <type>" as their subtype.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage

from agent.brains.stretches import brief_limit, split_lasting, stretches
from agent.questions import Mention, Question, Window, part_word
from agent.trace import text_of
from agent.vocabulary import vocabulary

VOCAB = vocabulary()

# An event is "in" a window when it fills at least this share of the window, or has at least
# this share of itself inside: an event that only runs over the window's edge is not in it.
IN_WINDOW_SHARE = 0.3
IN_EVENT_SHARE = 1 / 3
# What one degradation is measured as by another type's detector: over-sharpening
# multiplies the grain already in the picture, so the noise detectors read it (9 of the 12
# sharpening needles of four NDQA dev sets; the sharpening detectors found none of them).
READ_AS: dict[str, tuple[str, ...]] = {"sharpening": ("noise",)}
MEASURED = "measured as "


class Evidence:
    """The tool results of a run so far, by tool, with lookups the answers need."""

    def __init__(self, messages: Sequence[BaseMessage]) -> None:
        args_by_id: dict[str, tuple[str, dict]] = {}
        for m in messages:
            if isinstance(m, AIMessage):
                for c in m.tool_calls or []:
                    args_by_id[c.get("id") or ""] = (c["name"], dict(c.get("args") or {}))
        self.calls: list[tuple[str, dict[str, Any], dict[str, Any] | None]] = []
        for m in messages:
            if isinstance(m, ToolMessage):
                name, args = args_by_id.get(m.tool_call_id, (m.name or "", {}))
                data = None
                if getattr(m, "status", "success") != "error":
                    try:
                        data = json.loads(text_of(m.content))
                    except ValueError:
                        data = None
                self.calls.append((name, args, data))
        # Types whose events stand for another type the question names (see read_as).
        self.relabel: dict[str, str] = {}
        # Types the question sets aside ("apart from the noise, ...?"): their events unseen.
        self.hidden: frozenset[str] = frozenset()

    def shown(self, evs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """The events not of a type the question sets aside."""
        return [e for e in evs if e.get("type") not in self.hidden]

    def done(self, name: str, args: dict[str, Any]) -> bool:
        """Whether this call was made already (succeeded or failed)."""
        return any(n == name and a == args for n, a, _ in self.calls)

    def get(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any] | None:
        """The result of the first such call (its events of hidden types left out)."""
        for n, a, d in self.calls:
            if n == name and (args is None or a == args) and d is not None:
                if self.hidden and isinstance(d.get("events"), list):
                    d = {**d, "events": self.shown(d["events"])}
                return d
        return None

    @property
    def overview(self) -> dict[str, Any]:
        return self.get("overview") or {}

    def raw_events(self) -> list[dict[str, Any]]:
        """Every event seen (overview and find_events), deduplicated, as the index has them."""
        seen: dict[tuple, dict[str, Any]] = {}
        for n, _, d in self.calls:
            if d and n in ("overview", "find_events"):
                for e in self.shown(d.get("events", [])):
                    seen.setdefault((e["type"], e["start_s"], e["end_s"]), e)
        return sorted(seen.values(), key=lambda e: (e["start_s"], e["type"]))

    def all_events(self) -> list[dict[str, Any]]:
        """Every event seen, deduplicated, by start time (stand-in types relabelled)."""
        return sorted(self.relabelled(self.raw_events()), key=lambda e: (e["start_s"], e["type"]))

    def relabelled(self, evs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """The events, those of a relabelled type under the type they stand for."""
        return [{**e, "type": self.relabel[e["type"]],
                 "subtype": f"{MEASURED}{e['type']}", "measured_subtype": e.get("subtype")}
                if e["type"] in self.relabel
                and (e["type"], e.get("subtype")) not in _NO_STAND_IN else e
                for e in evs]


# Events of a type that stands in for another whose look they never have: a hue shift or a
# picture made more colourful (a warm cast measured as oversaturation) is not "washed out" or
# "faded" (exposure words that accept colour events for lost saturation)
_NO_STAND_IN = {("colour", "hue shift"), ("colour", "oversaturation")}


def named_mentions(q: Question) -> list[Mention]:
    """Every distortion the question or its options name."""
    return [*q.types, *(m for o in q.options for m in o.types)]


def read_as(q: Question, evs: Sequence[dict[str, Any]]) -> dict[str, str]:
    """{measured type: named type}: events of a type nothing names that answer for a named
    one: what it is measured as (READ_AS), what its words also accept, and, when it has no
    event of its own, its fallback types."""
    mentions = named_mentions(q)
    named = {m.type for m in mentions}
    have = {e["type"] for e in evs}
    out = {other: t for t in sorted(named) for other in READ_AS.get(t, ())
           if other in have and other not in named}
    for m in mentions:
        stand_ins = list(m.also) + ([] if set(m.accepts) & have else list(m.fallback))
        for other in stand_ins:
            if other in have and other not in named:
                out.setdefault(other, m.type)
    return out


def touching(evs: Sequence[dict[str, Any]], start_s: float, end_s: float) -> list[dict[str, Any]]:
    """The events that overlap [start_s, end_s) at all."""
    return [e for e in evs if e["end_s"] > start_s and e["start_s"] < end_s]


def in_window(e: dict[str, Any], w: Window) -> bool:
    """Whether an event is in a window: long enough there, and filling a fair share of the
    window or with a fair share of itself inside (not only running over its edge)."""
    inside = min(e["end_s"], w.end_s) - max(e["start_s"], w.start_s)
    length = max(e["end_s"] - e["start_s"], 1e-6)
    if inside < min(brief_limit(e["type"], e.get("subtype")), 0.5 * length):
        return False
    return inside >= IN_WINDOW_SHARE * (w.end_s - w.start_s) or inside >= IN_EVENT_SHARE * length


def near_vague_part(q: Question, ev: Evidence) -> list[dict[str, Any]]:
    """For a question about a part named in words only ("at the end") or a moment said with
    a hedge ("about a minute and a half in"): the lasting events of its type anywhere that
    count as in that part or near that moment (see in_question_window), else []."""
    if q.window is None or not (vague_part(q.window) or hedged(q)):
        return []
    evs = ev.relabelled(ev.all_events())
    if q.types:
        evs = fitting(q.types[0], [e for e in evs if e["type"] in q.types[0].accepts])
    return in_question_window(q, split_lasting(evs)[0])


# "near the one-minute mark", "about a minute and a half in", "around the middle": a moment or
# a part said with a hedge reaches this far either side (people place what they saw loosely:
# a probe's viewers put 5-12 s events 2-8 s off)
HEDGE_S = 10.0
_HEDGE_BEFORE = re.compile(r"\b(?:around|about|near|nearly|roughly|approximately|approx\.?|circa|"
                           r"ca\.|somewhere\s+around|close\s+to)\s+(?:the\s+)?$", re.I)
_HEDGE_LABEL = re.compile(r"^(?:around|about|near|roughly|approximately)\b", re.I)


def hedged(q: Question) -> bool:
    """Whether the question's window is a moment or part said loosely ("around 1:30",
    "about a minute in", "near the end", "around the middle")."""
    w = q.window
    if w is None:
        return False
    return bool(_HEDGE_LABEL.match(w.label) or _HEDGE_BEFORE.search(q.text[max(0, w.pos - 30):
                                                                          w.pos]))


def vague_part(w: Window) -> str | None:
    """The part of the video a window named in words only is ("at the end": "end")."""
    return part_word(w.label) if not re.search(r"\d", w.label) else None


def in_question_window(q: Question, evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events a yes/no question's window holds: at an instant, those covering it (with a
    1-s margin, HEDGE_S when said loosely); over a window, those in it, not only running over
    its edge."""
    if q.window and q.window.point:
        mid = 0.5 * (q.window.start_s + q.window.end_s)
        margin = HEDGE_S if hedged(q) else 1.0
        return [e for e in evs if e["start_s"] - margin <= mid <= e["end_s"] + margin]
    if q.window:
        # "at the beginning" is vague: a defect that starts in it, or within as long again
        # after it, is there (one that ends in or just before "the end"; one that touches
        # "the middle"), however little of it lies inside
        w = q.window
        part = vague_part(w)
        span = w.end_s - w.start_s
        reach = HEDGE_S if hedged(q) else 0.0  # "around the middle": loosely
        edge = (lambda e: w.start_s <= e["start_s"] < w.end_s + span) if part == "start" \
            else (lambda e: w.start_s - span < e["end_s"] <= w.end_s) if part == "end" \
            else (lambda e: e["end_s"] > w.start_s - reach and e["start_s"] < w.end_s + reach) \
            if part == "middle" else (lambda e: False)
        return [e for e in evs if in_window(e, q.window) or edge(e)]
    return list(evs)


def window_args(w: Any, duration: float, always: bool = False) -> dict[str, float]:
    """start_s/end_s tool arguments of a window (the whole video when `always` and none)."""
    if w is None:
        return {"start_s": 0.0, "end_s": round(duration, 3)} if always else {}
    return {"start_s": round(w.start_s, 3), "end_s": round(w.end_s, 3)}


# Words that name a colour cast specifically (not colour problems in general), in the
# languages of the vocabulary.
_HUE_WORDS = re.compile(r"\b(hue|cast|tint|tinted)\b|farbstich|farbton|teinte|dominante|matiz|"
                        r"偏色|色偏|色调|色相", re.I)


# Of those, the words of a cast or tint (what ffmpeg's colorbalance makes), not of a turned hue.
_CAST_WORDS = re.compile(r"\b(?:casts?|tint|tints|tinted|tinge|tinged)\b|farbstich|dominante|"
                         r"偏色|色偏", re.I)


_OPPOSITE = {"too dark": ("too bright",), "too bright": ("too dark",)}
BLACK = "black frames"


def fits_subtype(m: Mention, e: dict[str, Any]) -> bool:
    """Whether an event can be what a mention names: the two colour detectors measure
    different things (a cast turns the hue, saturation makes colours vivid or faded), so a
    question about one is not answered by the other; other types stay whole (one needle
    often shows on several of their detectors)."""
    if m.type == "exposure" and e.get("type") == "exposure":
        # "does it get darker?" is not answered by a picture made too bright, nor the reverse;
        # "brightness" alone names no direction (its vocabulary group has no subtype); "black
        # frames" only by the picture dropping to black
        if m.subtype == BLACK:
            return e.get("subtype") == BLACK
        return e.get("subtype") not in _OPPOSITE.get(m.subtype, ())
    if m.type != "colour" or e.get("type") != "colour" or not e.get("subtype"):
        return True
    if m.subtype == "saturation":  # (or the twins measured the saturation change there too)
        return "saturation" in e["subtype"] or any(
            "saturation" in str(s) for s in e.get("also_measured", ()))
    if _HUE_WORDS.search(m.text):
        return e["subtype"] == "hue shift"
    return True


def fitting(m: Mention, evs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that can be what a mention names (`fits_subtype`). A colour cast or tint
    with no hue shift among them takes their other colour events: a cast that adds one colour
    raises the chroma's magnitude before it turns its angle (ffmpeg's colorbalance on a real
    clip reads as oversaturation), and "no colour problem" would be false."""
    evs = list(evs)
    kept = [e for e in evs if fits_subtype(m, e)]
    if m.type == "colour" and m.subtype != "saturation" and _CAST_WORDS.search(m.text) \
            and not any(e.get("type") == "colour" for e in kept):
        kept += [e for e in evs if e.get("type") == "colour" and e not in kept]
    return kept


def other_kind(q: Question, ev: Evidence, duration: float) -> list[dict[str, Any]]:
    """The lasting events of the named type in the question's span that are of another kind
    than the one it names ("the hue shift" when the colour event is oversaturation)."""
    if not q.types or not q.types[0].subtype:
        return []
    m = q.types[0]
    lasting, _ = split_lasting(ev.relabelled(ev.all_events()))
    return [e for e in touching(lasting, *q.scope(duration))
            if e["type"] in m.accepts and not fits_subtype(m, e)]


def found(q: Question, ev: Evidence, duration: float) -> tuple[list[dict], dict]:
    """Events of the question's type (and of the types standing for it) in its window, and
    the find_events result."""
    args = {"type": q.type or "any", **window_args(q.window, duration)}
    data = ev.get("find_events", args) or ev.get("find_events") or {}
    evs = data.get("events")
    if evs is None:
        evs = [e for e in ev.all_events() if not q.type or e["type"] == q.type]
    evs = ev.relabelled(evs)
    if q.type and data.get("type") not in (None, q.type):
        # answered from a call for another type (or any): only the question's own types
        accepts = q.types[0].accepts if q.types else (q.type,)
        evs = [e for e in evs if e["type"] in accepts]
    if q.type in ev.relabel.values():
        own = any(e["type"] == q.type for e in evs)
        also = {f"{MEASURED}{t}" for t in q.types[0].also}
        lo, hi = q.scope(duration)
        evs += [e for e in touching(ev.all_events(), lo, hi) if e["type"] == q.type
                and str(e.get("subtype", "")).startswith(MEASURED)
                and (not own or e["subtype"] in also)]
    if q.types:
        evs = fitting(q.types[0], evs)
    also = set(q.types[0].also) & {m.type for m in q.types[1:]} if q.types else set()
    if not evs and also:  # "ruckelnde Wiedergabe (zu niedrige Bildrate)": one defect, two names
        lo, hi = q.scope(duration)
        evs = [e for e in touching(ev.all_events(), lo, hi) if e["type"] in also]
    return list(evs), data


def type_hit(m: Mention, types: Iterable[str]) -> float:
    """How well a set of measured types answers a mention: 1 for a type it accepts, 0.8 for
    one of its fallbacks only, else 0."""
    present = set(types)
    if present & set(m.accepts):
        return 1.0
    return 0.8 if present & set(m.fallback) else 0.0


def same_defect_types(mentions: Sequence[Mention]) -> list[str]:
    """The type of each mention, a fallback name of an earlier mention's type given as that
    type ("Stutter (freezes)": stutter, stutter; one distortion, not two)."""
    out: list[str] = []
    for m in mentions:
        out.append(next((t for t in out if m.type in {t, *VOCAB.fallback(t)} or
                         t in m.fallback), m.type))
    return out


# "the first problem", "the second one", "the last defect": a stretch by its place in time
# when no distortion type is named (a named one is ranked among its own: Question.ranks)
_NTH_STRETCH = re.compile(r"\bthe\s+(first|second|third|fourth|fifth|last|final|latest|"
                          r"earliest)\s+(?:problem|defect|issue|distortion|artifact|artefact|"
                          r"degradation|impairment|glitch|fault|flaw|one)s?\b", re.I)
_NTH = {"first": 1, "earliest": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
        "last": -1, "final": -1, "latest": -1}


def nth_stretch(q: Question, evs: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The events of the stretch "the second problem" names (stretches in time order, events
    firing together one stretch); None when the question ranks none or there is no such."""
    m = _NTH_STRETCH.search(q.text)
    if not m or q.types or q.window:
        return None
    found_ = stretches(evs)
    k = _NTH[m.group(1).lower()]
    if not found_ or k > len(found_):
        return None
    return list(found_[k - 1 if k > 0 else -1].events)
