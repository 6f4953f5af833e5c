"""The `local` brain: a deterministic planner that needs no model and no network.

Each turn it re-reads the question (and options) and the tool results so far, asks for the
next measurement it needs, through the graph like a model would, and finally maps the
measured evidence to an answer with the module of the question's family: an option letter for
multiple-choice questions, time segments for "when" questions, and words with times and
numbers for open ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from agent.brains.local import compare, course, explain, identify, locate, order, severity
from agent.brains.local.common import option_windows
from agent.brains.local.evidence import Evidence, read_as, window_args
from agent.brains.local.facts import facts_answer
from agent.brains.local.several import defect_windows, distinct_defects
from agent.brains.local.tints import tint_reading
from agent.brains.local.totals import aggregate
from agent.clauses import split_question
from agent.context import RunContext
from agent.distortions import TYPE_NAMES
from agent.questions import Question, parse_question
from agent.time_phrases import frames_as_times
from agent.timefmt import hms
from agent.times import unit_windows, which_parts
from agent.trace import text_of
from tools.timeline import equal_segments

Handler = Callable[[Question, Evidence, RunContext], dict[str, Any]]

# The module that answers each question kind.
HANDLERS: dict[str, Handler] = {
    "localization": locate.localization, "detection": locate.detection,
    "classification": identify.classification, "dominant_factor": identify.dominant_factor,
    "severity": severity.severity, "comparison": compare.comparison,
    "temporal_relation": order.temporal_relation, "trend": course.trend,
    "stability": course.stability, "overall": course.overall,
    "cumulative_effect": aggregate, "integration": aggregate, "open": explain.open_answer,
    "not_understood": explain.not_understood, "facts": facts_answer,
}
# Kinds that ask about the named type itself (find it, then look closer).
_TYPED = ("localization", "detection", "severity", "open")


class LocalBrain:
    """Deterministic planner over the toolbox: question -> tool calls -> answer."""

    name = "local"
    vision = False

    def __init__(self, **_: Any) -> None:
        pass

    def step(self, messages: list[BaseMessage], tools: list[dict], ctx: RunContext) -> AIMessage:
        """The next tool call, or `finish` once the evidence is in (or the budget is out)."""
        question = ctx.question or question_text(messages)
        ev = Evidence(messages)
        # "at frame 3000": a moment at the video's frame rate, once the overview gives it
        question = frames_as_times(question, (ev.overview.get("video") or {}).get("fps"))
        spans = scenes(ev, ctx.duration_s)
        whole = parse_question(question, ctx.options, ctx.duration_s, spans)
        parts = split_question(whole, ctx.options, ctx.duration_s, spans)
        available = {t.get("function", {}).get("name") for t in tools}
        nudged = isinstance(messages[-1], HumanMessage) and len(messages) > 2
        for q in parts if not nudged else []:
            if q.kind == "out_of_scope":
                continue
            ev.hidden = frozenset(q.besides)
            ev.relabel = read_as(q, ev.raw_events())
            for name, args in self.plan(q, ev, ctx.duration_s):
                if name in available and not ev.done(name, args):
                    return call(name, args, len(ev.calls) + 1)
        return call("finish", self.decide_parts(parts, ev, ctx), len(ev.calls) + 1)

    def decide_parts(self, parts: list[Question], ev: Evidence,
                     ctx: RunContext) -> dict[str, Any]:
        """finish() arguments for a question of one or more parts (agent/clauses): each
        part answered on its own evidence, the answers numbered in the order asked."""
        outs = []
        for q in parts:
            ev.hidden = frozenset(q.besides)
            ev.relabel = read_as(q, ev.raw_events())
            outs.append(self.decide(q, ev, ctx))
        return outs[0] if len(outs) == 1 else joined(outs)

    def plan(self, q: Question, ev: Evidence, duration: float) -> list[tuple[str, dict]]:
        """The tool calls this question needs, in order (calls already made are skipped)."""
        steps: list[tuple[str, dict]] = [("overview", {})]
        if not ev.overview:
            return steps
        if q.kind == "facts":  # the file's own facts: the overview has them
            return steps
        t = q.type
        # the windows weighed for every type the question's word accepts ("stutter" is seen
        # as repeated frames or a frame-rate drop)
        weigh = ",".join(q.types[0].accepts) if q.types and len(q.types[0].accepts) > 1 \
            else t or "any"
        win = window_args(q.window, duration)
        opt_wins = option_windows(q, duration)
        k = q.kind
        if k in _TYPED:
            steps.append(("find_events", {"type": t or "any", **win}))
            if k == "localization" and not q.options and len(distinct_defects(q)) >= 2:
                # "when do the noise and the blur occur?": each over its own window
                steps += [("find_events", {"type": m.type, **window_args(
                    wins[0] if wins else None, duration)}) for m, wins in defect_windows(q)]
            steps += stand_in_calls(q, ev, win)
            if k == "detection" and q.window:
                steps.append(("measure_window", window_args(q.window, duration, True)))
            if k == "localization" and len(opt_wins) >= 2:
                steps.append(("compare_windows", {"windows": opt_wins, "type": weigh}))
            if k == "open":
                main = main_event(ev.get("find_events"), t)
                if main:
                    steps.append(("zoom_in", zoom_args(main, duration)))
        elif k in ("classification", "not_understood"):
            steps.append(("find_events", {"type": "any", **win}))
            if q.window and k == "classification":
                steps.append(("measure_window", window_args(q.window, duration, True)))
        elif k == "comparison":
            pairs = compare.typed_windows(q)
            if pairs and len(opt_wins) < 2:  # "is the X at A worse than the Y at B?"
                steps += [("find_events", compare.typed_args(m, w, duration)) for m, w in pairs]
            wins = opt_wins if len(opt_wins) >= 2 else [
                [w.start_s, w.end_s] for w in q.windows] if len(q.windows) >= 2 else []
            if not wins and not any(o.types for o in q.options):  # "which minute ...?"
                wins = [list(w) for w in unit_windows(q.text, duration)
                        or equal_segments(duration, which_parts(q.text) or 2)]
            if len(wins) >= 2:
                steps.append(("compare_windows", {"windows": wins[:12], "type": weigh}))
            steps.append(("find_events", {"type": "any", **win}))
        elif k == "temporal_relation":
            steps.append(("find_events", {"type": "any", **win}))
            if len(opt_wins) >= 2:
                steps.append(("compare_windows", {"windows": opt_wins, "type": weigh}))
            if ev.get("find_events"):  # a type asked about but not found: where is it likeliest?
                steps += [("compare_windows", order.probe_args(m, q, duration))
                          for m in order.missing_types(q, ev.all_events())]
        else:  # cumulative_effect, integration, stability, dominant_factor, trend, overall
            steps.append(("find_events", {"type": "any", **win}))
            wins = opt_wins if len(opt_wins) >= 2 and k in ("integration", "cumulative_effect") \
                else [[w.start_s, w.end_s] for w in q.windows] if len(q.windows) >= 2 else None
            if wins is None:
                a, b = q.scope(duration)
                n = 6 if b - a >= 120 else 4
                wins = [[round(a + (b - a) * i / n, 3), round(a + (b - a) * (i + 1) / n, 3)]
                        for i in range(n)]
            steps.append(("compare_windows", {"windows": wins[:12], "type": "any"}))
        return steps

    def decide(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        """finish() arguments from the question and the evidence gathered."""
        if q.kind == "out_of_scope":
            return {"answer": explain.out_of_scope_text(q.text), "choice": None, "segments": [],
                    "confidence": 0.0}
        if not ev.overview:
            return {"answer": "The video could not be measured, so there is no evidence to "
                              "answer from.", "choice": None, "segments": [], "confidence": 0.0}
        out = HANDLERS.get(q.kind, explain.generic)(q, ev, ctx)
        tint = tint_reading(q, ev, ctx.duration_s)
        if tint:  # "what colour is the tint?": the measured direction, and the option naming it
            out = {**out, "answer": f"{tint['sentence']} {out['answer']}",
                   **({"choice": tint["choice"]} if tint["choice"] else {})}
        if q.besides:  # "apart from the noise, ...?": say what was set aside
            names = " and the ".join(TYPE_NAMES.get(t, t) for t in q.besides)
            out = {**out, "answer": f"Setting aside the {names}: {out['answer']}"}
        if q.options and out.get("choice") is None and q.kind != "not_understood":
            # No answer module chose: the option whose claims the evidence meets best; when
            # none is met, a guess, said as one (from the strongest signal, if measured)
            fallback = explain.generic(q, ev, ctx)
            out["choice"] = fallback["choice"]
            out["confidence"] = min(out.get("confidence", 0.3), 0.3)
            guess = None if fallback["claims_met"] else explain.signal_guess(q, ev)
            if guess:
                out["choice"] = guess[0]
                out["answer"] += (f" Option {guess[0]} is a guess: no option's claim was found "
                                  f"as an event, and its {TYPE_NAMES.get(guess[1], guess[1])} "
                                  f"signal is the strongest measured ({guess[2]:.1f}x the "
                                  "smallest step a detector reports).")
            elif not fallback["claims_met"] and out["choice"]:
                out["answer"] += (f" Option {out['choice']} is a guess: no option's claim was "
                                  "measured.")
                out["confidence"] = min(out["confidence"], 0.15)
        out.pop("claims_met", None)
        past = [w for w in q.windows if ctx.duration_s > 0 and w.start_s >= ctx.duration_s - 1e-6]
        if past:  # "at 3:30" in a 3-minute video: said, not silently read as its last instant
            out["answer"] = (f"The video is only {hms(ctx.duration_s)} long: "
                             f"{' and '.join(repr(w.label) for w in past)} lies past its end. "
                             + out["answer"])
        if q.unknown:
            out["answer"] = explain.unknown_note(q) + out["answer"]
        if q.corrected:  # "wen does it get blury?": say how it was read
            out["answer"] = ("(Read " + ", ".join(f"'{a}' as '{b}'" for a, b in q.corrected)
                             + ".) " + out["answer"])
        out.setdefault("segments", [])
        out["confidence"] = round(float(min(max(out.get("confidence", 0.5), 0.0), 1.0)), 3)
        return out


def joined(outs: list[dict[str, Any]]) -> dict[str, Any]:
    """One answer from the answers to a question's parts: texts numbered, segments in time
    order without repeats, the least confidence."""
    segs: list[dict[str, Any]] = []
    for o in outs:
        segs += [s for s in o.get("segments") or [] if s not in segs]
    return {"answer": " ".join(f"({i}) {o['answer']}" for i, o in enumerate(outs, 1)),
            "choice": None, "segments": sorted(segs, key=lambda s: s.get("start_s", 0.0)),
            "confidence": min(o.get("confidence", 0.5) for o in outs)}


def stand_in_calls(q: Question, ev: Evidence, win: dict[str, float]) -> list[tuple[str, dict]]:
    """find_events for the types the question's words also accept, and, once its own type
    came back empty, for its fallback types (a freeze question on an index of stutters)."""
    if not q.types:
        return []
    m = q.types[0]
    calls = [("find_events", {"type": t, **win}) for t in m.also]
    own = ev.get("find_events", {"type": m.type, **win})
    if own is not None and not own.get("events"):
        calls += [("find_events", {"type": t, **win}) for t in m.fallback]
    return calls


def scenes(ev: Evidence, duration: float) -> list[tuple[float, float]] | None:
    """Scene spans from the overview's cuts (None before the overview)."""
    cuts = (ev.overview.get("scenes") or {}).get("cuts_s")
    if cuts is None:
        return None
    edges = [0.0, *cuts, duration]
    return list(zip(edges[:-1], edges[1:], strict=True))


