"""Open answers, options matched claim by claim, and honest replies to questions the planner
cannot read: out of scope, or not understood (then the strongest measured evidence)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from agent.brains.local.common import (
    agree,
    ev_line,
    merged_spans,
    score_note,
    segments,
    timeline_text,
    type_load,
    what,
    where,
)
from agent.brains.local.course import course, overall, trend
from agent.brains.local.evidence import Evidence, found, nth_stretch, touching, type_hit
from agent.brains.local.levels import events_level, grade, level_word, stretch_level
from agent.brains.stretches import stretch_types, stretches
from agent.context import RunContext
from agent.distortions import TYPE_NAMES, why
from agent.language import language_name
from agent.questions import Question
from agent.timefmt import hms
from agent.vocabulary import vocabulary

STRONGEST = 3  # stretches reported when the question was not understood


def out_of_scope_text(question: str = "") -> str:
    """What the planner can measure, and that this question is about something else (a
    picture fault it has no measure of, named, when the question names one)."""
    names = ", ".join(TYPE_NAMES.values())
    fault = vocabulary().scope["unmeasured"].search(question)
    if fault:
        return (f"'{fault.group(0)}' is a picture fault I have no measure of (I measure "
                f"{names}), so I cannot tell from the video's measurements whether it is "
                "there.")
    return (f"I can only measure picture quality ({names}); this question asks about "
            "something I cannot measure, so I cannot answer it from the video's measurements.")


def strongest_text(evs: list[dict[str, Any]], span: str) -> tuple[str, list[dict[str, Any]]]:
    """The strongest degraded stretches in words (worst level, then longest), and them."""
    found_ = stretches(evs) or []
    top = sorted(found_, key=lambda s: (stretch_level(s), s.severity, s.duration_s),
                 reverse=True)[:STRONGEST]
    top = sorted(top, key=lambda s: s.start_s)
    if not top:
        return f"no quality event was detected {span}.", []
    return (f"{len(found_)} degraded stretch(es) {span}; the strongest: "
            + "; ".join(ev_line(s.to_event()) for s in top) + ".", [s.to_event() for s in top])


def not_understood(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """Say plainly that the question was not understood, then report the strongest evidence."""
    if q.language in vocabulary().supported:
        why_not = ("none of its words names a picture-quality property or a question I know "
                   "(I know blur, noise, compression, exposure, colour, flicker, frame drops, "
                   "stutter, freezes, shake, corruption and interlacing, and when, whether, "
                   "which, how severe, compared, over time, in what order)")
    else:
        langs = ", ".join(language_name(c) for c in vocabulary().supported)
        why_not = f"it seems to be written in {language_name(q.language)}; I read {langs}"
    evs = ev.all_events()
    span = where(q, ctx.duration_s)
    if q.window:
        evs = touching(evs, q.window.start_s, q.window.end_s)
    text, top = strongest_text(evs, span)
    return {"answer": f"I did not understand the question: {why_not}. Measured anyway, "
                      f"the video shows {text}", "choice": None, "segments": segments(top),
            "confidence": 0.1}


def unknown_note(q: Question) -> str:
    """A note naming the question's words that are no known quality term."""
    terms = ", ".join(f"'{w}'" for w in q.unknown)
    return (f"I do not know {terms} as a picture-quality term, so I did not guess a "
            "distortion type: this answer comes from the strongest measured evidence. ")


