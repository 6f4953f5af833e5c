"""In what order distortions come, and how they are spread (CQR temporal relation)."""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from typing import Any

from agent.brains.local.common import (
    agree,
    asks_whether,
    nearest,
    option_seconds,
    segments,
    timeline_text,
    yes_no,
)
from agent.brains.local.durations import gap_of_one_type
from agent.brains.local.evidence import Evidence, same_defect_types
from agent.brains.local.levels import PROBE_WINDOWS, REPORT_FLOOR
from agent.brains.local.spread import SPREAD_WORDS, gaps, spread_claim, spread_text
from agent.brains.stretches import Stretch, Timeline
from agent.context import RunContext
from agent.distortions import praised
from agent.questions import Mention, Question, type_name
from agent.timefmt import hms
from agent.times import ORDINALS, Window

# "Right after" / "immediately before": the second stretch starts within this many seconds of
# the first one's end (event edges are placed to within a second or two: samples every 0.5 s
# and running medians of a few of them).
NEXT_TO_S = 5.0
_NEXT_TO = re.compile(r"\b(?:right|immediately|directly|straight|just)\s+(after|before)\b")


def missing_types(q: Question, evs: Sequence[dict[str, Any]]) -> list[str]:
    """The (up to two) distortion types a question names that no event shows."""
    named = list(dict.fromkeys(same_defect_types(q.types)))[:2]
    found = {e["type"] for e in evs}
    return [t for t in named if t not in found] if len(named) == 2 else []


def probe_args(etype: str, q: Question, duration: float) -> dict[str, Any]:
    """compare_windows over PROBE_WINDOWS equal parts of the question's window, one type."""
    a, b = q.scope(duration)
    wins = [[round(a + (b - a) * i / PROBE_WINDOWS, 3), round(a + (b - a) * (i + 1) /
             PROBE_WINDOWS, 3)] for i in range(PROBE_WINDOWS)]
    return {"windows": wins, "type": etype}


def probed_span(data: dict[str, Any] | None, etype: str) -> tuple[float, float] | None:
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


