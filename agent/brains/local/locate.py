"""Where a distortion is, and whether it is there at all (LQU localisation and detection)."""

from __future__ import annotations

import re
from typing import Any

from agent.brains.local.claims import (
    also_outside,
    coder_note,
    extent_answer,
    in_named_place,
    kinds_answer,
    level_claim,
    share_answer,
)
from agent.brains.local.common import (
    agree,
    both_option,
    by_length,
    by_order,
    by_type,
    ev_line,
    iou,
    level_yes,
    nearest,
    none_option,
    option_seconds,
    option_span,
    score_note,
    segments,
    spans_text,
    subtypes,
    type_load,
    what,
    where,
    which_prefix,
    worst_option,
    yes_no,
)
from agent.brains.local.course import judges_quality, overall
from agent.brains.local.durations import same_length, same_strength
from agent.brains.local.evidence import (
    Evidence,
    fits_subtype,
    found,
    in_question_window,
    near_vague_part,
    other_kind,
)
from agent.brains.local.levels import events_level, probed_level
from agent.brains.local.several import distinct_defects, each_type, located_each
from agent.brains.stretches import split_lasting, stretches
from agent.context import RunContext
from agent.questions import BY_LENGTH, Question, back_reference, rank_event, type_name
from agent.timefmt import hms
from agent.times import unit_length

# "When" answers keep events at least this fraction of the worst one's severity.
WEAK_FRACTION = 0.5


_UNIT_NAMES = {1.0: "second", 60.0: "minute", 3600.0: "hour"}
# "How far in does it end?": the option offsets are read against the end.
_ENDS = re.compile(r"\b(?:end|ends|ended|ending|stop|stops|stopped|finish|finishes|"
                   r"finished|over)\b", re.IGNORECASE)
# "At what time does the blur end?" over options that are moments: the moment nearest its end
# ("the end" of the video is a place, not the event's end).
_END_POINT = re.compile(r"(?<!the )(?<!the very )\b(?:end|ends|ended|ending|stop|stops|stopped|"
                        r"finish|finishes|finished|disappears?|disappeared|vanish\w*|goes away|"
                        r"go away|clears? up|recover\w*|is over|are over|subsides?|fades? "
                        r"away|wears? off)\b", re.IGNORECASE)
# A question asking for all of them ("list every problem", "all the times it ...").
_ALL_ASKED = re.compile(r"^\s*(?:please\s+)?(?:list|enumerate)\b|\b(?:all|every|each|everything)\b",
                        re.IGNORECASE)


# "from shortest to longest", "sorted by length": every event, in that order
_BY_LENGTH_ORDER = re.compile(r"\bfrom\s+(?:the\s+)?(shortest|longest)\s+to\s+(?:the\s+)?"
                              r"(?:longest|shortest)\b|\b(?:sorted|ordered|ranked|order)\s+by\s+"
                              r"(?:length|duration)\b", re.I)