def open_answer(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """Explain the degradations found: what, when, how bad, and why they hurt."""
    evs, data = found(q, ev, ctx.duration_s)
    if not evs and not q.type and q.window is None:  # (a window found clean stays clean)
        evs = ev.all_events()
    evs = nth_stretch(q, evs) or evs  # "describe the first problem": that one
    span = where(q, ctx.duration_s)
    if not evs:
        text = (f"No {what(q)} was detected {span}{score_note(data, q.type)}: the "
                "measurements stay at the video's own baseline, so the picture quality "
                "there is not degraded by it.")
        return {"answer": text, "choice": None, "confidence": 0.5}
    load = type_load(evs)
    parts = []
    for t in sorted(load, key=load.get, reverse=True)[:3]:
        these = [e for e in evs if e["type"] == t]
        worst = max(e["severity"] for e in these)
        word = level_word(worst, events_level(these))
        name = TYPE_NAMES.get(t, t)
        parts.append(
            f"{name.capitalize()} ({word}, worst severity {worst:.2f}) "
            f"{agree(name, 'appears', 'appear')} " + "; ".join(
                f"from {hms(a)} to {hms(b)}" for a, b in _spans(these)[:4])
            + f". {agree(name, 'It hurts', 'They hurt')} the perceived quality because "
            f"{why(t, _main_subtype(these))}."
        )
    spans = _spans(evs)  # two detectors on one stretch count once
    total = sum(b - a for a, b in spans)
    parts.append(f"In all, {len(spans)} degraded span(s) cover {total:.1f} s of "
                 f"{hms(ctx.duration_s)}; the rest of the video stays at its baseline.")
    zoom = ev.get("zoom_in")
    if zoom:
        parts.append(f"A close look measured: {zoom.get('summary', '')}.")
    if _WHOLE.search(q.text) and not q.types and not q.window:
        # "describe the overall quality and how it develops": the grade and the course first
        bare = replace(q, options=[], claim=None)
        parts = [overall(bare, ev, ctx)["answer"], trend(bare, ev, ctx)["answer"], *parts]
    return {"answer": " ".join(parts), "choice": None, "segments": segments(evs),
            "confidence": 0.6}


# An open question about the whole video and its course ("the overall picture quality ...
# over time")
_WHOLE = re.compile(r"\b(?:overall|over time|as a whole|whole video|entire video|in general|"
                    r"from start to finish|how (?:it|the quality) (?:develops|evolves|changes))\b",
                    re.I)


def _spans(evs: list[dict[str, Any]]) -> list[tuple[float, float]]:
    """The events' spans, overlapping ones joined, in time order."""
    return merged_spans((e["start_s"], e["end_s"]) for e in evs)


def _main_subtype(evs: list[dict[str, Any]]) -> str:
    """The subtype of most of the events' time (for the reason a defect hurts)."""
    load: dict[str, float] = {}
    for e in evs:
        load[e.get("subtype") or ""] = load.get(e.get("subtype") or "", 0.0) + \
            e["end_s"] - e["start_s"]
    return max(load, key=load.get) if load else ""


def generic(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """Match each option's claims (types, times, trend, level, yes/no) to the facts."""
    evs = ev.all_events()
    if q.window:
        evs = touching(evs, q.window.start_s, q.window.end_s)
    found_ = stretches(evs)
    kind, _, _ = course(ev, ctx)
    trend = "stable" if kind == "occasional" else kind
    g, _ = grade(found_, ctx.duration_s)
    types = set(stretch_types(found_))
    worst = max((stretch_level(s) for s in found_), default=0.0)
    best, best_score = None, -1e9
    for o in q.options:
        s = 0.0
        for m in o.types:
            s += 1.0 if type_hit(m, types) else -1.0
        for w in o.windows:
            hit = any(x.end_s > w.start_s and x.start_s < w.end_s for x in found_)
            s += 0.7 if hit else -0.7
        if o.trend:
            s += 1.0 if o.trend == trend else -0.5
        if o.level is not None:
            s += 1.0 - min(abs(o.level - worst), 2.0)
        if o.grade is not None:
            s += 1.0 - min(abs(o.grade - g), 2.0) / 1.5
        if o.none or (o.no and not o.types):
            s += 1.5 if not found_ else -1.5
        elif o.yes:
            s += 0.8 if found_ else -0.8
        if s > best_score:
            best, best_score = o.letter, s
    summary = timeline_text([x.to_event() for x in found_])
    return {"answer": summary, "choice": best if q.options else None,
            "segments": segments([x.to_event() for x in found_]), "confidence": 0.35,
            "claims_met": best_score > 0}


def signal_guess(q: Question, ev: Evidence) -> tuple[str, str, float] | None:
    """(letter, type, score): the option naming the type whose signal is strongest in the
    windows measured so far (type scores of measure_window / compare_windows), when no
    option's claim was found as an event; None when no option's type was measured."""
    scores: dict[str, float] = {}
    for name, _, data in ev.calls:
        if not data or name not in ("measure_window", "compare_windows"):
            continue
        for st in [data, *data.get("windows", [])]:
            for t, v in (st.get("type_scores") or {}).items():
                if isinstance(v, int | float):
                    scores[t] = max(scores.get(t, 0.0), float(v))
    best = None
    for o in q.options:
        for m in o.types:
            for t in m.accepts:
                if scores.get(t, 0.0) > (best[2] if best else 0.0):
                    best = (o.letter, t, scores[t])
    return best
