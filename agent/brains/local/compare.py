"""Which is worse: windows against each other, named types against each other, or "the X at
A against the Y at B" (CQR comparison)."""

from __future__ import annotations

import re
from typing import Any

from agent.brains.local.claims import reference_first
from agent.brains.local.common import (
    agree,
    asks_whether,
    none_option,
    option_span,
    segments,
    verdict,
    what,
    yes_no,
)
from agent.brains.local.durations import SHORTER, compare_durations, length_difference
from agent.brains.local.evidence import Evidence, in_window, window_args
from agent.brains.local.explain import generic
from agent.brains.local.levels import events_level, level_word, probed_level
from agent.brains.local.ranking import RANK, rank_events, rank_types
from agent.brains.local.statements import (
    SAME_OPTION,
    SAME_SEVERITY,
    compare_found,
    ranked_found,
)
from agent.brains.local.types_compared import claims_less, compare_types
from agent.brains.local.worst import worst_moment
from agent.brains.stretches import split_lasting
from agent.context import RunContext
from agent.distortions import TYPE_NAMES, why
from agent.kinds import DIFFERENCE
from agent.questions import Mention, Question, Window, back_reference, rank_event
from agent.timefmt import hms
from agent.times import unit_length, unit_windows

_WHY = re.compile(r"\bwhy\b", re.I)


def _what_there(w: dict[str, Any]) -> str:
    """The types of a compared window's events, in words ("blur, noise, ")."""
    names = dict.fromkeys(TYPE_NAMES.get(e["type"], e["type"]) for e in w.get("events", []))
    return ", ".join(names) + ", " if names else ""


def typed_windows(q: Question) -> list[tuple[Mention, Window]]:
    """Each window of the question with the distortion named just before it ("the blur from
    1:00 to 1:15 ... the noise at 2:00-2:15"); empty unless two windows and types are named
    (three or more parts are ranked together: "beginning, middle or end")."""
    if len(q.windows) != 2 or not q.types:
        return []
    pairs = []
    for w in q.windows[:2]:
        before = [m for m in q.types if m.pos < w.pos]
        pairs.append((before[-1] if before else q.types[0], w))
    return pairs


def typed_args(m: Mention, w: Window, duration: float) -> dict[str, Any]:
    """find_events arguments for one named type in one window."""
    return {"type": m.type, **window_args(w, duration)}


_MORE = re.compile(r"\b(?:more|worse|stronger|heavier|higher)\b", re.I)
_LESS = re.compile(r"\b(?:less|better|milder|weaker|lighter|lower)\b", re.I)
_SAME = re.compile(r"\b(?:same|equal|equally|similar|no difference)\b", re.I)


def _relation_option(q: Question, wins: list[dict[str, Any]], first_worse: bool) -> str | None:
    """Of "more severe / less severe / the same", the option saying how the first window
    named stands to the second."""
    a, b = wins[0], wins[1]
    if a["worst_severity"] == b["worst_severity"] and abs(a["impairment"] - b["impairment"]) \
            < 1e-3:
        rx = _SAME
    else:
        rx = _MORE if first_worse else _LESS
    return next((o.letter for o in q.options if rx.search(o.text) and not (
        rx is _MORE and _LESS.search(o.text))), None)