def temporal_relation(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The order of the named types, or whether a claimed relation or spread holds."""
    if (gap := gap_of_one_type(q, ev)) is not None:
        return gap  # "what is the gap between the two damaged stretches?"
    evs = ev.all_events()
    for m in missing_types(q, evs):
        probe = probed_span(ev.get("compare_windows", probe_args(m, q, ctx.duration_s)), m)
        if probe:
            evs = [*evs, {"type": m, "subtype": "probed", "start_s": probe[0],
                          "end_s": probe[1], "severity": REPORT_FLOOR}]
    tl = Timeline(sorted(evs, key=lambda e: (e["start_s"], e["type"])))
    text = timeline_text([s.to_event() for s in tl.stretches] or tl.events)
    ts = list(dict.fromkeys(same_defect_types(q.types)))
    points = [w for w in q.windows if w.point] or _side_points(q)
    if len(ts) > 2 and not q.options and _ENDS.search(q.text):  # "which of A, B, C is last?"
        text = ends_text(q.text, ts, tl) + " " + text
    elif len(ts) >= 2:  # two named types: say how they relate first
        text = pair_text(q, ts[0], ts[1], tl, ctx.duration_s) + " " + text
        gap = pair_gap(tl, ts[0], ts[1])
        if gap is not None and _timed_options(q):  # "how long after ...?"
            return _by_duration(q, text, tl, gap)
    elif len(ts) == 1 and len(points) == 1:  # "before or after 1:30?"
        w = points[0]
        said, side = instant_text(q.text, ts[0], tl, (w.start_s + w.end_s) / 2)
        text = said + " " + text
        asked = asked_side(q.text)
        if q.options and any(o.yes or o.no for o in q.options) and asked:
            return {"answer": text, "segments": segments(tl.events), "confidence": 0.7,
                    "choice": yes_no(q, side == asked)}  # "is it before the 1:30 mark?"
        if side == "both":  # across the instant: the side most of it lies on
            t = (w.start_s + w.end_s) / 2
            spans = tl.spans(ts[0])
            early = sum(max(0.0, min(y, t) - x) for x, y in spans)
            late = sum(max(0.0, y - max(x, t)) for x, y in spans)
            side = "before" if early >= late else "after"
            text += f" Most of it ({max(early, late):.0f} of {early + late:.0f} s) lies {side}."
        if q.options and side and not any(o.yes or o.no for o in q.options):
            choice_ = next((o.letter for o in q.options
                            if re.search(rf"\b{side}\b", o.text, re.I)), None)
            if choice_:
                return {"answer": text, "choice": choice_, "segments": segments(tl.events),
                        "confidence": 0.7}
    elif len(ts) == 1 and (between := between_nth_text(q.text, ts[0], tl)
                           or until_next_text(q.text, ts[0], tl)):
        text = between[0] + " " + text
        if q.options and between[1] is not None and _timed_options(q):
            return _by_duration(q, text, tl, between[1])
    elif not ts and tl.stretches and (not q.options or _GAP.search(q.text)):
        text = unnamed_text(q.text, tl.stretches, ctx.duration_s) + text  # their own order
        first_gap = gaps(tl.stretches)[:1]
        if first_gap and _GAP.search(q.text) and _timed_options(q):
            return _by_duration(q, text, tl, first_gap[0])
    choice, conf = None, 0.5
    nth = _NTH_COMES.search(q.text)
    if q.options and nth and all(o.types for o in q.options):  # "which comes second?"
        kinds = list(dict.fromkeys(st.type for st in tl.stretches))
        k = ORDINALS[nth.group(1).lower()]
        if len(kinds) >= k:
            choice = next((o.letter for o in q.options if o.types[0].type == kinds[k - 1]),
                          None)
            return {"answer": f"The {ORDINAL_NAMES[k]} distortion to appear is "
                    f"{type_name(kinds[k - 1])}. " + text, "choice": choice,
                    "segments": segments(tl.events), "confidence": 0.6}
    if q.options:
        # an option naming a virtue ("sharpness") stands for the defect that takes it away
        named = {o.letter: (o.types or praised(o.text))[:1] for o in q.options}
        typed = [o for o in q.options if named[o.letter]]
        rest = [o for o in q.options if not named[o.letter]]
        if len(typed) >= 2 and _ENDS.search(q.text) and all(
                _SAME_TIME.search(o.text) or o.none for o in rest):
            # "which comes first, A or B?" beside "they happen at the same time" / "neither"
            late = bool(_LATE.search(q.text))
            pick = tl.earliest((named[o.letter][0].type for o in typed), late)
            choice = next((o.letter for o in typed if named[o.letter][0].type == pick), None)
            same = next((o.letter for o in rest if _SAME_TIME.search(o.text)), None)
            starts = [tl.first(named[o.letter][0].type) for o in typed]
            if same and None not in starts and max(starts) - min(starts) < SAME_START_S:
                choice = same
            elif pick is None:
                choice = next((o.letter for o in rest if o.none), None)
        else:
            claim_ = claim(q.text, q.types, tl, ctx.duration_s)
            if claim_ is not None and any(o.yes or o.no for o in q.options):
                choice = yes_no(q, claim_)
            else:
                scores = [(claim(o.text, o.types or q.types, tl, ctx.duration_s), o)
                          for o in q.options]
                trues = [o for s, o in scores if s is True]
                if trues:
                    choice, conf = trues[0].letter, 0.6 if len(trues) == 1 else 0.35
    return {"answer": text, "choice": choice, "segments": segments(tl.events),
            "confidence": conf}


# "how many seconds / minutes ...?": options of bare numbers are times in that unit
_ASKS_TIME = re.compile(r"\bhow (?:long|much time|many (?:seconds|secs|minutes|mins))\b|"
                        r"\bin (?:seconds|secs|minutes|mins)\b|\b(?:gap|interval|pause|apart)\b",
                        re.I)


def _timed_options(q: Question) -> bool:
    """Whether the options are times: durations, or bare numbers to a question asking time."""
    return any(o.durations for o in q.options) or bool(
        q.options and _ASKS_TIME.search(q.text) and all(o.numbers for o in q.options))


def _by_duration(q: Question, text: str, tl: Timeline, seconds: float) -> dict[str, Any]:
    """The answer with the option whose time is nearest the time measured."""
    return {"answer": text, "segments": segments(tl.events), "confidence": 0.6,
            "choice": nearest(q.options, lambda o: option_seconds(q, o), seconds)}


def _side_points(q: Question) -> list[Window]:
    """"Before minute 15", "after the first minute": a window named just after "before"
    ("after") stands for its start (end), an instant; empty unless the question names one
    window so."""
    if len(q.windows) != 1:
        return []
    w = q.windows[0]
    m = re.search(r"\b(before|until|till|prior to|after|since|past|following)\s+(?:the\s+)?$",
                  q.text[:w.pos], re.I)
    if not m:
        return []
    t = w.start_s if m.group(1).lower() in ("before", "until", "till", "prior to") else w.end_s
    return [Window(t - 0.5, t + 0.5, w.label, True, w.pos)]


def asked_side(text: str) -> str | None:
    """"before" or "after", when the question names just one side of an instant."""
    asked = {w.lower() for w in re.findall(r"\b(before|after)\b", text, re.I)}
    return asked.pop() if len(asked) == 1 else None


_ENDS = re.compile(r"\b(first|earlie\w*|last|latest|later|final)\b", re.I)
_LATE = re.compile(r"\b(last|latest|later|final)\b", re.I)
# an option saying two defects start together; starts this close count as together
_SAME_TIME = re.compile(r"\b(same time|simultaneous\w*|together|at once|concurrent\w*|"
                        r"overlap\w*)\b", re.I)
SAME_START_S = 2.0
# "Which problem comes second?": the type of the n-th degraded stretch, in time order.
_NTH_COMES = re.compile(r"\b(?:comes?|appears?|occurs?|happens?|shows? up|starts?|begins?)\s+"
                        r"(second|third|fourth|fifth|2nd|3rd|4th|5th)\b", re.I)
ORDINAL_NAMES = {2: "second", 3: "third", 4: "fourth", 5: "fifth"}


def ends_text(text: str, types: Sequence[str], tl: Timeline) -> str:
    """Which of three or more named types comes first (or last), and which were not found."""
    late = bool(_LATE.search(text))
    pick = tl.earliest(types, late)
    gone = [type_name(t) for t in types if tl.first(t) is None]
    tail = f" No {' and no '.join(gone)} was found." if gone else ""
    if pick is None:
        return f"None of them was found.{tail}"
    name = type_name(pick)
    when = (f"it ends at {hms(max(b for _, b in tl.spans(pick)))}" if late else
            f"from {hms(tl.first(pick))}")
    return (f"The {name} {agree(name, 'comes', 'come')} {'last' if late else 'first'} "
            f"({when}).{tail}")


def unnamed_text(text: str, found: Sequence[Stretch], duration: float) -> str:
    """For questions naming no type: the first (last) degraded stretch, or the gaps between
    consecutive ones ("how far apart are the two problems?"); "" when it asks neither."""
    evs = sorted((st.to_event() for st in found), key=lambda e: e["start_s"])
    if _GAP.search(text) and len(evs) >= 2:
        def gap(a: dict[str, Any], b: dict[str, Any]) -> str:
            na, nb = type_name(a["type"]), type_name(b["type"])
            return (f"the {na} {agree(na, 'ends', 'end')} at {hms(a['end_s'])}, the {nb} "
                    f"{agree(nb, 'starts', 'start')} at {hms(b['start_s'])}: "
                    f"{hms(max(0.0, b['start_s'] - a['end_s']))} apart")
        text = "; ".join(gap(a, b) for a, b in zip(evs, evs[1:], strict=False))
        return text[0].upper() + text[1:] + ". "
    if SPREAD_WORDS.search(text):  # "are the problems spread evenly or clustered?"
        return spread_text(found, duration)
    m = _ENDS.search(text)
    if not m:
        return ""
    late = bool(_LATE.fullmatch(m.group(1)))
    e = max(evs, key=lambda e: e["start_s"]) if late else evs[0]
    return (f"The {'last' if late else 'first'} problem is {type_name(e['type'])}"
            + (f" ({e['subtype']})" if e.get("subtype") else "")
            + f", from {hms(e['start_s'])} to {hms(e['end_s'])}. ")


# "How far apart are the two problems?", "how many seconds separate them?"
_GAP = re.compile(r"\b(apart|gaps?|between|separates|separated|separating)\b|"
                  r"\b(?:seconds?|minutes?|time|long|what)\s+separate\b", re.I)
_BETWEEN_NTH = re.compile(r"\bbetween\s+the\s+(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)"
                          r"\s+(?:[\w-]+\s+)?(?:and|&)\s+(?:the\s+)?(second|third|fourth|fifth|"
                          r"2nd|3rd|4th|5th|last|final|next)\b", re.IGNORECASE)


def between_nth_text(text: str, etype: str, tl: Timeline) -> tuple[str, float | None] | None:
    """"How long between the first and the last freeze?": the time from the end of one
    ranked event of the type to the start of the other, and that time (None if missing)."""
    m = _BETWEEN_NTH.search(text)
    if not m:
        return None
    spans = sorted(tl.spans(etype))
    r1 = ORDINALS[m.group(1).lower()]
    w2 = m.group(2).lower()
    r2 = r1 + 1 if w2 == "next" else -1 if w2 in ("last", "final") else ORDINALS[w2]
    i1, i2 = r1 - 1, (r2 - 1 if r2 > 0 else len(spans) - 1)
    name = type_name(etype)
    if len(spans) < 2 or not 0 <= i1 < i2 < len(spans):
        return (f"Only {len(spans)} {name} event(s) were found, so there is no time between "
                f"the {m.group(1)} and the {m.group(2)}.", None)
    (a0, a1), (b0, _) = spans[i1], spans[i2]
    return (f"From the end of the {m.group(1)} {name} ({hms(a1)}) to the start of the "
            f"{m.group(2)} ({hms(b0)}): {hms(b0 - a1)} ({hms(b0 - a0)} from start to start).",
            b0 - a1)


# "After the blur ends, how long until the next problem?": from its end to the next start.
_UNTIL_NEXT = re.compile(r"\b(?:how long|how much time|how many seconds|time)\b.{0,80}"
                         r"\bnext\b|\bnext\b.{0,40}\b(?:how long|how soon)\b", re.I)


def pair_gap(tl: Timeline, a: str, b: str) -> float | None:
    """Seconds from the end of a's first stretch to the start of the first b after it (None
    when either is missing or b never follows)."""
    sa, sb = sorted(tl.spans(a)), sorted(tl.spans(b))
    if not sa:
        return None
    later = [s0 for s0, _ in sb if s0 >= sa[0][1] - 0.5]
    return max(0.0, later[0] - sa[0][1]) if later else None


def until_next_text(text: str, etype: str, tl: Timeline) -> tuple[str, float | None] | None:
    """"How long after the blur ends does the next problem start?": the time from the end of
    the type's first stretch to the start of the next one of any type (None if none)."""
    if not _UNTIL_NEXT.search(text):
        return None
    spans = sorted(tl.spans(etype))
    name = type_name(etype)
    if not spans:
        return f"No {name} was found, so nothing comes after it.", None
    a0, a1 = spans[0]
    later = sorted((s.start_s, s.type) for s in tl.stretches if s.start_s >= a1 - 0.5
                   and abs(s.start_s - a0) > 0.5)
    if not later:
        return f"Nothing follows the {name} that ends at {hms(a1)}.", None
    b0, btype = later[0]
    gap = max(0.0, b0 - a1)
    return (f"The {name} ends at {hms(a1)}; the next problem, {type_name(btype)}, starts at "
            f"{hms(b0)}: {gap:.1f} s later.", gap)


