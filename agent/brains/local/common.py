"""Small pieces every question family uses: events in words, option lookups, type weights."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from agent.brains.local.evidence import MEASURED, type_hit
from agent.kinds import BOTH_OPTION, ONSET_OF_DECLINE
from agent.questions import BY_LENGTH, Mention, Option, Question, Window, type_name
from agent.timefmt import hms

# Option texts that mean the whole video.
WHOLE = re.compile(r"\b(throughout|entire|whole (?:video|clip)|all the time|from start to "
                   r"finish|the whole time|everywhere|all (?:segments|parts))\b", re.I)

Ev = dict[str, Any]


def ev_line(e: Ev) -> str:
    """One event in words: type, subtype, span, severity and two evidence numbers."""
    name = type_name(e["type"])
    # "jitter (camera shake)" already says its only subtype
    sub = f" ({e['subtype']})" if e.get("subtype") and f"({e['subtype']})" not in name else ""
    if e.get("also_measured") and sub:  # other changes of its type measured over it
        sub = sub[:-1] + ", also measured as " + " and ".join(e["also_measured"]) + ")"
    ev = e.get("evidence") or {}
    if e.get("tint") and sub:  # the colour a cast or hue shift pushes toward
        sub = sub[:-1] + f", toward {e['tint']})"
    nums = ", ".join(f"{k} {v}" for k, v in list(ev.items())[:2] if k != "signal")
    return (f"{name}{sub} from {hms(e['start_s'])} to "
            f"{hms(e['end_s'])} (severity {e['severity']:.2f}" + (f"; {nums}" if nums else "")
            + ")")


def spans_text(evs: Sequence[Ev]) -> str:
    """Up to four events as "type start-end (severity)"."""
    return "; ".join(f"{e['type']} {hms(e['start_s'])}-{hms(e['end_s'])} (severity "
                     f"{e['severity']:.2f})" for e in evs[:4])


def timeline_text(evs: Sequence[Ev]) -> str:
    """The events in time order, in words (up to eight)."""
    if not evs:
        return "No quality events were detected."
    return f"{len(evs)} quality event(s), in order: " + "; ".join(ev_line(e) for e in evs[:8]) \
        + ("." if len(evs) <= 8 else f"; and {len(evs) - 8} more.")


def score_note(data: dict[str, Any], etype: str | None, shown: bool = False) -> str:
    """The window's signal score for a type, in words (for "not detected" answers; `shown`:
    the answer reads it as a visible sub-event level, so no "did not stand out")."""
    score = data.get("signal_score") if data else None
    if not etype or not isinstance(score, int | float):
        return ""
    amount = f"{score:.1f}x" if score >= 1.0 else f"{score:.2f} of"
    note = f" (its signal there departs from the video's median by {amount} the smallest step " \
        "a detector reports"
    if score < 1.0 or shown:
        return note + ")"
    # The score weighs the window against the whole video; a detector against the footage
    # around it, in the same shot: a high score without an event is a difference of content
    # (a darker or plainer scene), or a change too gradual or too mild to read as a defect.
    return note + (", but did not stand out from the footage around it as a defect does: a "
                   "difference of content, or a change too gradual to tell apart from one)")


def segments(evs: Sequence[Ev]) -> list[Ev]:
    """Events as answer segments (start, end, label, severity)."""
    return [{"start_s": e["start_s"], "end_s": e["end_s"],
             "label": e["type"] + (f" ({e['subtype']})" if e.get("subtype") else ""),
             "severity": float(e["severity"])} for e in evs]


def where(q: Question, duration: float) -> str:
    """The question's window in words."""
    if q.window:
        return f"between {hms(q.window.start_s)} and {hms(q.window.end_s)}"
    return f"in the video (duration {hms(duration)})"


_YES_NO = re.compile(r"^\s*(?:is|are|does|do|did|was|were|can|could|would|will)\b", re.I)
# "tell me whether ...", and the gloss of a yes/no question in another language word order
# ("La qualité est-elle bonne ?" reads "la quality is whether good ?")
_WHETHER = re.compile(r"\bwhether\b", re.I)
_WH = re.compile(r"\b(?:when|where|which|what|how|why|who|whom|whose)\b", re.I)


def asks_yes_no(text: str) -> bool:
    """Whether a question is shaped for a yes or no ("Is ...", "Would it ...?"), so that its
    answer in words should lead with one."""
    return bool(_YES_NO.match(text) or _WHETHER.search(text) or (
        re.search(r"[?？]\s*$", text) and not _WH.search(text)))  # "¿La calidad es buena?"


def verdict(holds: bool, text: str) -> str:
    """An answer's text led by the yes or no it gives: "Yes: the blur is ..."."""
    return ("Yes: " if holds else "No: ") + text[0].lower() + text[1:]


def asks_whether(text: str) -> bool:
    """A yes/no-shaped question that sets no two things against each other with "or": "Is A
    worse than B?" asks whether, "Is A or B worse?" (or "before or after?") asks which."""
    return asks_yes_no(text) and not re.search(r"\bor\b", text, re.I)