def comparison(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The worst (or least) window or type, as the question sets them against each other."""
    opts = [(o, option_span(o, ctx.duration_s)) for o in q.options]
    named = list(dict.fromkeys(m.type for m in q.types))
    if DIFFERENCE.search(q.text) and (diff := length_difference(q, ev)):
        return diff  # "by how many seconds is the last freeze longer than the first?"
    if len(named) >= 2 and len(q.windows) < 2 and _LENGTH.search(q.text):
        return compare_durations(q, ev, named[:2])  # "which is longer, the blur or ...?"
    typed_opts = list(dict.fromkeys(o.types[0].type for o in q.options if o.types))
    if len(typed_opts) == 2 and len(q.windows) < 2 and _LENGTH.search(q.text) and not any(
            sp for _, sp in opts):
        return compare_durations(q, ev, typed_opts)  # "which lasts longer? the X / the Y"
    if q.options and sum(bool(o.types) for o in q.options) >= 2 and not all(
            sp for _, sp in opts):
        return compare_types(q, ev)
    pairs = typed_windows(q)
    if pairs and sum(bool(sp) for _, sp in opts) < 2:
        return compare_typed_windows(q, ev, ctx, pairs)
    if len(q.ranks) == 2:  # "is the first freeze shorter than the last?"
        return compare_ranked(q, ev, ctx)
    if ranked := ranked_found(q, ev, q.least or claims_less(q.text)):
        return ranked  # "is the second problem worse than the first?"
    refs = [o for o in q.options if back_reference(o.text) is not None and not o.windows]
    if not q.windows and len(refs) >= 2 and all(
            o in refs or SAME_OPTION.search(o.text) for o in q.options):
        return compare_found(q, ev, q.least or claims_less(q.text))  # "... the first one"
    if len(named) == 1 and not q.windows and not q.options and _LENGTH.search(q.text):
        return compare_lengths(q, ev, named[0])  # "which blurred stretch lasts longer?"
    if len(named) >= 2 and not q.windows and not any(sp for _, sp in opts):
        return compare_types(q, ev, named)  # "the brightness or the colour problem?"
    if not q.options and not q.windows and RANK.search(q.text) and len(named) == 1:
        return rank_events(q, ev, named[0])  # "rank the three blurry segments"
    if not q.options and not q.windows and RANK.search(q.text) and not _PARTS.search(
            _START_END.sub(" ", q.text)):
        return rank_types(q, ev)  # "rank the problems from worst to mildest"
    if not q.options and not q.windows and not q.n_segments and (
            not _PARTS.search(_one_part_out(q.text)) or unit_length(q.text)
            and not unit_windows(q.text, ctx.duration_s)):
        # "when is the quality worst?": no parts named; "which minute of the two hours?":
        # too many to rank, the worst moment says which
        return worst_moment(q, ev, ctx)
    cmp = ev.get("compare_windows")
    if not cmp:
        return generic(q, ev, ctx)
    wins = cmp.get("windows", [])
    order = list(cmp.get("worst_first", []))
    if q.least:
        order = order[::-1]
    pick = wins[order[0]] if order else None
    choice = holds = None
    if pick:
        span = (pick["start_s"], pick["end_s"])
        choice = next((o.letter for o, sp in opts if sp and abs(sp[0] - span[0]) < 0.6
                       and abs(sp[1] - span[1]) < 0.6), None)
        if choice is None and len(q.windows) == 1:  # "is it worst at the start?"
            w = q.windows[0]
            inside = min(span[1], w.end_s) - max(span[0], w.start_s)
            holds = inside >= 0.5 * (w.end_s - w.start_s) and pick["worst_severity"] > 0
            choice = yes_no(q, holds)
        if choice is None and len(q.windows) >= 2:  # yes/no about "A worse than B?"
            first_worse = order[0] == 0 if not q.least else order[0] != 0
            holds = (first_worse != reference_first(q.text, q.windows[0].pos)) \
                != claims_less(q.text)
            choice = yes_no(q, holds) or _relation_option(q, wins, first_worse)
    name = what(q)
    same = len(wins) >= 2 and all(
        w["worst_severity"] == wins[0]["worst_severity"] and
        abs(w["impairment"] - wins[0]["impairment"]) < 1e-3 for w in wins)
    same_opt = next((o.letter for o in q.options if SAME_OPTION.search(o.text)), None)
    if same_opt and not same and _alike(wins):  # offered "about the same", and so they are
        same = True
    if same and same_opt:  # (alike, or nothing found in any: not the first window offered)
        choice = same_opt
    if same and all(w["worst_severity"] == 0 for w in wins):
        text = (f"No {name} was detected in any of the compared windows; they do not "
                "differ measurably.")
        return {"answer": text, "choice": choice or none_option(q), "confidence": 0.3}
    # (of one named type, its own worst severity; the quality score is the whole picture's)
    desc = "; ".join(
        f"{hms(w['start_s'])}-{hms(w['end_s'])}: {_what_there(w)}worst severity "
        f"{w['worst_severity']:.2f}" + ("" if q.types else f", quality {w['quality']:.0f}")
        for w in wins[:6])
    label = "least" if q.least else "most"
    text = (f"The {label} degraded window is {hms(pick['start_s'])}-{hms(pick['end_s'])} "
            f"({desc}).") if pick else "No windows to compare."
    if pick and same:
        text = f"The compared windows are alike ({desc})."
    if pick and _WHY.search(q.text) and pick.get("events"):
        top = max(pick["events"], key=lambda e: e["severity"])
        text += f" {TYPE_NAMES.get(top['type'], top['type']).capitalize()}: " \
                f"{why(top['type'], top.get('subtype') or '')}."
    if pick and RANK.search(q.text) and len(order) >= 2:  # "rank these windows, best first"
        best_first = bool(re.search(r"\bfrom (?:the )?(?:best|cleanest|least|mildest)\b|"
                                    r"\bbest first\b", q.text, re.I))
        seq = [wins[i] for i in (order[::-1] if best_first != q.least else order)]
        text = (f"Ranked, {'best' if best_first else 'worst'} first: "
                + "; ".join(f"{i}. {hms(w['start_s'])}-{hms(w['end_s'])} (worst severity "
                            f"{w['worst_severity']:.2f}, quality {w['quality']:.0f})"
                            for i, w in enumerate(seq, 1)) + ".")
    if holds is not None and not q.options and asks_whether(q.text):  # "is A better than B?"
        text = verdict(holds, text)
    segs = segments(pick.get("events", [])) if pick else []
    return {"answer": text, "choice": choice, "segments": segs,
            "confidence": 0.45 if same else 0.75}


# Windows whose worst severities lie within SAME_SEVERITY and whose quality scores (0-100)
# lie within this many points are alike where the question offers "about the same": the two
# halves of a looped clip, the same defects in each, read 74 and 78 (a partial cycle more of
# one event in one half), which no viewer tells apart.
ALIKE_QUALITY = 5.0


def _alike(wins: list[dict[str, Any]]) -> bool:
    """Whether the compared windows measure alike to within what a viewer tells apart."""
    return len(wins) >= 2 and all(
        abs(w["worst_severity"] - wins[0]["worst_severity"]) <= SAME_SEVERITY
        and abs(w["quality"] - wins[0]["quality"]) <= ALIKE_QUALITY for w in wins)


# "Is the dark part longer than the noisy part?": time, not severity, is compared.
_LENGTH = re.compile(r"\b(longer|shorter|lasts? longer|more time|less time|(?:covers?|takes?\s+up|"
                     r"fills?|occupies|spans?)\s+(?:more|less))\b", re.I)


# Parts a comparison can set against each other; without any it asks for a moment.
_PARTS = re.compile(r"\b(half|halves|third|thirds|quarter|quarters|segment|segments|part|parts|"
                    r"section|sections|minute|minutes|scene|scenes|shot|shots|window|windows|"
                    r"beginning|start|end|ending|middle|opening|clip|clips|episode|episodes)\b",
                    re.I)

# "with start and end times": what to report of each, not parts of the video
_START_END = re.compile(r"\b(?:their\s+|the\s+)?start(?:ing)?\s+and\s+end(?:ing)?(?:\s+(?:times?|"
                        r"points?))?\b", re.I)

# "Where's the worst part?": one stretch asked for, not parts to compare
_ONE_PART = re.compile(r"\b(?:the\s+)?(?:worst|best|cleanest|weakest|most\s+\w+)\s+(?:part|section|"
                       r"segment|stretch|moment|scene|shot|passage|bit)\b", re.I)


# "Which segment has the worst quality?", "视频质量最差的是哪一段": one stretch of the
# video asked for by a superlative, as "the worst segment" is, not parts to set side by side
_WHICH_PART = re.compile(r"\b(?:which|what)\s+(?:one\s+)?(?:part|section|segment|stretch|"
                         r"passage|bit)\b", re.I)
_SUPERLATIVE = re.compile(r"\b(?:worst|best|cleanest|weakest|poorest|most\s+\w+)\b", re.I)


def _one_part_out(text: str) -> str:
    """The text without the words that ask for one stretch ("the worst part", "which
    segment ... worst"), so that only parts named to be compared are left."""
    text = _ONE_PART.sub(" ", text)
    return _WHICH_PART.sub(" ", text) if _SUPERLATIVE.search(text) else text


def compare_ranked(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """Two events ranked in the question ("the first freeze", "the last one"): their
    durations when it asks longer / shorter, else their severities."""
    lasting, _ = split_lasting(ev.all_events())
    picked = []
    for rank, etype in q.ranks:
        one = rank_event(lasting, rank, etype)
        if one is None:
            mine = [e for e in lasting if e["type"] == etype]
            name = TYPE_NAMES.get(etype, etype)
            return {"answer": f"There is no such {name}: {len(mine)} lasting {name} event(s) "
                              "were found.", "choice": None, "segments": segments(mine),
                    "confidence": 0.3}
        picked.append(one)
    a, b = picked
    by_time = bool(_LENGTH.search(q.text))
    key = (lambda e: e["end_s"] - e["start_s"]) if by_time else (lambda e: e["severity"])
    less = claims_less(q.text)
    holds = key(a) < key(b) if less else key(a) > key(b)
    what_ = "lasting" if by_time else "severity"
    text = ("Yes. " if holds else "No. ") + "; ".join(
        f"{TYPE_NAMES.get(e['type'], e['type'])} {hms(e['start_s'])}-{hms(e['end_s'])}: "
        f"{what_} {key(e):.2f}{' s' if by_time else ''}" for e in picked) + "."
    return {"answer": text, "choice": yes_no(q, holds), "segments": segments(picked),
            "confidence": 0.6}


def compare_lengths(q: Question, ev: Evidence, etype: str) -> dict[str, Any]:
    """The events of one type by how long they last: the longest (or shortest) first."""
    lasting, _ = split_lasting(ev.all_events())
    mine = sorted((e for e in lasting if e["type"] == etype),
                  key=lambda e: e["end_s"] - e["start_s"], reverse=True)
    name = TYPE_NAMES.get(etype, etype)
    if not mine:
        return {"answer": f"No lasting {name} was found, so none lasts longer.",
                "choice": None, "segments": [], "confidence": 0.4}
    if SHORTER.search(q.text):
        mine.reverse()
    secs = [e["end_s"] - e["start_s"] for e in mine]
    spans = "; ".join(f"{hms(e['start_s'])}-{hms(e['end_s'])}: {d:.1f} s"
                      for e, d in zip(mine, secs, strict=True))
    if len(mine) == 1:
        text = f"There is only one lasting {name}, {spans}."
    elif abs(secs[0] - secs[1]) < 0.5:
        text = f"They last about as long: {spans}."
    else:
        word = "shorter" if secs[0] < secs[1] else "longer"
        text = (f"The {name} from {hms(mine[0]['start_s'])} to {hms(mine[0]['end_s'])} lasts "
                f"{word}: {spans}.")
    return {"answer": text, "choice": None, "segments": segments(mine[:1]), "confidence": 0.6}


def compare_typed_windows(q: Question, ev: Evidence, ctx: RunContext,
                          pairs: list[tuple[Mention, Window]]) -> dict[str, Any]:
    """"Is the X at A more severe than the Y at B?": each window for its own type."""
    found = []
    for m, w in pairs[:2]:
        data = ev.get("find_events", typed_args(m, w, ctx.duration_s))
        lasting, brief = split_lasting(ev.relabelled((data or {}).get("events") or []))
        evs = [e for e in lasting if in_window(e, w)] or [  # named there: a glimpse counts
            e for e in brief if in_window(e, w)] or [
            e for e in ev.all_events() if e["type"] == m.type and in_window(e, w)]
        worst = max((e["severity"] for e in evs), default=0.0)
        score = float((data or {}).get("signal_score") or 0.0)
        # No event: a signal clearly outside the clean range still has a level.
        level = events_level(evs) if evs else probed_level(m.type, data)
        found.append((worst, score, m, w, evs, level))
    (sa, ca, *_, ea, la), (sb, cb, *_, eb, lb) = found
    # Level first (a probed one counts), then severity, then the signal score.
    first_worse = (la, sa, ca) > (lb, sb, cb)
    # the claim is of the second when the first is the reference ("compared with ... is ...")
    claimed_worse = first_worse != reference_first(q.text, min(pairs[0][0].pos,
                                                               pairs[0][1].pos))
    choice = yes_no(q, claimed_worse != claims_less(q.text))
    text = "; ".join(f"{TYPE_NAMES.get(m.type, m.type)} {hms(w.start_s)}-{hms(w.end_s)}: "
                     f"{level_word(s, lv) + ', ' if es else ''}"
                     f"worst severity {s:.2f} (signal score {c:.2f})"
                     for s, c, m, w, es, lv in found)
    worse = found[0] if first_worse else found[1]
    name = TYPE_NAMES.get(worse[2].type, worse[2].type)
    whether = not q.options and asks_whether(q.text)
    if not ea and not eb and not la and not lb and max(ca, cb) < 1.0:
        # nothing in either, not even a signal as strong as an event's: neither is worse
        lead = "No" if whether else "Neither"
        return {"answer": f"{lead}: no lasting {name} {agree(name, 'was', 'were')} found in "
                          f"either window ({text}).",
                "choice": yes_no(q, False), "segments": [], "confidence": 0.5}
    verb = agree(name, "is", "are")
    if found[0][2].type == found[1][2].type:  # the same type in two windows: name the window
        name += f" at {hms(worse[3].start_s)}-{hms(worse[3].end_s)}"
    text = f"The {name} {verb} the more severe: {text}."
    if whether:  # "is the middle more compressed than the start?"
        text = verdict(first_worse != claims_less(q.text), text)
    return {"answer": text, "choice": choice, "segments": segments(ea + eb),
            "confidence": 0.6 if sa != sb else 0.4}