def instant_text(text: str, etype: str, tl: Timeline, t: float) -> tuple[str, str | None]:
    """Where a named type lies against one instant ("before or after the 1:30 mark?"): its
    spans before, after or across it, in words (a yes/no question naming one side gets its
    answer first), and the side ("before", "after", "both"; None when none is found)."""
    name, spans = type_name(etype), tl.spans(etype)
    if not spans:
        return f"No {name} was found, so it is neither before nor after {hms(t)}.", None
    before = [sp for sp in spans if sp[1] <= t]
    after = [sp for sp in spans if sp[0] >= t]
    side = "after" if len(after) == len(spans) else "before" if len(before) == len(spans) \
        else None
    if side == "after":
        a = min(x for x, _ in after)
        out = (f"After {hms(t)}: the {name} {agree(name, 'starts', 'start')} at {hms(a)}, "
               f"{hms(a - t)} after it.")
    elif side == "before":
        b = max(y for _, y in before)
        out = (f"Before {hms(t)}: the {name} {agree(name, 'ends', 'end')} at {hms(b)}, "
               f"{hms(t - b)} before it.")
    elif len(spans) == 1:
        x, y = spans[0]
        out = f"Across {hms(t)}: the {name} {agree(name, 'runs', 'run')} from {hms(x)} to {hms(y)}."
    else:
        out = (f"Both: the {name} is seen on both sides of {hms(t)} ("
               + "; ".join(f"{hms(x)}-{hms(y)}" for x, y in spans) + ").")
    asked = asked_side(text)
    if asks_whether(text) and asked:
        out = ("Yes. " if side == asked else "No. ") + out
    return out, side or "both"