def by_length(text: str, evs: Sequence[Ev]) -> Ev | None:
    """The one event a "the longest / shortest ..." question asks about; None when the text
    asks neither or there are no events."""
    m = BY_LENGTH.search(text)
    if not m or not evs:
        return None
    pick = max if m.group(1).lower() == "longest" else min
    return pick(evs, key=lambda e: e["end_s"] - e["start_s"])


# "when does it appear first?", "at what time do errors first show up?": the earliest event;
# "when is it seen last?", "the latest": the last one (an ordinal noun, "the first freeze", is
# a rank and a window word, "the first half", a window: both are read before this)
# ("the first half", "the first 30 seconds" are parts of the video, not an order)
_FIRST_TIME = re.compile(r"\b(?:first|earliest|initially|for the first time)\b"
                         r"(?!\s+(?:half|third|quarter|minute|minutes|second|seconds|part|"
                         r"section|segment|hour|few|\d))", re.I)
_LAST_TIME = re.compile(r"\b(?:(?:appears?|occurs?|happens?|shows? up|is seen|seen|comes?|"
                        r"starts?|begins?)\s+(?:last|for the last time)|latest|"
                        r"(?:the\s+)?last time)\b", re.I)


def by_order(text: str, evs: Sequence[Ev]) -> tuple[Ev, str] | None:
    """The one event an "appears first / last" question asks about and which end of the
    video's order it is ("first", "last"); None when the text asks neither."""
    if not evs:
        return None
    if _LAST_TIME.search(text):
        return max(evs, key=lambda e: e["start_s"]), "last"
    if _FIRST_TIME.search(text) or ONSET_OF_DECLINE.search(text):
        return min(evs, key=lambda e: e["start_s"]), "first"  # (also "when does it begin
        # to deteriorate?": where it first goes bad)
    return None


def agree(name: str, singular: str, plural: str) -> str:
    """The verb form that agrees with a type's name ("frame drops occur", "noise occurs")."""
    head = re.sub(r"\s*\(.*\)\s*$", "", name).split()
    last = head[-1] if head else ""
    return plural if last.endswith("s") and not last.endswith("ss") else singular


def what(q: Question) -> str:
    """The distortion the question names, in words."""
    return type_name(q.type)


def yes_no(q: Question, truth: bool) -> str | None:
    """The yes (or no) option letter; None when the options are not yes/no."""
    yes = [o for o in q.options if o.yes and not o.no]
    no = [o for o in q.options if o.no or (o.none and not o.yes)]
    pool = yes if truth else no
    return pool[0].letter if pool else None


def none_option(q: Question) -> str | None:
    """The option that says nothing is wrong, if any."""
    for o in q.options:
        if o.none or (o.no and not o.types and not o.windows):
            return o.letter
    return None


# The saturation words of an option, by the way they go (an option's "saturation" subtype
# names either)
_WAYS = {"oversaturation": re.compile(r"\b(?:over|too\s+(?:vivid|saturated|colou?rful)|vivid|"
                                      r"garish|neon|gaudy|oversaturat\w*|over-saturat\w*)", re.I),
         "desaturation": re.compile(r"\b(?:desaturat\w*|under-?saturat\w*|washed|faded|muted|"
                                    r"dull|drained|grey|gray|colou?rless|pale|black[- ]and[- ]"
                                    r"white|monochrome)", re.I)}


def by_type(q: Question, type_weights: dict[str, float],
            subtypes: dict[str, str] | None = None) -> tuple[str | None, float]:
    """The option naming the heaviest type, and a confidence. An option's words answer for
    every type they accept (a fallback type counts 0.8). Between options naming the same type,
    the one whose subtype is the one measured wins, then one naming no subtype, then another
    subtype; a subtype never outweighs another type's measured weight."""
    best, best_key = None, (0.0, 0)
    for o in q.options:
        if not o.types:
            continue
        m = o.types[0]
        w = max((type_weights.get(t, 0.0) * type_hit(m, [t])
                 for t in (*m.accepts, *m.fallback)), default=0.0)
        if w <= 0:
            continue
        measured = (subtypes or {}).get(m.type, "")
        rank = 0 if not (measured and m.subtype) else 1 if measured == m.subtype else -1
        if measured in _WAYS and m.subtype == "saturation":  # which way: "too vivid" or "dull"
            rank = 1 if _WAYS[measured].search(o.text) else -1
        if (w, rank) > best_key:
            best, best_key = o.letter, (w, rank)
    total = sum(type_weights.values()) or 1.0
    return best, min(0.95, 0.5 + best_key[0] / total / 2) if best else 0.0


def type_load(evs: Sequence[Ev]) -> dict[str, float]:
    """Per type, its severity-weighted seconds."""
    load: dict[str, float] = {}
    for e in evs:
        load[e["type"]] = load.get(e["type"], 0.0) + e["severity"] * max(
            0.5, e["end_s"] - e["start_s"])
    return load


