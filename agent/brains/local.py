"""The `local` brain: a deterministic planner that needs no model and no network.

Each turn it re-reads the question (and options) and the tool results so far, asks for the
next measurement it needs, through the graph like a model would, and finally maps the
measured evidence to an answer: an option letter for multiple-choice questions, time
segments for "when" questions, and words with times and numbers for open ones.
"""

from __future__ import annotations

import json
import re
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from agent.brains.stretches import (
    Stretch,
    Timeline,
    brief_limit,
    lasting_pieces,
    pattern,
    profile,
    split_lasting,
    stretch_types,
    stretches,
    total_s,
)
from agent.context import RunContext
from agent.questions import TYPE_NAMES, Mention, Option, Question, Window, parse_question
from agent.timefmt import hms
from agent.trace import text_of
from tools.timeline import equal_segments

# How an event's severity (0..1) reads on the mild / moderate / severe scale of option words.
# The detectors saturate early: a mild distortion already scores 0.3-0.6, a moderate one
# 0.6-1.0, and only a saturated 1.0 reads as severe (calibrated on the NDQA dev sets).
MILD, SEVERE = 0.6, 0.99
# Detectors whose severity follows the viewer's scale more closely have their own cuts
# (type or type/subtype: (mild below, severe from)), read off the same dev sets: freezes and
# flicker grow with the share of affected frames, grain and impulses with their absolute level,
# blur with the fall of native sharpness, compression with its absolute blockiness; the
# compression cuts were read off 102 one-minute calibration videos (each distortion of table
# S5 at each level, two seeds) and one NDQA set. Blur, oversaturation, hue and frame drops
# were read again off the needles four NDQA sets found (26 blur needles: heavy motion blur
# and defocus lose 0.55-0.65 of the severity scale, moderate blur 0.36-0.72; oversaturation
# x2 reads 0.33-0.48 and x4 0.61-1.0; a 130-degree hue turn 0.78-1.0, a 60-degree one
# 0.62-0.89; frame drops of the moderate level reach 0.87). Stutter grows with how long a
# held frame stays frozen: freezes of 4 frames read 0.42, of 14 0.73-0.84, of 24 0.84-1.0.
LEVEL_CUTS: dict[str, tuple[float, float]] = {
    "flicker": (0.5, 0.95), "frame_drop": (0.5, 0.9), "stutter": (0.5, 0.85),
    "noise/grain": (0.49, 0.87), "noise/impulse": (0.48, 0.85),
    "colour/oversaturation": (0.35, 0.6), "colour/hue shift": (0.6, 0.95),
    "sharpening": (0.43, 0.85), "blur": (0.35, 0.55), "compression/blocking": (0.55, 0.79),
    "compression/pixelation": (0.55, 0.9),
    # over-sharpening measured by the noise detectors (see READ_AS): amplified grain scores
    # low on their scale (0.36-0.46 for the moderate level, 0.71 for the severe one)
    "sharpening/measured as noise": (0.3, 0.6),
}
# A window's type score (>= 1: as strong as a reportable event) this high is clearly outside
# what clean windows reach, so the type counts as present even when no event was reported.
# Types whose scores swing with scene content (blur, exposure, colour) have no such bar.
# (Noise: clean 15-s windows of the dev sets reach 2.1 at most over 1745 of them.)
# Windows an undetected type is probed over (temporal relations), and the severity given to
# the probed window (as weak as a reported event can be).
PROBE_WINDOWS = 12
REPORT_FLOOR = 0.3
PROBE_SCORES: dict[str, float] = {"noise": 2.5, "compression": 2.5, "sharpening": 2.5,
                                  "jitter": 2.5, "flicker": 1.0, "frame_drop": 0.5,
                                  "stutter": 0.5}
# "When" answers keep events at least this fraction of the worst one's severity.
WEAK_FRACTION = 0.5
# An event is "in" a window when it fills at least this share of the window, or has at least
# this share of itself inside: an event that only runs over the window's edge is not in it.
IN_WINDOW_SHARE = 0.3
IN_EVENT_SHARE = 1 / 3
# Overall grade from the level-weighted share of the viewing time that is impaired
# (1 excellent .. 5): nothing impaired is excellent, up to a third good, most of it poor.
GRADE_CUTS = ((0.3, 4.0), (0.7, 3.0))  # (share at most, grade); beyond: 2 (poor)
LEVEL_WEIGHTS = (0.25, 0.6, 1.0)  # impairment weight of a mild, moderate, severe stretch
WHOLE = re.compile(r"\b(throughout|entire|whole (?:video|clip)|all the time|from start to "
                   r"finish|the whole time|everywhere|all (?:segments|parts))\b", re.I)

# Why each kind of distortion spoils viewing (for open answers).
WHY: dict[str, str] = {
    "blur": "fine detail and edges are lost, so textures and text look smeared and the eye "
            "searches for a focus it cannot find",
    "noise": "random grain covers flat areas and fine detail, making the picture look dirty "
             "and masking texture",
    "compression": "blocking and pixelation break smooth areas into visible squares and wipe "
                   "out fine detail, which draws the eye to the artifacts",
    "exposure": "highlights or shadows lose their range, so the picture looks washed out or "
                "flat and details in bright or dark areas disappear",
    "colour": "colours depart from their natural hue or saturation, so skin, sky and objects "
              "look wrong and the scene feels unnatural",
    "sharpening": "over-sharpening leaves bright halos and ringing along edges, giving a "
                  "harsh, artificial look",
    "flicker": "rapid brightness swings from frame to frame are tiring to watch and "
               "distracting, and can cause visual discomfort",
    "frame_drop": "missing frames make motion jump instead of flowing, so movement looks "
                  "choppy",
    "stutter": "frames freeze and then jump ahead, interrupting motion and the viewer's "
               "immersion",
    "jitter": "the picture shakes from frame to frame, which makes it hard to follow and can "
              "cause fatigue",
}


def level_of(severity: float | None, kind: str = "") -> float:
    """Severity 0..1 of the worst event to the option scale (0 none, 1 mild .. 3 severe);
    `kind` ("type" or "type/subtype") selects the detector's own cuts."""
    if severity is None or severity <= 0:
        return 0.0
    mild, severe = LEVEL_CUTS.get(kind) or LEVEL_CUTS.get(kind.split("/")[0]) or (MILD, SEVERE)
    return 1.0 if severity < mild else 2.0 if severity < severe else 3.0


def events_level(evs: Sequence[dict[str, Any]]) -> float:
    """The option-scale level of the worst of some events, each on its detector's cuts."""
    return max((level_of(e["severity"], f"{e['type']}/{e.get('subtype') or ''}")
                for e in evs), default=0.0)


def probed_level(etype: str | None, data: dict[str, Any] | None) -> float:
    """The level (0 none, 1 mild, 2 moderate) a find_events window score shows for a type
    that has no event there: 0 unless the score is clearly outside the clean range."""
    bar = PROBE_SCORES.get(etype or "")
    score = float((data or {}).get("signal_score") or 0.0)
    if bar is None or score < bar:
        return 0.0
    return 2.0 if score >= 1.5 * bar else 1.0