def pair_text(q: Question, a: str, b: str, tl: Timeline, duration: float) -> str:
    """How two named types relate, in words: which comes first and the time between them
    (or that they overlap, or that one was not found); yes/no questions get their answer
    first."""
    fa, fb = tl.first(a), tl.first(b)
    na, nb = type_name(a), type_name(b)
    if fa is None or fb is None:
        gone = [n for n, f in ((na, fa), (nb, fb)) if f is None]
        return f"No {' and no '.join(gone)} was found, so there is no order to give."
    verdict = claim(q.text, q.types, tl, duration)
    lead = ("Yes. " if verdict else "No. ") if verdict is not None and asks_whether(
        q.text) else ""  # not "before or after?"
    if tl.together(a, b):
        return f"{lead}The {na} and the {nb} overlap in time."
    (n1, t1, s1), (n2, t2, _) = sorted(((na, fa, a), (nb, fb, b)), key=lambda x: x[1])
    end1 = max((e for _, e in tl.spans(s1) if e <= t2), default=t1)
    return (f"{lead}The {n1} {agree(n1, 'comes', 'come')} first (from {hms(t1)}), the {n2} "
            f"later (from {hms(t2)}), {hms(t2 - end1)} after the {n1} {agree(n1, 'ends', 'end')};"
            " they do not overlap.")