def subtypes(evs: Sequence[Ev]) -> dict[str, str]:
    """The subtype of each type's worst event."""
    out: dict[str, tuple[float, str]] = {}
    for e in evs:
        if e["severity"] > out.get(e["type"], (-1.0, ""))[0]:
            out[e["type"]] = (e["severity"], e.get("subtype", ""))
    return {t: s for t, (_, s) in out.items()}


def nearest(options: Sequence[Option], value_of, target: float) -> str | None:
    """The option whose value is nearest the target."""
    best, dist = None, float("inf")
    for o in options:
        v = value_of(o)
        if v is None:
            continue
        if abs(v - target) < dist:
            best, dist = o.letter, abs(v - target)
    return best


def option_seconds(q: Question, o: Option) -> float | None:
    """An option's time in seconds: its duration, else its bare number in the unit the
    question asks in ("how many minutes ...? about 5 / 22": minutes; else seconds)."""
    if o.durations:
        return o.durations[0]
    if not o.numbers:
        return None
    return o.numbers[0] * (60.0 if re.search(r"\bminutes?\b", q.original, re.I) else 1.0)


def merged_spans(spans: Iterable[tuple[float, float]]) -> list[tuple[float, float]]:
    """The spans with overlapping ones joined, in time order."""
    merged: list[list[float]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [(s, e) for s, e in merged]


def iou(a: tuple[float, float], spans: Sequence[tuple[float, float]]) -> float:
    """Temporal IoU of one span against the union of others."""
    merged = merged_spans(spans)
    inter = sum(max(0.0, min(a[1], e) - max(a[0], s)) for s, e in merged)
    union = (a[1] - a[0]) + sum(e - s for s, e in merged) - inter
    return inter / union if union > 0 else 0.0


def option_span(o: Option, duration: float) -> tuple[float, float] | None:
    """The time span an option names (the whole video for "throughout")."""
    if o.windows:
        return (o.windows[0].start_s, o.windows[0].end_s)
    if WHOLE.search(o.text):
        return (0.0, duration)
    return None


def option_windows(q: Question, duration: float) -> list[list[float]]:
    """The options' spans as compare_windows arguments."""
    spans = [option_span(o, duration) for o in q.options]
    return [[round(s[0], 3), round(s[1], 3)] for s in spans if s and s[1] > s[0]]


def worst_option(cmp: dict[str, Any] | None, opts: Sequence[tuple[Option, Any]]) -> str | None:
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


def timed_mentions(mentions: Sequence[Mention], windows: Sequence[Window]
                   ) -> list[tuple[Mention, Window]]:
    """Each distortion named (its first mention) with the first time named after it and before
    the next other distortion ("the blur in the first half and the contrast problem in the
    second half"; a type named twice, "les couleurs sont trop saturées au début", once);
    distortions with no time of their own are left out."""
    firsts: dict[str, Mention] = {}
    for m in sorted(mentions, key=lambda m: m.pos):
        firsts.setdefault(m.type, m)
    marks = sorted(m.pos for m in firsts.values())
    out = []
    for m in firsts.values():
        nxt = min((p for p in marks if p > m.pos), default=10 ** 9)
        mine = [w for w in windows if m.pos < w.pos < nxt]
        if mine:
            out.append((m, mine[0]))
    return out


# Seconds of the events each window must hold for "both" (see both_option)
BOTH_S = 3.0


def both_option(q: Question, opts: list[tuple[Any, Any]], evs: list[dict[str, Any]]) -> str | None:
    """The option saying "both" (or "all"), when every window the options offer holds at
    least BOTH_S of the events (or a tenth of the window)."""
    both = next((o for o, sp in opts if not sp and BOTH_OPTION.match(o.text)), None)
    spans = [sp for _, sp in opts if sp]
    if both is None or len(spans) < 2:
        return None
    def held(sp: tuple[float, float]) -> float:
        return sum(max(0.0, min(sp[1], e["end_s"]) - max(sp[0], e["start_s"])) for e in evs)
    return both.letter if all(held(sp) >= min(BOTH_S, 0.1 * (sp[1] - sp[0])) for sp in spans) \
        else None


def level_yes(q: Question, level: float) -> str | None:
    """Of options that say yes at a level ("present, mild" / "present, severe"), the one
    nearest `level` (None unless there are two or more)."""
    levelled = [o for o in q.options if o.yes and not o.no and o.level is not None]
    if len(levelled) < 2 or level <= 0:
        return None
    return min(levelled, key=lambda o: abs(o.level - level)).letter


def which_prefix(q: Question, e: dict[str, Any]) -> str:
    """What an event is, when the question did not name it (or it stands in for the named
    type): "blur, " / "measured as stutter, "."""
    if not q.type or e["type"] != q.type:  # (or another name the question gave the defect)
        return f"{type_name(e['type'])}, "
    sub = str(e.get("subtype") or "")
    return f"{sub}, " if sub.startswith(MEASURED) else ""