def level_word(severity: float, level: float | None = None) -> str:
    """A severity 0..1 (or its option-scale level, when known) in words."""
    lv = level_of(severity) if level is None else level
    return ("none", "mild", "moderate", "severe")[int(min(max(lv, 0), 3))]


def _iou(a: tuple[float, float], spans: Sequence[tuple[float, float]]) -> float:
    """Temporal IoU of one span against the union of others."""
    merged: list[list[float]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    inter = sum(max(0.0, min(a[1], e) - max(a[0], s)) for s, e in merged)
    union = (a[1] - a[0]) + sum(e - s for s, e in merged) - inter
    return inter / union if union > 0 else 0.0


def _ev_line(e: dict[str, Any]) -> str:
    sub = f" ({e['subtype']})" if e.get("subtype") else ""
    ev = e.get("evidence") or {}
    nums = ", ".join(f"{k} {v}" for k, v in list(ev.items())[:2] if k != "signal")
    return (f"{TYPE_NAMES.get(e['type'], e['type'])}{sub} from {hms(e['start_s'])} to "
            f"{hms(e['end_s'])} (severity {e['severity']:.2f}" + (f"; {nums}" if nums else "")
            + ")")


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
        # Types whose events stand for another type the question names (see _read_as).
        self.relabel: dict[str, str] = {}

    def done(self, name: str, args: dict[str, Any]) -> bool:
        """Whether this call was made already (succeeded or failed)."""
        return any(n == name and a == args for n, a, _ in self.calls)

    def get(self, name: str, args: dict[str, Any] | None = None) -> dict[str, Any] | None:
        for n, a, d in self.calls:
            if n == name and (args is None or a == args) and d is not None:
                return d
        return None

    @property
    def overview(self) -> dict[str, Any]:
        return self.get("overview") or {}

    def all_events(self) -> list[dict[str, Any]]:
        """Every event seen (overview and find_events), deduplicated, by start time."""
        seen: dict[tuple, dict[str, Any]] = {}
        for n, _, d in self.calls:
            if d and n in ("overview", "find_events"):
                for e in d.get("events", []):
                    seen.setdefault((e["type"], e["start_s"], e["end_s"]), e)
        return sorted(self.relabelled(seen.values()), key=lambda e: (e["start_s"], e["type"]))

    def relabelled(self, evs: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
        """The events, those of a relabelled type under the type they stand for."""
        return [{**e, "type": self.relabel[e["type"]],
                 "subtype": f"measured as {e['type']}"} if e["type"] in self.relabel else e
                for e in evs]


class LocalBrain:
    """Deterministic planner over the toolbox: question -> tool calls -> answer."""

    name = "local"
    vision = False

    def __init__(self, **_: Any) -> None:
        pass

    # ------------------------------------------------------------ the turn

    def step(self, messages: list[BaseMessage], tools: list[dict], ctx: RunContext) -> AIMessage:
        """The next tool call, or `finish` once the evidence is in (or the budget is out)."""
        question = ctx.question or _question_text(messages)
        ev = Evidence(messages)
        scenes = self._scenes(ev, ctx.duration_s)
        q = parse_question(question, ctx.options, ctx.duration_s, scenes)
        available = {t.get("function", {}).get("name") for t in tools}
        nudged = isinstance(messages[-1], HumanMessage) and len(messages) > 2
        if not nudged and q.kind != "out_of_scope":
            for name, args in self.plan(q, ev, ctx.duration_s):
                if name in available and not ev.done(name, args):
                    return _call(name, args, len(ev.calls) + 1)
        return _call("finish", self.decide(q, ev, ctx), len(ev.calls) + 1)

    @staticmethod
    def _scenes(ev: Evidence, duration: float) -> list[tuple[float, float]] | None:
        cuts = (ev.overview.get("scenes") or {}).get("cuts_s")
        if cuts is None:
            return None
        edges = [0.0, *cuts, duration]
        return list(zip(edges[:-1], edges[1:], strict=True))

    # ------------------------------------------------------------ planning

    def plan(self, q: Question, ev: Evidence, duration: float) -> list[tuple[str, dict]]:
        """The tool calls this question needs, in order (calls already made are skipped)."""
        steps: list[tuple[str, dict]] = [("overview", {})]
        if not ev.overview:
            return steps
        t = q.type
        win = _window_args(q.window, duration)
        opt_wins = _option_windows(q, duration)
        k = q.kind
        if k in ("localization", "detection", "severity", "open"):
            steps.append(("find_events", {"type": t or "any", **win}))
            if k == "detection" and q.window:
                steps.append(("measure_window", _window_args(q.window, duration, True)))
            if k == "localization" and len(opt_wins) >= 2:
                steps.append(("compare_windows", {"windows": opt_wins, "type": t or "any"}))
            if k == "open":
                main = self._main_event(ev.get("find_events"), t)
                if main:
                    steps.append(("zoom_in", _zoom_args(main, duration)))
        elif k == "classification":
            steps.append(("find_events", {"type": "any", **win}))
            if q.window:
                steps.append(("measure_window", _window_args(q.window, duration, True)))
        elif k == "comparison":
            pairs = _typed_windows(q)
            if pairs and len(opt_wins) < 2:  # "is the X at A worse than the Y at B?"
                steps += [("find_events", _typed_args(m, w, duration)) for m, w in pairs]
            wins = opt_wins if len(opt_wins) >= 2 else [
                [w.start_s, w.end_s] for w in q.windows] if len(q.windows) >= 2 else []
            if not wins and not any(o.types for o in q.options):
                wins = [list(w) for w in equal_segments(duration, 2)]
            if len(wins) >= 2:
                steps.append(("compare_windows", {"windows": wins[:12], "type": t or "any"}))
            steps.append(("find_events", {"type": "any", **win}))
        elif k == "temporal_relation":
            steps.append(("find_events", {"type": "any", **win}))
            if len(opt_wins) >= 2:
                steps.append(("compare_windows", {"windows": opt_wins, "type": t or "any"}))
            if ev.get("find_events"):  # a type asked about but not found: where is it likeliest?
                steps += [("compare_windows", _probe_args(m, q, duration))
                          for m in _missing_types(q, ev.all_events())]
        else:  # cumulative_effect, integration, stability, dominant_factor, trend, overall
            steps.append(("find_events", {"type": "any", **win}))
            wins = opt_wins if len(opt_wins) >= 2 and k in ("integration", "cumulative_effect") \
                else [[w.start_s, w.end_s] for w in q.windows] if len(q.windows) >= 2 else None
            if wins is None:
                a, b = (q.window.start_s, q.window.end_s) if q.window else (0.0, duration)
                n = 6 if b - a >= 120 else 4
                wins = [[round(a + (b - a) * i / n, 3), round(a + (b - a) * (i + 1) / n, 3)]
                        for i in range(n)]
            steps.append(("compare_windows", {"windows": wins[:12], "type": "any"}))
        return steps

    @staticmethod
    def _main_event(found: dict[str, Any] | None, etype: str | None) -> dict[str, Any] | None:
        evs = (found or {}).get("events") or []
        if etype:
            evs = [e for e in evs if e["type"] == etype] or evs
        return max(evs, key=lambda e: (e["severity"], e["end_s"] - e["start_s"]), default=None)

    # ------------------------------------------------------------ deciding

    def decide(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        """finish() arguments from the question and the evidence gathered."""
        if q.kind == "out_of_scope":
            return {
                "answer": "I can only measure picture quality (sharpness, noise, compression, "
                          "exposure, colour, over-sharpening, flicker, frame drops, stutter and "
                          "jitter); this question asks about something I cannot measure, so I "
                          "cannot answer it from the video's measurements.",
                "choice": None, "segments": [], "confidence": 0.0,
            }
        if not ev.overview:
            return {"answer": "The video could not be measured, so there is no evidence to "
                              "answer from.", "choice": None, "segments": [], "confidence": 0.0}
        ev.relabel = _read_as(q, ev.all_events())
        handler = getattr(self, f"_{q.kind}", self._generic)
        out = handler(q, ev, ctx)
        if q.options and out.get("choice") is None and q.kind != "out_of_scope":
            gen = self._generic(q, ev, ctx)
            out["choice"] = gen["choice"]
            out["confidence"] = min(out.get("confidence", 0.3), 0.3)
        out.setdefault("segments", [])
        out["confidence"] = round(float(min(max(out.get("confidence", 0.5), 0.0), 1.0)), 3)
        return out

    # --- helpers over the evidence

    def _found(self, q: Question, ev: Evidence, duration: float) -> tuple[list[dict], dict]:
        """Events of the question's type in its window, and the find_events result."""
        args = {"type": q.type or "any", **_window_args(q.window, duration)}
        data = ev.get("find_events", args) or ev.get("find_events") or {}
        evs = data.get("events")
        if evs is None:
            evs = [e for e in ev.all_events() if not q.type or e["type"] == q.type]
        evs = ev.relabelled(evs)
        if q.type in ev.relabel.values() and not any(e["type"] == q.type for e in evs):
            lo, hi = (q.window.start_s, q.window.end_s) if q.window else (0.0, duration)
            evs += [e for e in _touching(ev.all_events(), lo, hi) if e["type"] == q.type]
        if q.types:
            evs = [e for e in evs if _fits_subtype(q.types[0], e)]
        return list(evs), data

    @staticmethod
    def _segments(evs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"start_s": e["start_s"], "end_s": e["end_s"],
                 "label": e["type"] + (f" ({e['subtype']})" if e.get("subtype") else ""),
                 "severity": float(e["severity"])} for e in evs]

    @staticmethod
    def _where(q: Question, duration: float) -> str:
        if q.window:
            return f"between {hms(q.window.start_s)} and {hms(q.window.end_s)}"
        return f"in the whole video (duration {hms(duration)})"

    @staticmethod
    def _what(q: Question) -> str:
        return TYPE_NAMES.get(q.type, q.type) if q.type else "quality distortion"

    @staticmethod
    def _yes_no(q: Question, truth: bool) -> str | None:
        """The yes (or no) option letter; None when the options are not yes/no."""
        yes = [o for o in q.options if o.yes and not o.no]
        no = [o for o in q.options if o.no or (o.none and not o.yes)]
        pool = yes if truth else no
        return pool[0].letter if pool else None

    @staticmethod
    def _none_option(q: Question) -> str | None:
        for o in q.options:
            if o.none or (o.no and not o.types and not o.windows):
                return o.letter
        return None

    def _by_type(self, q: Question, type_weights: dict[str, float],
                 subtypes: dict[str, str] | None = None) -> tuple[str | None, float]:
        """The option naming the heaviest type (subtype as tie-break), and a confidence."""
        best, best_score = None, 0.0
        for o in q.options:
            if not o.types:
                continue
            score = 0.0
            for m in o.types[:1]:
                w = type_weights.get(m.type, 0.0)
                if w > 0:
                    score = w * (1.0 + (0.5 if subtypes and m.subtype and
                                       subtypes.get(m.type) == m.subtype else 0.0))
                    if subtypes and m.subtype and subtypes.get(m.type) not in ("", m.subtype):
                        score *= 0.6
            if score > best_score:
                best, best_score = o.letter, score
        total = sum(type_weights.values()) or 1.0
        return best, min(0.95, 0.5 + best_score / total / 2) if best else 0.0

    # --- kinds

    def _localization(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        found, data = self._found(q, ev, ctx.duration_s)
        groups, brief = split_lasting(found)
        top = max((g["severity"] for g in groups), default=0.0)
        evs = [g for g in groups if g["severity"] >= WEAK_FRACTION * top]  # the clear ones
        weak = [g for g in groups if g not in evs] + brief
        what = self._what(q)
        segs = self._segments(evs)
        choice, conf = None, 0.8 if evs else 0.6
        opts = [(o, _option_span(o, ctx.duration_s)) for o in q.options]
        spans = [(e["start_s"], e["end_s"]) for e in evs]
        if q.options:
            if evs:
                scored = [(_iou(sp, spans), o.letter) for o, sp in opts if sp]
                if scored and max(scored)[0] > 0:
                    iou, choice = max(scored)
                    conf = min(0.95, 0.4 + iou)
            else:
                choice = self._none_option(q)
            if choice is None:
                choice = _worst_option(ev.get("compare_windows"), opts)
                conf = 0.3
        if evs:
            text = f"{what.capitalize()} occurs " + "; ".join(
                f"from {hms(e['start_s'])} to {hms(e['end_s'])} (severity {e['severity']:.2f})"
                for e in evs[:8]) + "."
            if len(evs) > 8:
                text += f" ({len(evs)} spans in all.)"
            if weak:
                text += (" Weaker or brief candidates: " + _spans_text(weak) + ".")
        else:
            text = (f"No {what} was detected {self._where(q, ctx.duration_s)}"
                    f"{_score_note(data, q.type)}.")
            if brief:
                text += (" Only brief candidates (too short to be a lasting degradation): "
                         + _spans_text(brief) + ".")
        return {"answer": text, "choice": choice, "segments": segs, "confidence": conf}

    def _detection(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        found, data = self._found(q, ev, ctx.duration_s)
        evs, brief = split_lasting(found)
        if q.window and q.window.point:  # an instant: the event must cover it (with a margin)
            mid = 0.5 * (q.window.start_s + q.window.end_s)
            evs = [e for e in evs if e["start_s"] - 1.0 <= mid <= e["end_s"] + 1.0]
        elif q.window:  # a window: the event must be in it, not only run over its edge
            evs = [e for e in evs if _in_window(e, q.window)]
        probed = not evs and q.window is not None and probed_level(q.type, data) > 0
        present = bool(evs) or probed
        what, where = self._what(q), self._where(q, ctx.duration_s)
        choice = self._yes_no(q, present)
        if choice is None and q.options:
            if present:
                choice, _ = self._by_type(q, _type_load(evs), _subtypes(evs))
            else:
                choice = self._none_option(q)
        if probed:
            text = (f"Yes: {what} is present {where}, below the event threshold: its signal "
                    f"score there is {data.get('signal_score', 0):.2f}, far above what clean "
                    "windows reach.")
        elif present:
            text = f"Yes: {what} is present {where}: " + "; ".join(_ev_line(e) for e in evs[:5])
        else:
            text = f"No: no {what} was detected {where}{_score_note(data, q.type)}."
            if brief:
                text += " Only brief candidates: " + _spans_text(brief) + "."
        return {"answer": text, "choice": choice, "segments": self._segments(evs),
                "confidence": 0.8 if present else 0.5 if brief else 0.7}

    def _classification(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        if _type_sets(q):
            return self._aggregate(q, ev, ctx)
        evs, _ = self._found(replace(q, types=[]), ev, ctx.duration_s)
        if not q.window:  # the whole video: what a viewer would name, not passing spikes
            evs = [s.primary for s in stretches(evs)] or evs
        load = _type_load(evs)
        where = self._where(q, ctx.duration_s)
        if not evs:
            choice = self._none_option(q)
            conf = 0.6
            if choice is None and q.options:
                scores = (ev.get("measure_window") or {}).get("type_scores") or {}
                choice, _ = self._by_type(q, {k: v for k, v in scores.items() if v > 0})
                conf = 0.25
            return {"answer": f"No quality distortion was detected {where}.", "choice": choice,
                    "confidence": conf}
        top = max(load, key=load.get)
        subs = _subtypes(evs)
        choice, conf = self._by_type(q, load, subs)
        main = [e for e in evs if e["type"] == top]
        text = (f"The distortion {where} is {TYPE_NAMES.get(top, top)}"
                + (f" ({subs[top]})" if subs.get(top) else "") + ": "
                + "; ".join(_ev_line(e) for e in main[:3]) + ".")
        others = sorted(set(load) - {top})
        if others:
            text += " Also present: " + ", ".join(TYPE_NAMES.get(t, t) for t in others) + "."
        return {"answer": text, "choice": choice, "segments": self._segments(evs),
                "confidence": conf}

    def _severity(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        low = q.text.lower()
        if re.search(r"\bhow (?:many|often)\b", low) and any(o.numbers for o in q.options):
            return self._aggregate(q, ev, ctx)
        evs, data = self._found(q, ev, ctx.duration_s)
        if q.window and not q.window.point:
            evs = [e for e in evs if _in_window(e, q.window)] or evs
        what = self._what(q)
        worst = max((e["severity"] for e in evs), default=0.0)
        level = events_level(evs) if evs else probed_level(q.type, data)
        total = sum(e["end_s"] - e["start_s"] for e in evs)
        choice, conf = None, 0.55
        if re.search(r"\bhow long|duration|last\b", low) and any(o.durations for o in q.options):
            choice = _nearest(q.options, lambda o: o.durations[0] if o.durations else None, total)
        elif any(o.level is not None for o in q.options):
            choice = _nearest(q.options, lambda o: o.level, level)
        elif any(o.grade is not None for o in q.options):
            choice = _nearest(q.options, lambda o: o.grade, 5.0 - level * 1.2)
        if not evs and choice is None:
            choice = self._none_option(q)
        zoom = ev.get("zoom_in")
        if evs:
            text = (f"The {what} is {level_word(worst, level)} (worst severity {worst:.2f} on "
                    f"a 0-1 scale), lasting {total:.1f} s in {len(evs)} span(s): "
                    + "; ".join(_ev_line(e) for e in evs[:4]) + ".")
            if zoom:
                text += f" Close look: {zoom.get('summary', '')}."
            conf = 0.6
        elif level > 0:
            text = (f"The {what} {self._where(q, ctx.duration_s)} stays below the event "
                    f"threshold but clearly shows{_score_note(data, q.type)}: it is "
                    f"{'moderate' if level >= 2 else 'mild'}.")
        else:
            text = (f"No {what} was detected {self._where(q, ctx.duration_s)}"
                    f"{_score_note(data, q.type)}, so its severity is none.")
        return {"answer": text, "choice": choice, "segments": self._segments(evs),
                "confidence": conf}

    def _comparison(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        opts = [(o, _option_span(o, ctx.duration_s)) for o in q.options]
        if q.options and sum(bool(o.types) for o in q.options) >= 2 and not all(
                sp for _, sp in opts):
            return self._compare_types(q, ev)
        pairs = _typed_windows(q)
        if pairs and sum(bool(sp) for _, sp in opts) < 2:
            return self._compare_typed_windows(q, ev, ctx, pairs)
        cmp = ev.get("compare_windows")
        if not cmp:
            return self._generic(q, ev, ctx)
        wins = cmp.get("windows", [])
        order = list(cmp.get("worst_first", []))
        if q.least:
            order = order[::-1]
        pick = wins[order[0]] if order else None
        choice = None
        if pick:
            span = (pick["start_s"], pick["end_s"])
            choice = next((o.letter for o, sp in opts if sp and abs(sp[0] - span[0]) < 0.6
                           and abs(sp[1] - span[1]) < 0.6), None)
            if choice is None and len(q.windows) >= 2:  # yes/no about "A worse than B?"
                first_worse = order[0] == 0 if not q.least else order[0] != 0
                choice = self._yes_no(q, first_worse != _claims_less(q.text))
        what = self._what(q)
        same = len(wins) >= 2 and all(
            w["worst_severity"] == wins[0]["worst_severity"] and
            abs(w["impairment"] - wins[0]["impairment"]) < 1e-3 for w in wins)
        if same and all(w["worst_severity"] == 0 for w in wins):
            text = (f"No {what} was detected in any of the compared windows; they do not "
                    "differ measurably.")
            return {"answer": text, "choice": choice or self._none_option(q), "confidence": 0.3}
        desc = "; ".join(
            f"{hms(w['start_s'])}-{hms(w['end_s'])}: worst severity {w['worst_severity']:.2f}, "
            f"quality {w['quality']:.0f}" for w in wins[:6])
        label = "least" if q.least else "most"
        text = (f"The {label} degraded window is {hms(pick['start_s'])}-{hms(pick['end_s'])} "
                f"({desc}).") if pick else "No windows to compare."
        segs = self._segments(pick.get("events", [])) if pick else []
        return {"answer": text, "choice": choice, "segments": segs,
                "confidence": 0.45 if same else 0.75}

    def _compare_types(self, q: Question, ev: Evidence) -> dict[str, Any]:
        """Options naming distortion types: the one whose lasting events are worst (or least)."""
        lasting, brief = split_lasting(ev.all_events())
        named = {o.types[0].type for o in q.options if o.types}
        # The question says each named type is there: one seen only briefly (a degradation
        # over whole shots shows only where it crosses a cut) is judged on that glimpse.
        seen = {e["type"] for e in lasting}
        pool = (lasting + [e for e in brief if e["type"] in named - seen]) or ev.all_events()
        load = _type_grade(pool)
        if q.least:
            inv = {t: 1.0 / (1e-3 + load.get(t, 0.0)) for t in named}
            choice, conf = self._by_type(q, inv)
        else:
            choice, conf = self._by_type(q, load)
        top = max(load, key=load.get) if load else None
        tops = [e for e in pool if e["type"] == top]
        worst = max((e["severity"] for e in tops), default=0.0)
        text = ("The most severe distortion is " + TYPE_NAMES.get(top, top)
                + f" ({level_word(worst, events_level(tops))}, severity {worst:.2f})."
                if top else "No distortion was detected, so none is more severe.")
        return {"answer": text, "choice": choice, "confidence": conf,
                "segments": self._segments([e for e in lasting if e["type"] == top])}

    def _compare_typed_windows(self, q: Question, ev: Evidence, ctx: RunContext,
                               pairs: list[tuple[Mention, Window]]) -> dict[str, Any]:
        """"Is the X at A more severe than the Y at B?": each window for its own type."""
        found = []
        for m, w in pairs[:2]:
            data = ev.get("find_events", _typed_args(m, w, ctx.duration_s))
            lasting, brief = split_lasting((data or {}).get("events") or [])
            evs = [e for e in lasting if _in_window(e, w)] or [  # named there: a glimpse counts
                e for e in brief if _in_window(e, w)] or [
                e for e in ev.all_events() if e["type"] == m.type and _in_window(e, w)]
            worst = max((e["severity"] for e in evs), default=0.0)
            score = float((data or {}).get("signal_score") or 0.0)
            # No event: a signal clearly outside the clean range still has a level.
            level = events_level(evs) if evs else probed_level(m.type, data)
            found.append((worst, score, m, w, evs, level))
        (sa, ca, *_, ea, la), (sb, cb, *_, eb, lb) = found
        # Level first (a probed one counts), then severity, then the signal score.
        first_worse = (la, sa, ca) > (lb, sb, cb)
        choice = self._yes_no(q, first_worse != _claims_less(q.text))
        text = "; ".join(f"{TYPE_NAMES.get(m.type, m.type)} {hms(w.start_s)}-{hms(w.end_s)}: "
                         f"worst severity {s:.2f} (signal score {c:.2f})"
                         for s, c, m, w, _, _ in found)
        worse = found[0] if first_worse else found[1]
        text = (f"The {TYPE_NAMES.get(worse[2].type, worse[2].type)} is the more severe: "
                f"{text}.")
        return {"answer": text, "choice": choice, "segments": self._segments(ea + eb),
                "confidence": 0.6 if sa != sb else 0.4}

    def _temporal_relation(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        evs = ev.all_events()
        for m in _missing_types(q, evs):
            probe = _probed_span(ev.get("compare_windows", _probe_args(m, q, ctx.duration_s)), m)
            if probe:
                evs = [*evs, {"type": m, "subtype": "probed", "start_s": probe[0],
                              "end_s": probe[1], "severity": REPORT_FLOOR}]
        tl = Timeline(sorted(evs, key=lambda e: (e["start_s"], e["type"])))
        text = _timeline_text([s.to_event() for s in tl.stretches] or tl.events)
        choice, conf = None, 0.5
        if q.options:
            if all(o.types for o in q.options) and re.search(
                    r"\b(first|earlie\w*|last|latest|later|final)\b", q.text, re.I):
                late = bool(re.search(r"\b(last|latest|later|final)\b", q.text, re.I))
                pick = tl.earliest((o.types[0].type for o in q.options), late)
                choice = next((o.letter for o in q.options if o.types[0].type == pick), None)
            else:
                claim = _claim(q.text, q.types, tl, ctx.duration_s)
                if claim is not None and any(o.yes or o.no for o in q.options):
                    choice = self._yes_no(q, claim)
                else:
                    scores = [(_claim(o.text, o.types or q.types, tl, ctx.duration_s), o)
                              for o in q.options]
                    trues = [o for s, o in scores if s is True]
                    if trues:
                        choice, conf = trues[0].letter, 0.6 if len(trues) == 1 else 0.35
        return {"answer": text, "choice": choice, "segments": self._segments(tl.events),
                "confidence": conf}

    def _course(self, ev: Evidence, ctx: RunContext) -> tuple[str, list[float], list[Stretch]]:
        """The video's quality pattern, its impairment profile and its degraded stretches."""
        evs = ev.all_events()
        found = stretches(evs)
        n = 6 if ctx.duration_s >= 120 else 4
        pieces = lasting_pieces(evs)
        prof = profile(pieces, 0.0, ctx.duration_s, n)
        return pattern(found, prof, ctx.duration_s, pieces), prof, found

    def _trend(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        kind, prof, found = self._course(ev, ctx)
        measured = "stable" if kind == "occasional" else kind
        choice = None
        if q.options:
            claimed = _claimed_trend(q.text)
            if claimed and any(o.yes or o.no for o in q.options):
                choice = self._yes_no(q, claimed == measured)
            else:
                choice = next((o.letter for o in q.options if o.trend == measured), None)
        text = (f"The quality is {measured} over the video: impairment by part "
                + ", ".join(f"{p:.2f}" for p in prof) + f" (0 clean .. 1 severe, in order); "
                f"{len(found)} degraded stretch(es).")
        return {"answer": text, "choice": choice, "confidence": 0.6,
                "segments": self._segments([s.to_event() for s in found])}

    def _stability(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        kind, prof, found = self._course(ev, ctx)
        choice = None
        if q.options:
            if any(o.yes or o.no for o in q.options) and not any(
                    _stability_claim(o.text) for o in q.options if not (o.yes or o.no)):
                asks_unstable = bool(re.search(r"\b(unstable|instabil|fluctuat|vary|varies|"
                                               r"inconsisten|change)", q.text, re.I))
                stable = kind == "stable"
                choice = self._yes_no(q, (not stable) if asks_unstable else stable)
            else:
                want = "drifting" if kind in ("degrading", "improving") else kind
                choice = next((o.letter for o in q.options if _stability_claim(o.text) == want),
                              None)
        words = {"stable": "stable", "occasional": "mostly stable with isolated drops",
                 "fluctuating": "fluctuating", "degrading": "changing gradually (worse)",
                 "improving": "changing gradually (better)"}
        text = (f"The viewing quality is {words[kind]}: {len(found)} degraded stretch(es) "
                f"covering {total_s(found):.0f} s of {ctx.duration_s:.0f} s; impairment by part "
                + ", ".join(f"{p:.2f}" for p in prof) + ".")
        return {"answer": text, "choice": choice, "confidence": 0.55,
                "segments": self._segments([s.to_event() for s in found])}

    def _overall(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        found = stretches(ev.all_events())
        grade, detail = _grade(found, ctx.duration_s)
        choice = None
        if q.options:
            if any(o.yes or o.no for o in q.options) and not any(
                    o.grade is not None for o in q.options):
                clean_claim = bool(re.search(r"\b(free of|clean|without|no (?:visible |"
                                             r"noticeable )?(?:quality )?(?:problems?|issues?|"
                                             r"distortions?))\b", q.text, re.I))
                choice = self._yes_no(q, (not found) if clean_claim else bool(found))
            elif any(o.grade is not None for o in q.options):
                choice = _nearest(q.options, lambda o: o.grade, grade)
            elif any(o.level is not None for o in q.options):
                choice = _nearest(q.options, lambda o: o.level, max(0.0, 5.0 - grade) * 0.75)
        names = ["", "bad", "poor", "fair", "good", "excellent"]
        text = f"Overall quality is {names[int(round(min(max(grade, 1), 5)))]}: {detail}."
        return {"answer": text, "choice": choice, "confidence": 0.5,
                "segments": self._segments([s.to_event() for s in found])}

    def _dominant_factor(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        evs = ev.all_events()
        if q.window:
            evs = _touching(evs, q.window.start_s, q.window.end_s)
        found = stretches(evs)
        load = stretch_types(found)
        if not load:
            return {"answer": "No distortion was detected, so no factor dominates: the quality "
                              "is stable at the video's baseline.",
                    "choice": self._none_option(q), "confidence": 0.5}
        top = max(load, key=load.get)
        mains = [s.primary for s in found]
        choice, conf = self._by_type(q, load, _subtypes(mains))
        share = load[top] / sum(load.values())
        text = (f"The dominant factor is {TYPE_NAMES.get(top, top)} ({share:.0%} of the "
                f"severity-weighted time of all degraded stretches): "
                + "; ".join(_ev_line(e) for e in mains if e["type"] == top)[:600] + ".")
        return {"answer": text, "choice": choice, "confidence": conf,
                "segments": self._segments([e for e in mains if e["type"] == top])}

    def _cumulative_effect(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        return self._aggregate(q, ev, ctx)

    def _integration(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        return self._aggregate(q, ev, ctx)

    def _aggregate(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        """Totals over the distinct degraded stretches: their time, their number, their types."""
        evs = ev.all_events()
        if q.window:
            evs = [e for e in evs if _in_window(e, q.window)]
        if q.type:
            evs = [e for e in evs if e["type"] == q.type]
        found = stretches(evs)
        types = stretch_types(found)
        total, n = total_s(found), len(found)
        asks_types = bool(re.search(r"\b(types?|kinds?|sorts?|categor\w*)\b", q.text, re.I))
        choice = None
        if sum(bool(o.durations) for o in q.options) >= max(2, len(q.options) - 1):
            choice = _nearest(q.options, lambda o: o.durations[0] if o.durations else None,
                              total)
        elif re.search(r"\bhow (?:many|often)\b", q.text, re.I) and any(
                o.numbers for o in q.options):
            target = float(len(types) if asks_types else n)
            choice = _nearest(q.options, lambda o: o.numbers[0] if o.numbers else None, target)
        elif _type_sets(q):
            choice = _best_set(q.options, set(types))
        elif q.options:
            return self._generic(q, ev, ctx)
        kinds = ", ".join(TYPE_NAMES.get(t, t) for t in sorted(types, key=types.get,
                                                                 reverse=True))
        text = (f"{n} distinct degraded stretch(es), {total:.0f} s in all"
                + (f", of {len(types)} kind(s): {kinds}" if types else "") + ". "
                + _timeline_text([s.to_event() for s in found]))
        return {"answer": text, "choice": choice, "confidence": 0.55,
                "segments": self._segments([s.to_event() for s in found])}

    def _open(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        evs, data = self._found(q, ev, ctx.duration_s)
        if not evs and not q.type:
            evs = ev.all_events()
        where = self._where(q, ctx.duration_s)
        if not evs:
            what = self._what(q)
            text = (f"No {what} was detected {where}{_score_note(data, q.type)}: the "
                    "measurements stay at the video's own baseline, so the picture quality "
                    "there is not degraded by it.")
            return {"answer": text, "choice": None, "confidence": 0.5}
        load = _type_load(evs)
        parts = []
        for t in sorted(load, key=load.get, reverse=True)[:3]:
            these = [e for e in evs if e["type"] == t]
            worst = max(e["severity"] for e in these)
            word = level_word(worst, events_level(these))
            parts.append(
                f"{TYPE_NAMES.get(t, t).capitalize()} ({word}, worst severity "
                f"{worst:.2f}) appears " + "; ".join(
                    f"from {hms(e['start_s'])} to {hms(e['end_s'])}" for e in these[:4])
                + f". It hurts the perceived quality because "
                f"{WHY.get(t, 'it departs from the scene')}."
            )
        total = sum(e["end_s"] - e["start_s"] for e in evs)
        parts.append(f"In all, {len(evs)} degraded span(s) cover {total:.1f} s of "
                     f"{hms(ctx.duration_s)}; the rest of the video stays at its baseline.")
        zoom = ev.get("zoom_in")
        if zoom:
            parts.append(f"A close look measured: {zoom.get('summary', '')}.")
        return {"answer": " ".join(parts), "choice": None, "segments": self._segments(evs),
                "confidence": 0.6}

    def _generic(self, q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
        """Match each option's claims (types, times, trend, level, yes/no) to the facts."""
        evs = ev.all_events()
        if q.window:
            evs = _touching(evs, q.window.start_s, q.window.end_s)
        found = stretches(evs)
        kind, _, _ = self._course(ev, ctx)
        trend = "stable" if kind == "occasional" else kind
        grade, _ = _grade(found, ctx.duration_s)
        types = set(stretch_types(found))
        worst = max((_stretch_level(s) for s in found), default=0.0)
        best, best_score = None, -1e9
        for o in q.options:
            s = 0.0
            for m in o.types:
                s += 1.0 if m.type in types else -1.0
            for w in o.windows:
                hit = any(x.end_s > w.start_s and x.start_s < w.end_s for x in found)
                s += 0.7 if hit else -0.7
            if o.trend:
                s += 1.0 if o.trend == trend else -0.5
            if o.level is not None:
                s += 1.0 - min(abs(o.level - worst), 2.0)
            if o.grade is not None:
                s += 1.0 - min(abs(o.grade - grade), 2.0) / 1.5
            if o.none or (o.no and not o.types):
                s += 1.5 if not found else -1.5
            elif o.yes:
                s += 0.8 if found else -0.8
            if s > best_score:
                best, best_score = o.letter, s
        summary = _timeline_text([x.to_event() for x in found])
        return {"answer": summary, "choice": best if q.options else None,
                "segments": self._segments([x.to_event() for x in found]), "confidence": 0.35}


# ---------------------------------------------------------------- small pure helpers


def _missing_types(q: Question, evs: Sequence[dict[str, Any]]) -> list[str]:
    """The (up to two) distortion types a question names that no event shows."""
    named = list(dict.fromkeys(m.type for m in q.types))[:2]
    found = {e["type"] for e in evs}
    return [t for t in named if t not in found] if len(named) == 2 else []


def _probe_args(etype: str, q: Question, duration: float) -> dict[str, Any]:
    """compare_windows over PROBE_WINDOWS equal parts of the question's window, one type."""
    a, b = (q.window.start_s, q.window.end_s) if q.window else (0.0, duration)
    wins = [[round(a + (b - a) * i / PROBE_WINDOWS, 3), round(a + (b - a) * (i + 1) /
             PROBE_WINDOWS, 3)] for i in range(PROBE_WINDOWS)]
    return {"windows": wins, "type": etype}


def _probed_span(data: dict[str, Any] | None, etype: str) -> tuple[float, float] | None:
    """The window where an undetected type shows most, if it stands out there: its score at
    least a reportable step and twice the median window's."""
    wins = (data or {}).get("windows") or []
    scores = [float(w.get("type_scores", {}).get(etype, 0.0)) for w in wins]
    if len(scores) < 3:
        return None
    k = max(range(len(scores)), key=scores.__getitem__)
    if scores[k] < 1.0 or scores[k] < 2.0 * statistics.median(scores):
        return None
    return float(wins[k]["start_s"]), float(wins[k]["end_s"])


def _question_text(messages: Sequence[BaseMessage]) -> str:
    for m in messages:
        if isinstance(m, HumanMessage):
            text = text_of(m.content)
            found = re.search(r"Question:\s*(.*?)(?:\n\s*\n|\nOptions:|$)", text, re.S)
            return found.group(1).strip() if found else text
    return ""


def _call(name: str, args: dict[str, Any], n: int) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"local-{n}",
                                              "type": "tool_call"}])


def _window_args(w: Any, duration: float, always: bool = False) -> dict[str, float]:
    if w is None:
        return {"start_s": 0.0, "end_s": round(duration, 3)} if always else {}
    return {"start_s": round(w.start_s, 3), "end_s": round(w.end_s, 3)}


def _option_span(o: Option, duration: float) -> tuple[float, float] | None:
    if o.windows:
        return (o.windows[0].start_s, o.windows[0].end_s)
    if WHOLE.search(o.text):
        return (0.0, duration)
    return None


def _option_windows(q: Question, duration: float) -> list[list[float]]:
    spans = [_option_span(o, duration) for o in q.options]
    return [[round(s[0], 3), round(s[1], 3)] for s in spans if s and s[1] > s[0]]


def _zoom_args(e: dict[str, Any], duration: float) -> dict[str, Any]:
    mid = 0.5 * (e["start_s"] + e["end_s"])
    half = min(2.0, 0.5 * (e["end_s"] - e["start_s"]) + 0.5)
    return {"start_s": round(max(0.0, mid - half), 2), "end_s": round(min(duration, mid + half), 2),
            "max_frames": 4}


def _spans_text(evs: Sequence[dict[str, Any]]) -> str:
    return "; ".join(f"{e['type']} {hms(e['start_s'])}-{hms(e['end_s'])} (severity "
                     f"{e['severity']:.2f})" for e in evs[:4])


def _type_load(evs: Sequence[dict[str, Any]]) -> dict[str, float]:
    load: dict[str, float] = {}
    for e in evs:
        load[e["type"]] = load.get(e["type"], 0.0) + e["severity"] * max(
            0.5, e["end_s"] - e["start_s"])
    return load


def _type_grade(evs: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Per type, its worst event's level on the option scale (1..3, on its detector's cuts)
    plus half its severity: levels compare across detectors, raw severities do not."""
    out: dict[str, float] = {}
    for e in evs:
        grade = events_level([e]) + 0.5 * e["severity"]
        out[e["type"]] = max(out.get(e["type"], 0.0), grade)
    return out


# What one degradation is measured as by another type's detector: over-sharpening
# multiplies the grain already in the picture, so the noise detectors read it (9 of the 12
# sharpening needles of four NDQA dev sets; the sharpening detectors found none of them).
READ_AS: dict[str, tuple[str, ...]] = {"sharpening": ("noise",)}


def _read_as(q: Question, evs: Sequence[dict[str, Any]]) -> dict[str, str]:
    """{measured type: named type} for a type the question or its options name, where a type
    it is measured as has events and is named nowhere: the question says the named one is
    there (its own detectors may have caught a glimpse of it), and nothing else named
    explains what was measured."""
    named = {m.type for m in q.types} | {m.type for o in q.options for m in o.types}
    have = {e["type"] for e in evs}
    return {other: t for t in sorted(named) for other in READ_AS.get(t, ())
            if other in have and other not in named}


# Words that name a colour cast specifically (not colour problems in general).
_HUE_WORDS = re.compile(r"\b(hue|cast|tint|tinted)\b", re.I)


def _fits_subtype(m: Mention, e: dict[str, Any]) -> bool:
    """Whether an event can be what a mention names: the two colour detectors measure
    different things (a cast turns the hue, saturation makes colours vivid or faded), so a
    question about one is not answered by the other; other types stay whole (one needle
    often shows on several of their detectors)."""
    if m.type != "colour" or e.get("type") != "colour" or not e.get("subtype"):
        return True
    if m.subtype == "saturation":
        return "saturation" in e["subtype"]
    if _HUE_WORDS.search(m.text):
        return e["subtype"] == "hue shift"
    return True


def _subtypes(evs: Sequence[dict[str, Any]]) -> dict[str, str]:
    """The subtype of each type's worst event."""
    out: dict[str, tuple[float, str]] = {}
    for e in evs:
        if e["severity"] > out.get(e["type"], (-1.0, ""))[0]:
            out[e["type"]] = (e["severity"], e.get("subtype", ""))
    return {t: s for t, (_, s) in out.items()}


def _nearest(options: Sequence[Option], value_of, target: float) -> str | None:
    best, dist = None, float("inf")
    for o in options:
        v = value_of(o)
        if v is None:
            continue
        if abs(v - target) < dist:
            best, dist = o.letter, abs(v - target)
    return best


def _score_note(data: dict[str, Any], etype: str | None) -> str:
    score = data.get("signal_score") if data else None
    if etype and isinstance(score, int | float):
        return (f" (its signal score is {score:.2f}, where 1 is as strong as a reportable event; "
                "events are reported from severity 0.2)")
    return ""


def _timeline_text(evs: Sequence[dict[str, Any]]) -> str:
    if not evs:
        return "No quality events were detected."
    return f"{len(evs)} quality event(s), in order: " + "; ".join(_ev_line(e) for e in evs[:8]) \
        + ("." if len(evs) <= 8 else f"; and {len(evs) - 8} more.")


def _claimed_trend(text: str) -> str | None:
    low = text.lower()
    if re.search(r"\b(worse|degrad\w*|deteriorat\w*|declin\w*|decreas\w* in quality)\b", low):
        return "degrading"
    if re.search(r"\b(better|improv\w*)\b", low):
        return "improving"
    if re.search(r"\b(stable|constant|consistent|same|steady)\b", low):
        return "stable"
    if re.search(r"\b(fluctuat\w*|vary|varies)\b", low):
        return "fluctuating"
    return None


def _touching(evs: Sequence[dict[str, Any]], start_s: float, end_s: float) -> list[dict[str, Any]]:
    """The events that overlap [start_s, end_s) at all."""
    return [e for e in evs if e["end_s"] > start_s and e["start_s"] < end_s]


def _in_window(e: dict[str, Any], w: Window) -> bool:
    """Whether an event is in a window: long enough there, and filling a fair share of the
    window or with a fair share of itself inside (not only running over its edge)."""
    inside = min(e["end_s"], w.end_s) - max(e["start_s"], w.start_s)
    length = max(e["end_s"] - e["start_s"], 1e-6)
    if inside < min(brief_limit(e["type"]), 0.5 * length):
        return False
    return inside >= IN_WINDOW_SHARE * (w.end_s - w.start_s) or inside >= IN_EVENT_SHARE * length


def _typed_windows(q: Question) -> list[tuple[Mention, Window]]:
    """Each window of the question with the distortion named just before it ("the blur from
    1:00 to 1:15 ... the noise at 2:00-2:15"); empty unless two windows and types are named."""
    if len(q.windows) < 2 or not q.types:
        return []
    pairs = []
    for w in q.windows[:2]:
        before = [m for m in q.types if m.pos < w.pos]
        pairs.append((before[-1] if before else q.types[0], w))
    return pairs


def _typed_args(m: Mention, w: Window, duration: float) -> dict[str, Any]:
    """find_events arguments for one named type in one window."""
    return {"type": m.type, **_window_args(w, duration)}


def _claims_less(text: str) -> bool:
    """Whether a comparison asks "is A milder/less than B" rather than "worse"."""
    return bool(re.search(r"\b(less|better|milder|weaker|fewer|lighter)\b", text, re.I))


def _worst_option(cmp: dict[str, Any] | None, opts: Sequence[tuple[Option, Any]]) -> str | None:
    """The option whose window compare_windows ranked worst."""
    if not cmp:
        return None
    wins = cmp.get("windows", [])
    for i in cmp.get("worst_first", []):
        span = (wins[i]["start_s"], wins[i]["end_s"])
        choice = next((o.letter for o, sp in opts if sp and abs(sp[0] - span[0]) < 0.5
                       and abs(sp[1] - span[1]) < 0.5), None)
        if choice:
            return choice
    return None


def _type_sets(q: Question) -> bool:
    """Whether the options are sets of distortion types ("Blur, noise and flicker")."""
    return sum(len({m.type for m in o.types}) >= 2 for o in q.options) >= 2


def _best_set(options: Sequence[Option], present: set[str]) -> str | None:
    """The option whose set of types is closest to the types present (Jaccard)."""
    best, score = None, -1.0
    for o in options:
        claimed = {m.type for m in o.types}
        if not claimed:
            continue
        jac = len(claimed & present) / len(claimed | present)
        if jac > score:
            best, score = o.letter, jac
    return best


_STABILITY_CLAIMS: tuple[tuple[str, str], ...] = (
    ("drifting", r"\b(gradual\w*|one direction|progressive\w*|drift\w*|steadily)\b"),
    ("occasional", r"\b(mostly|isolated|one or two|occasional\w*|a few|rare\w*|brief)\b"),
    ("fluctuating", r"\b(fluctuat\w*|repeated\w*|up and down|alternat\w*|unstable|"
                    r"inconsisten\w*|vary|varies)\b"),
    ("stable", r"\b(stable|consistent|constant|unchanged|steady|no (?:noticeable )?change)\b"),
)


def _stability_claim(text: str) -> str | None:
    """What a stability option claims: stable | occasional | fluctuating | drifting."""
    low = text.lower()
    return next((k for k, pat in _STABILITY_CLAIMS if re.search(pat, low)), None)


def _claim(text: str, types: Sequence[Mention], tl: Timeline, duration: float) -> bool | None:
    """Whether a relation claimed in `text` holds on the timeline (None: no claim found)."""
    low = text.lower()
    ts = [m.type for m in types]
    if len(ts) >= 2 and ts[0] != ts[1]:
        return _pair_claim(low, ts[0], ts[1], tl)
    return _spread_claim(low, tl.stretches, duration)


def _pair_claim(low: str, a: str, b: str, tl: Timeline) -> bool | None:
    """Claims about two types: at the same time, a before b, a after b, apart."""
    if re.search(r"\b(simultaneous\w*|same time|overlap\w*|together|co-?occur\w*|"
                 r"concurrent\w*)\b", low) and not re.search(r"\b(not|never|no)\b", low):
        return tl.together(a, b)
    fa, fb = tl.first(a), tl.first(b)
    if fa is None or fb is None:
        return False
    if re.search(r"\b(before|precede\w*|earlier|first)\b", low):
        return fa < fb
    if re.search(r"\b(after|follow\w*|later)\b", low):
        return fa > fb
    if re.search(r"\b(separate\w*|independent\w*|not overlap|do not overlap|never overlap|"
                 r"apart|isolated)\b", low):
        return not tl.together(a, b)
    return None


def _spread_claim(low: str, found: Sequence[Stretch], duration: float) -> bool | None:
    """Claims about how the degraded stretches are spread (clustered, periodic, single...)."""
    n = len(found)
    spread = (found[-1].end_s - found[0].start_s) / duration if found and duration else 0.0
    gaps = [b.start_s - a.end_s for a, b in zip(found[:-1], found[1:], strict=True)]
    if re.search(r"\b(cluster\w*|close together|concentrated|grouped|bunched|burst)\b", low):
        return n >= 2 and spread < 0.3
    if re.search(r"\b(evenly|spread|distributed|scattered|throughout|uniform\w*|random\w*|"
                 r"independent\w*)\b", low):
        return n >= 2 and spread >= 0.5
    if re.search(r"\b(periodic\w*|regular\w*|repeated at)\b", low):
        if len(gaps) < 2:
            return False
        mean = sum(gaps) / len(gaps)
        return mean > 0 and (max(gaps) - min(gaps)) < 0.3 * mean
    if re.search(r"\b(single|only one|one event|isolated)\b", low):
        return n == 1
    if re.search(r"\b(no (?:distortion|event|artifact)s?|none)\b", low):
        return n == 0
    return None


def _grade(found: Sequence[Stretch], duration: float) -> tuple[float, str]:
    """1 (bad) .. 5 (excellent) from the level-weighted share of the viewing impaired."""
    weighted = sum(LEVEL_WEIGHTS[int(_stretch_level(s)) - 1] * s.duration_s for s in found)
    share = weighted / max(duration, 1e-6)
    grade = 5.0 if not found else next((g for cut, g in GRADE_CUTS if share <= cut), 2.0)
    detail = (f"{len(found)} degraded stretch(es), worst severity "
              f"{max((s.severity for s in found), default=0.0):.2f}, level-weighted "
              f"{100 * share:.0f}% of the viewing impaired")
    return grade, detail


def _stretch_level(s: Stretch) -> float:
    """A stretch's level (1 mild .. 3 severe) on its primary detector's cuts: the same words
    a severity question gets (raw severities do not compare across detectors)."""
    return events_level([s.to_event()])