def claim(text: str, types: Sequence[Mention], tl: Timeline, duration: float) -> bool | None:
    """Whether a relation claimed in `text` holds on the timeline (None: no claim found)."""
    low = text.lower()
    ts = same_defect_types(types)
    if len(ts) >= 2 and ts[0] != ts[1]:
        return pair_claim(low, ts[0], ts[1], tl)
    return spread_claim(low, tl.stretches, duration)


def pair_claim(low: str, a: str, b: str, tl: Timeline) -> bool | None:
    """Claims about two types: at the same time, a before b, a after b, apart."""
    if re.search(r"\b(simultaneous\w*|same time|overlap\w*|together|co-?occur\w*|"
                 r"concurrent\w*|during|while|alongside|along with)\b", low) and not re.search(
                     r"\b(not|never|no)\b", low):
        return tl.together(a, b)
    fa, fb = tl.first(a), tl.first(b)
    if fa is None or fb is None:
        return False
    if m := _NEXT_TO.search(low):  # "does the noise start right after the blocking ends?"
        gap = pair_gap(tl, b, a) if m.group(1) == "after" else pair_gap(tl, a, b)
        return gap is not None and gap <= NEXT_TO_S
    if re.search(r"\b(followed|succeeded|trailed)\s+by\b|\bthen\b|->|→", low):
        return fa < fb  # "A followed by B", "A then B"
    if re.search(r"\bpreceded\s+by\b", low):  # "A preceded by B": B first
        return fa > fb
    if re.search(r"\b(before|precede\w*|earlier|first)\b", low):
        return fa < fb
    if re.search(r"\b(after|follow\w*|later)\b", low):
        return fa > fb
    if re.search(r"\b(separate\w*|independent\w*|not overlap|do not overlap|never overlap|"
                 r"apart|isolated)\b", low):
        return not tl.together(a, b)
    return None