def localization(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The clear spans of the named distortion (weaker and brief ones named apart); for "when
    is the picture sharp / the quality best?", the stretches free of it."""
    if not q.options and not q.ranks and not q.least and len(distinct_defects(q)) >= 2:
        return located_each(q, ev, ctx, localization)  # "when do the noise and the blur occur?"
    evs_all, data = found(q, ev, ctx.duration_s)
    if q.least:
        return free_answer(q, evs_all, ctx)
    groups, brief = split_lasting(evs_all)
    top = max((g["severity"] for g in groups), default=0.0)
    evs = [g for g in groups if g["severity"] >= WEAK_FRACTION * top]  # the clear ones
    if _ALL_ASKED.search(q.text):  # "list every problem": each lasting one, however mild
        evs = groups
    weak = [g for g in groups if g not in evs] + brief
    if q.least_s is not None or q.most_s is not None:  # "when does it freeze for over 5 s?"
        evs, weak = q.lasting(groups + brief), []
    missing = ""
    if len(q.ranks) == 1 and groups:  # "when does the second freeze happen?"
        one = rank_event(groups, *q.ranks[0])
        if one:
            evs, weak = [one], []
        else:
            etype = q.ranks[0][1]
            n = sum(g["type"] == etype for g in groups)
            missing = f"There are only {n} lasting {type_name(etype)} event(s). "
    sort_by_length = _BY_LENGTH_ORDER.search(q.text)
    one = None if sort_by_length else by_length(q.text, groups)
    picked = ""
    if sort_by_length and groups:  # "list the freezes from shortest to longest": all, so sorted
        longest_first = sort_by_length.group(1) and sort_by_length.group(1).lower() == "longest"
        evs = sorted(groups, key=lambda g: g["end_s"] - g["start_s"], reverse=bool(longest_first))
        weak = []
        picked = " By length: " + "; ".join(
            f"{hms(g['start_s'])}-{hms(g['end_s'])} ({g['end_s'] - g['start_s']:.1f} s)"
            for g in evs) + "."
    ordered = None if (q.ranks or q.windows or one) else by_order(q.text, groups)
    if ordered:  # "when do the errors first appear?": the earliest alone
        evs, weak = [ordered[0]], []
        picked = f" It is the {ordered[1]} of {len(groups)}." if len(groups) > 1 else ""
    if one:  # "which freeze is the longest?": that one alone
        n_of = sum(g["type"] == one["type"] for g in groups)
        picked = (f" It lasts {one['end_s'] - one['start_s']:.1f} s, the "
                  f"{BY_LENGTH.search(q.text).group(1).lower()} of {n_of}.")
        evs, weak = [one], []
    name = what(q)
    choice, conf, guessed = None, 0.8 if evs else 0.6, None
    if one and q.options and all(back_reference(o.text) is not None for o in q.options):
        # "which stop is the longest? the first / the second / the third": its place in turn
        same = sorted((g for g in groups if g["type"] == one["type"]), key=lambda g: g["start_s"])
        at = same.index(one)
        choice = next((o.letter for o in q.options
                       if back_reference(o.text) in (at, at - len(same))), None)
    opts = [(o, option_span(o, ctx.duration_s)) for o in q.options]
    spans = [(e["start_s"], e["end_s"]) for e in evs]
    kin = other_kind(q, ev, ctx.duration_s)  # the named type's events of another kind
    if q.options and choice is None:
        if evs:
            scored = [(iou(sp, spans), o.letter) for o, sp in opts if sp]
            if scored and max(scored)[0] > 0:
                best, choice = max(scored)
                conf = min(0.95, 0.4 + best)
            both = both_option(q, opts, evs)
            if both:  # "first half / second half / both": it is in each of the windows
                choice, conf = both, 0.7
            moments = _moments(q, evs)
            if moments:  # options that are moments: the one nearest an onset (or an end)
                choice = nearest(q.options, lambda o: min(
                    abs(sum(o.windows[0].span) / 2 - m) for m in moments), 0.0)
                conf = 0.7
        else:
            choice = none_option(q)
        if choice is None and evs and all((o.durations or o.numbers) and not sp
                                          for o, sp in opts):
            # "how far into the video does it start? about 5 / 12 / 20 minutes": offsets
            # (bare numbers in the question's unit: "how many minutes in? about 5 / 22")
            at = (max(e["end_s"] for e in evs) if _ENDS.search(q.text)
                  else min(e["start_s"] for e in evs))
            choice = nearest(q.options, lambda o: option_seconds(q, o), at)
            conf = 0.7
        if choice is None and kin:
            # "when is the hue shifted?" over a colour event measured as oversaturation
            scored = [(iou(sp, [(e["start_s"], e["end_s"]) for e in kin]), o.letter)
                      for o, sp in opts if sp]
            if scored and max(scored)[0] > 0:
                choice, conf = max(scored)[1], 0.4
        if choice is None:
            choice = guessed = worst_option(ev.get("compare_windows"), opts)
            conf = 0.3
    if evs:
        text = missing + f"{name.capitalize()} {agree(name, 'occurs', 'occur')} " + "; ".join(
            f"from {hms(e['start_s'])} to {hms(e['end_s'])} ({which_prefix(q, e)}severity "
            f"{e['severity']:.2f})" for e in evs[:8]) + "." + picked
        if len(evs) > 8:
            text += f" ({len(evs)} spans in all.)"
        unit = unit_length(q.text)
        if unit and unit in _UNIT_NAMES:  # "in which minute ...?": the minutes it falls in
            first, last = (int(evs[0]["start_s"] // unit) + 1,
                           int(max(e["end_s"] for e in evs) // unit) + 1)
            word = _UNIT_NAMES[unit]
            text += (f" That is in {word} {first} of the video" if first == last else
                     f" That is in {word}s {first} to {last} of the video") + (
                f" (counting from {word} 1 at 00:00:00.0).")
        if weak:
            text += " Weaker or brief candidates: " + spans_text(weak) + "."
    else:
        missed = f"{name} ({q.types[0].subtype})" if kin else name  # "(hue shift)"
        text = (f"No {missed} {agree(name, 'was', 'were')} detected "
                f"{where(q, ctx.duration_s)}{score_note(data, q.type)}.")
        if brief:
            text += (" Only brief candidates (too short to be a lasting degradation): "
                     + spans_text(brief) + ".")
        text += coder_note(q, ev, ctx.duration_s)
        if kin:
            text += (f" The {type_name(q.type)} found {agree(type_name(q.type), 'is', 'are')}"
                     " of another kind: "
                     + "; ".join(f"{e.get('subtype') or type_name(q.type)} from "
                                 f"{hms(e['start_s'])} to {hms(e['end_s'])} (severity "
                                 f"{e['severity']:.2f})" for e in kin[:4]) + ".")
    if guessed:  # the letter does not come from what the text reports: say so
        text += (f" Option {guessed} is a guess: "
                 + ("none of the options holds what was found; " if evs else "")
                 + f"of the options' windows, its measurements are the worst for {name}.")
    return {"answer": text, "choice": choice, "segments": segments(evs), "confidence": conf}


def _timed_yes(q: Question, evs: list[dict[str, Any]]) -> str | None:
    """Of several yes options that each name a time ("Yes, around 2:00"), the one nearest
    the events found (None unless there are two or more)."""
    timed = [o for o in q.options if o.yes and not o.no and o.windows]
    if len(timed) < 2 or not evs:
        return None

    def gap(o: Any) -> float:
        a, b = o.windows[0].span
        return min(max(0.0, e["start_s"] - b, a - e["end_s"]) for e in evs)
    return min(timed, key=gap).letter


def _moments(q: Question, evs: list[dict[str, Any]]) -> list[float]:
    """When every option is a moment ("0:45", "at 1:08"), the moments asked for: the events'
    ends when the question asks when it ends, else their onsets (moments inside one event
    tie on overlap, and "when does it start?" names the first)."""
    if not q.options or not all(o.windows and all(w.point for w in o.windows)
                                for o in q.options):
        return []
    return [e["end_s" if _END_POINT.search(q.text) else "start_s"] for e in evs]


def free_answer(q: Question, evs: list[dict[str, Any]], ctx: RunContext) -> dict[str, Any]:
    """Where the named distortion (any, when none is named) is absent: the gaps between its
    events in the question's window, longest first; an option is chosen by the least of it."""
    lo, hi = q.scope(ctx.duration_s)
    gaps = free_spans([(e["start_s"], e["end_s"]) for e in evs], lo, hi)
    name = what(q) if q.type else "any quality distortion"
    choice = None
    spans = [(o, option_span(o, ctx.duration_s)) for o in q.options]
    load = [(covered(sp, evs), o.letter) for o, sp in spans if sp]
    if load:
        choice = min(load)[1]
    if not evs:
        text = (f"Throughout: no {name} {agree(name, 'was', 'were')} detected "
                f"{where(q, ctx.duration_s)}.")
    elif not gaps:
        text = (f"Nowhere: {name} covers all of {hms(lo)}-{hms(hi)}: "
                + spans_text(evs) + ".")
    else:
        longest = sorted(gaps, key=lambda g: g[0] - g[1])[:5]
        text = (f"Free of {name}: " + "; ".join(f"{hms(a)} to {hms(b)}" for a, b in longest)
                + (f" ({len(gaps)} stretches, the longest first)" if len(gaps) > 1 else "")
                + (f". {name.capitalize()} was found at " if q.type else
                   ". Degraded stretches: ") + spans_text(evs) + ".")
    return {"answer": text, "choice": choice,
            "segments": [{"start_s": a, "end_s": b, "label": f"free of {name}",
                          "severity": 0.0} for a, b in gaps[:8]],
            "confidence": 0.7 if choice or not q.options else 0.4}


def free_spans(spans: list[tuple[float, float]], lo: float, hi: float,
               least_s: float = 1.0) -> list[tuple[float, float]]:
    """The parts of [lo, hi] outside every span, at least `least_s` long."""
    out, t = [], lo
    for a, b in sorted(spans):
        if a - t >= least_s:
            out.append((t, min(a, hi)))
        t = max(t, b)
        if t >= hi:
            break
    if hi - t >= least_s:
        out.append((t, hi))
    return [(a, b) for a, b in out if b - a >= least_s]


def covered(span: tuple[float, float], evs: list[dict[str, Any]]) -> float:
    """The share of `span` that events cover, weighted by their severity."""
    a, b = span
    if b <= a:
        return 1.0
    return sum(max(0.0, min(b, e["end_s"]) - max(a, e["start_s"])) * float(e.get("severity", 1.0))
               for e in evs) / (b - a)


def detection(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """Whether the named distortion is there (in the window, at the instant)."""
    if not q.types and not q.window and judges_quality(q):
        return overall(q, ev, ctx)  # "is the video OK to publish as is?": its grade decides
    if (shared := share_answer(q, ev, ctx) or extent_answer(q, ev, ctx)
            or kinds_answer(q, ev, ctx) or same_length(q, ev)
            or same_strength(q, ev)) is not None:
        return shared
    if (placed := in_named_place(q, ev)) is not None:
        return placed
    if len({m.type for m in q.types}) >= 2 and not (q.ranks or q.count or q.bound_text):
        return each_type(q, ev, ctx)
    evs_all, data = found(q, ev, ctx.duration_s)
    evs, brief = split_lasting(evs_all)
    if q.ranks and evs:  # "is the first freeze longer than 5 s?"
        evs = q.ranked(evs)
    if q.least_s is not None or q.most_s is not None:  # "freezes longer than 5 s?"
        evs, brief = q.lasting(evs + brief), []
    evs = in_question_window(q, evs)
    near = not evs
    if not evs:  # "at the end": one ending just before it too
        evs = near_vague_part(q, ev)
    probed = not evs and q.window is not None and probed_level(q.type, data) > 0 \
        and not q.bound_text and not q.count
    present = bool(evs) or probed
    if q.count:  # "does it freeze more than twice?": the count decides
        op, n = q.count
        if q.type is None:  # "more than two separate problems?": detectors firing together
            evs = [st.primary for st in stretches(evs)] or evs  # on one defect are one
        k = len(evs)
        present = {"gt": k > n, "ge": k >= n, "lt": k < n, "le": k <= n}[op]
    base = what(q)
    name, span = base + q.bound_text, where(q, ctx.duration_s)
    if near and evs:  # found just outside the words' part: said so, not placed inside it
        span = (f"near the part asked about ({hms(q.window.start_s)}-"
                f"{hms(q.window.end_s)})")
    elsewhere = also_outside(q, split_lasting(ev.all_events())[0]) if present else []
    if elsewhere:  # "is the flicker only in the first half?": not when it is also outside
        present = False
    choice = yes_no(q, present != q.absent)  # "is it free of blur?": yes when absent
    if present and not q.absent and (at_level := level_yes(q, events_level(evs))):
        choice = at_level  # "absent / present, mild / present, severe": how much, too
    if present and not q.absent and (timed := _timed_yes(q, evs)):
        choice = timed  # "yes, around 0:50" / "yes, around 2:00": the one at the event
    if choice is None and q.options:
        if present:
            choice, _ = by_type(q, type_load(evs), subtypes(evs))
        else:
            choice = none_option(q)
    yes, no = ("No", "Yes") if q.absent else ("Yes", "No")  # "is it sharp?" asks for none
    if q.unknown and not q.types and not q.options:  # "was the launch a success?": no yes
        yes = no = "What I can measure"  # or no to a question it could not read
    if probed:
        text = (f"{yes}: {name} {agree(base, 'shows', 'show')} {span}, though too weakly "
                "for an event of its own: its signal there is "
                f"{data.get('signal_score', 0):.2f} of an event's, far above what clean "
                "windows reach.")
    elif elsewhere:
        text = (f"{no}: {name} {agree(base, 'is', 'are')} present {span}, but not only there: "
                "also " + "; ".join(ev_line(e) for e in elsewhere[:4]) + ".")
    elif q.count:
        text = (f"{yes if present else no}: {len(evs)} lasting {name} event(s) {span}"
                + (": " + "; ".join(ev_line(e) for e in evs[:5]) if evs else "") + ".")
    elif present and (said := level_claim(q, evs)):  # "would you call it severe?"
        text, holds = said
        if q.options:
            choice = yes_no(q, holds)
    elif present:
        text = f"{yes}: {name} {agree(base, 'is', 'are')} present {span}: " + "; ".join(
            ev_line(e) for e in evs[:5])
    else:
        text = (f"{no}: no {name} {agree(base, 'was', 'were')} detected {span}"
                f"{score_note(data, q.type)}.")
        if brief:
            text += " Only brief candidates: " + spans_text(brief) + "."
        text += coder_note(q, ev, ctx.duration_s) or nearest_note(q, ev)
    return {"answer": text, "choice": choice, "segments": segments(evs),
            "confidence": 0.8 if present else 0.5 if brief else 0.7}


def nearest_note(q: Question, ev: Evidence) -> str:
    """For a window found clean: a lasting event of the asked type only running over its edge,
    or where the nearest one is, when there is one elsewhere ("at the end?" of a video
    degraded just before its end)."""
    w = q.window
    if w is None:
        return ""
    lasting, _ = split_lasting(ev.all_events())
    mine = [e for e in lasting if q.type is None or e["type"] == q.type]
    edge = [e for e in mine if e["end_s"] > w.start_s and e["start_s"] < w.end_s]
    if edge:  # one only running over the window's edge: most of it lies outside
        e = edge[0]
        inside = min(e["end_s"], w.end_s) - max(e["start_s"], w.start_s)
        name = type_name(e["type"])
        if q.types and not fits_subtype(q.types[0], e) and inside >= 0.5 * (e["end_s"]
                                                                          - e["start_s"]):
            # "is the first minute too dark?" over a picture made too bright there
            return (f" The {name} there {agree(name, 'is', 'are')} of another kind: "
                    f"{e.get('subtype') or name} ({hms(e['start_s'])}-{hms(e['end_s'])}, "
                    f"severity {e['severity']:.2f}), not {q.types[0].subtype}.")
        return (f" Only {inside:.1f} s of a {e['end_s'] - e['start_s']:.1f}-s stretch of {name} "
                f"({hms(e['start_s'])}-{hms(e['end_s'])}, severity {e['severity']:.2f}) fall "
                "inside the window.")
    outside = [e for e in mine if e["end_s"] <= w.start_s or e["start_s"] >= w.end_s]
    if not outside:
        return ""
    def gap(e: dict[str, Any]) -> float:
        return w.start_s - e["end_s"] if e["end_s"] <= w.start_s else e["start_s"] - w.end_s
    e = min(outside, key=gap)
    side = "before" if e["end_s"] <= w.start_s else "after"
    name = type_name(e["type"])
    return (f" The nearest {name} {agree(name, 'is', 'are')} at "
            f"{hms(e['start_s'])}-{hms(e['end_s'])} (severity {e['severity']:.2f}), "
            f"{hms(gap(e))} {side} that window.")