def main_event(found: dict[str, Any] | None, etype: str | None) -> dict[str, Any] | None:
    """The worst (then longest) event of a find_events result, of `etype` when any is."""
    evs = (found or {}).get("events") or []
    if etype:
        evs = [e for e in evs if e["type"] == etype] or evs
    return max(evs, key=lambda e: (e["severity"], e["end_s"] - e["start_s"]), default=None)


def zoom_args(e: dict[str, Any], duration: float) -> dict[str, Any]:
    """zoom_in arguments: up to 4 s around the middle of an event."""
    mid = 0.5 * (e["start_s"] + e["end_s"])
    half = min(2.0, 0.5 * (e["end_s"] - e["start_s"]) + 0.5)
    return {"start_s": round(max(0.0, mid - half), 2), "end_s": round(min(duration, mid + half), 2),
            "max_frames": 4}


def question_text(messages: Sequence[BaseMessage]) -> str:
    """The question of the first user turn (after "Question:")."""
    for m in messages:
        if isinstance(m, HumanMessage):
            text = text_of(m.content)
            found = re.search(r"Question:\s*(.*?)(?:\n\s*\n|\nOptions:|$)", text, re.S)
            return found.group(1).strip() if found else text
    return ""


def call(name: str, args: dict[str, Any], n: int) -> AIMessage:
    """A tool call message."""
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"local-{n}",
                                              "type": "tool_call"}])
