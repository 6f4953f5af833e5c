"""Times people write in a question: "at 2:15", "between 00:01:10 and 00:01:25", "the first
half", "the last minute", "segment 3" (durations and counts are in agent/amounts.py).

Pure text processing on English (questions in other languages are glossed first, see
agent/language.py); every window is clamped to the video.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agent.time_parts import MOST_UNIT_WINDOWS as MOST_UNIT_WINDOWS
from agent.time_parts import WHICH_UNIT as _WHICH_UNIT
from agent.time_parts import part_only as part_only
from agent.time_parts import unit_length as unit_length
from agent.time_parts import unit_windows as unit_windows
from agent.time_parts import which_parts as which_parts
from agent.time_phrases import BRACKETED, normalised, parts_of_parts
from agent.time_units import CLOCK as _CLOCK
from agent.time_units import FRACTIONS as _FRACTIONS
from agent.time_units import MEDIA_NOUNS, ORDINALS, POINT_HALF_WIDTH_S, Window, parse_time
from agent.time_units import NUM as _NUM
from agent.time_units import TIME as _TIME
from agent.time_units import UNIT_S as _UNIT_S
from agent.time_units import UNIT_TIME as _UNIT_TIME
from agent.time_units import amount as _amount
from agent.time_units import clamp as _clamp
from agent.time_units import nth_part as _nth_part

# The words of the loose part phrases (see windows) that name the start of the video.
_STARTS = {"beginning", "start", "opening", "intro", "opening scene"}


def _part(m: re.Match) -> str:
    """Which part of the video a loose part word names: "start", "middle" or "end"."""
    if m.group(3):
        return "middle"
    w = (m.group(1) or m.group(2)).lower()
    return "start" if w in _STARTS else "middle" if w == "middle" else "end"


# a length said of the recording itself ("a 30 min programme", "this 3-minute clip")
_MEDIA_AFTER = re.compile(rf"[\s-]+(?:long\s+)?{MEDIA_NOUNS}\b", re.I)

# "between roughly 1:30 and about 2:50": the hedge before a time of a range
_ABOUT = r"(?:about|around|roughly|approximately|approx\.?|circa|ca\.|some|~)"

# A window said as one side of an instant ("after 1:00", "up to 0:45"): a time, not an order.
# "shortly before the end", "just after the start": the video's edge, a window near it
_NEAR_EDGE = (r"\b(?:shortly|just|right|soon|immediately)\s+(?:before\s+the\s+(?:end|ending|close|"
              r"finish)|after\s+the\s+(?:beginning|start|opening))\b")
SIDE_OF_TIME = re.compile(rf"\b(?:(?:shortly|just|right|soon|well|long)\s+)?(?:before|after|until|"
                          rf"since|past|up to|till|prior to|beyond|following)\s+"
                          rf"(?:(?:about|around|roughly|approximately|some)\s+)?"
                          rf"(?:(?:the\s+)?(?:minute|min)\.?\s+(?:{_TIME}|\d+\b)|{_TIME}|"
                          rf"an?\s+(?:minute|second|hour)\b|"
                          rf"the\s+(?:first|last|final|opening|closing|initial)\b|"
                          rf"(?:the\s+)?(?:halfway|half-way|midway)(?:\s+through)?\b(?!\s+(?:point|"
                          rf"mark)))|{_NEAR_EDGE}", re.IGNORECASE)
# "before the halfway point": the side of an instant the question asks about
SIDE_OF_INSTANT = re.compile(r"\b(?:before|after|until|since|past|prior to|by)\s+the\s+$", re.I)
# "after halfway through", "before the midpoint": the half on that side
_SIDE_OF_HALF = re.compile(r"\b(after|past|beyond|following|since|before|until|till|up to|"
                           r"prior to)\s+(?:the\s+)?$", re.I)
# "after the first minute" / "before the last 30 seconds": the rest of the video, not the part
_SIDE_OF_EDGE = re.compile(r"\b(after|past|beyond|following|before|until|till|up to|prior to)"
                           r"\s+the\s+$", re.IGNORECASE)


def segment_count(text: str) -> int | None:
    """K when a text says the video is split into K segments/parts ("divided into 4 parts")."""
    m = re.search(
        r"(?:divided|split|cut|broken)\s+(?:up\s+)?into\s+(\w+)\s+(?:equal\s+)?"
        r"(?:segments|parts|sections|pieces|chunks|clips)",
        text, re.IGNORECASE,
    ) or re.search(r"(\w+)\s+equal(?:ly long)?\s+(?:segments|parts|sections)", text, re.I) \
        or re.search(r"\b(?:segment|part|section)\s*\d+\s*(?:of|/)\s*(\d+)\b", text, re.I)
    if m:
        n = _amount(m.group(1))
        return int(n) if n and n >= 1 else None
    return None


def windows(
    text: str,
    duration_s: float,
    n_segments: int | None = None,
    scenes: Sequence[tuple[float, float]] | None = None,
) -> list[Window]:
    """Every time window a text names, in order of appearance, clamped to [0, duration_s].

    `n_segments` fixes what "segment 3" means (equal parts); without it a "divided into K"
    in the text, or else the highest segment number mentioned, sets the count. `scenes`
    ((start, end) pairs) resolve "scene 2".
    """
    d = float(duration_s)
    text = normalised(text)
    found: list[Window] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    def add(m: re.Match, a: float, b: float, label: str, point: bool = False) -> None:
        taken.append((m.start(), m.end()))
        lo, hi = _clamp(a, b, d)
        found.append(Window(lo, hi, re.sub(r"\s{2,}", " ", label), point, m.start()))

    # 0. "which 30 seconds ...?" ranks the video's parts of that length: no time named
    taken += [(m.start(), m.end()) for m in _WHICH_UNIT.finditer(text)]

    # 1. explicit ranges: "between X and Y", "from X to Y", "X-Y", "X to Y seconds"; an
    # interval in brackets, "[30, 60]" or "(0:30, 1:00)", is one too (bare numbers: seconds)
    for m in BRACKETED.finditer(text):
        bare = all(re.fullmatch(_NUM, x) for x in m.groups()) and "s" not in m.group(0)
        if m.group(0).startswith("(") and bare:
            continue  # "(1, 2)" is a pair of numbers; "[30, 60]" an interval's notation
        a, b = (parse_time(x) for x in m.groups())  # (bare numbers: seconds)
        if a is not None and b is not None and b > a and free(m):
            add(m, a, b, m.group(0))
    rng = re.compile(
        rf"(between\s+|from\s+)?(?:{_ABOUT}\s+)?({_TIME}|{_NUM})\s*(-|–|—|~|to|and|until|till|"
        rf"through)\s*(?:(?:the|el|la|le|les|der|die|dem|den)\s+)?(?:{_ABOUT}\s+)?({_TIME}|{_NUM})(\s*(?:seconds?|secs?|s|minutes?|mins?)\b)?",
        re.IGNORECASE,
    )
    for m in rng.finditer(text):
        a_txt, b_txt, unit = m.group(2), m.group(4), (m.group(5) or "").strip().lower()
        if m.group(3).lower() == "and" and not m.group(1):
            continue  # "compare 0:50 and 2:20": two moments; "between 0:50 and 2:20": a range
        if re.fullmatch(_NUM, a_txt) and re.fullmatch(_NUM, b_txt) and not unit:
            before = text[max(0, m.start() - 12) : m.start()].lower()
            if not re.search(r"(between|from)\s*$", before) or "segment" in before:
                continue  # bare numbers without unit or range words: not times
        scale = 60.0 if unit.startswith("m") else 1.0
        a = parse_time(a_txt) if not re.fullmatch(_NUM, a_txt) else float(a_txt) * scale
        b = parse_time(b_txt) if not re.fullmatch(_NUM, b_txt) else float(b_txt) * scale
        if a is None or b is None:
            continue
        if re.fullmatch(_NUM, a_txt) and not re.fullmatch(_NUM, b_txt):
            # "1 to 2 minutes": the bare first number takes the unit of the second
            last_unit = re.search(r"([a-z]+)\s*$", b_txt.lower())
            a = float(a_txt) * _UNIT_S.get(last_unit.group(1)[0] if last_unit else "s", 1.0)
        if b < a:  # "between 2:00 and 1:30": the same window
            a, b = b, a
        if b <= a:
            continue
        add(m, a, b, m.group(0).strip())

    # 1b. parts of parts, the video's very edges, "a third of the way in" (time_phrases.py)
    for m, a, b, point in parts_of_parts(text, d):
        if free(m):
            add(m, a, b, m.group(0).strip(), point)

    # 2. relative parts: first/second half, last third, first quarter, beginning, end, middle
    part = re.compile(
        r"\b(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last|final|latter|former|middle|"
        r"opening|closing)\s+(half|third|quarter|fifth|tenth|part|portion|section)\b",
        re.IGNORECASE,
    )
    parts_named: list[tuple[int, int, float]] = []  # (end, k, i) of each part named
    for m in part.finditer(text):
        if not free(m):
            continue
        which, frac = m.group(1).lower(), m.group(2).lower()
        k = _FRACTIONS.get(frac, 3 if frac in ("part", "portion", "section") else 2)
        if which == "middle" and k % 2 == 0:
            add(m, d / 4, 3 * d / 4, m.group(0))
            continue
        i = {"last": k, "final": k, "latter": k, "closing": k, "middle": (k + 1) / 2,
             "former": 1, "opening": 1}.get(which) or ORDINALS.get(which, 1)
        part = _nth_part(i, k, d)
        if part:
            add(m, *part, m.group(0))
            parts_named.append((m.end(), k, i))
    # "... the second half worse than the first?": the part's noun left out after it
    elided = re.compile(
        r"\b(?:than|or|and|vs\.?|versus|with|to)\s+(?:in\s+|during\s+)?the\s+(first|second|"
        r"third|fourth|fifth|1st|2nd|3rd|4th|5th|last|final|latter|former|opening|closing|other)"
        r"(?:\s+one)?\b(?!\s*(?:half|third|quarter|fifth|tenth|part|portion|section|minute|"
        r"seconds?|minutes?|hours?|segment|scene|\d))", re.IGNORECASE)
    for m in elided.finditer(text):
        before = [(k, i) for end, k, i in parts_named if end <= m.start()]
        if not before or not free(m):
            continue
        k, prev = before[-1]
        which = m.group(1).lower()
        i = {"last": k, "final": k, "latter": k, "closing": k, "former": 1, "opening": 1,
             "other": k + 1 - prev if k == 2 else None}.get(which) or ORDINALS.get(which)
        part = _nth_part(i, k, d) if i else None
        if part:
            add(m, *part, m.group(0))

    # 3. "the first/last N seconds/minutes", "the last minute", "the first 10%"
    edge = re.compile(
        r"\b(first|last|final|opening|closing|initial)\s+(?:(?:(\d+(?:\.\d+)?)\s*|([a-z-]+)\s+)"
        r"(seconds?|secs?|minutes?|mins?|hours?)|(\d+(?:\.\d+)?)\s*([smh]))\b"
        r"|\b(first|last|final|opening|closing|initial)\s+(seconds|secs|minutes?|mins?|hours?)\b",
        re.IGNORECASE,
    )
    for m in edge.finditer(text):
        if not free(m):
            continue
        which = m.group(1) or m.group(7)
        amount = m.group(2) or m.group(3) or m.group(5)
        unit = (m.group(4) or m.group(6) or m.group(8)).lower()
        # "the closing seconds": a few (10 s); "the last minute": one
        n = _amount(amount) if amount else (10.0 if unit.startswith("s") else 1.0)
        if n is None:
            continue
        length = n * (3600 if unit.startswith("h") else 60 if unit.startswith("m") else 1)
        side = _SIDE_OF_EDGE.search(text[:m.start()])
        later = side is not None and side.group(1).lower() in ("after", "past", "beyond",
                                                               "following")
        if side and which.lower() in ("first", "opening", "initial") and later:
            add(m, length, d, side.group(0) + m.group(0))  # "after the first minute"
        elif side and which.lower() in ("last", "final", "closing") and not later:
            add(m, 0, d - length, side.group(0) + m.group(0))  # "before the last 30 s"
        elif which.lower() in ("last", "final", "closing"):
            add(m, d - length, d, m.group(0))
        else:
            add(m, 0, length, m.group(0))

    share = re.compile(r"\b(first|last|final|opening|closing|initial)\s+(\d+(?:\.\d+)?)\s*"
                       r"(?:%|percent\b|per\s+cent\b)", re.IGNORECASE)
    for m in share.finditer(text):  # "the first 10 %", "the last 25 percent"
        frac = float(m.group(2)) / 100.0
        if free(m) and 0.0 < frac <= 1.0:
            late = m.group(1).lower() in ("last", "final", "closing")
            add(m, d * (1 - frac) if late else 0.0, d if late else d * frac, m.group(0))

    # 4. "minutes 10 to 15", "the 3rd minute", "minute 3", "the 15th minute", "the second hour"
    minute = re.compile(
        r"\b(?:from\s+)?(?:minutes?|mins?\.?)\s+(\d+)\s*(?:-|–|to|and|through|till|until)\s*"
        r"(?:(?:minute|min)\.?\s+)?"
        r"(\d+)\b|\b(?:the\s+)?(\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|"
        r"seventh|eighth|ninth|tenth)\s+(minute|hour)\b(?!s)|(?<!\d\s)(?<!\d)\b(minute|hour)\s+"
        r"(\d+)\b", re.IGNORECASE)
    for m in minute.finditer(text):
        if not free(m):
            continue
        if m.group(1):  # "minutes 10 to 15": 10:00 to 15:00
            add(m, int(m.group(1)) * 60, int(m.group(2)) * 60, m.group(0))
            continue
        word = (m.group(3) or "").lower()
        i = ORDINALS.get(word) or (int(word[:-2]) if word[:-2].isdigit() else None) or (
            int(m.group(6)) if m.group(6) else None)
        unit = 3600 if (m.group(4) or m.group(5) or "").lower() == "hour" else 60
        if i:
            add(m, (i - 1) * unit, i * unit, m.group(0))

    # 5. segments and scenes by number: "segment 3", "the second segment", "scene 2"
    seg = re.compile(
        r"\b(?:(segment|part|section|clip|scene|shot)\s*#?\s*(\d+)|"
        r"(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)"
        r"\s+(segment|section|clip|scene|shot))\b",
        re.IGNORECASE,
    )
    seg_matches = [m for m in seg.finditer(text) if free(m)]
    n_seg = n_segments or segment_count(text)
    if seg_matches and not n_seg:
        nums = [int(m.group(2)) if m.group(2) else ORDINALS.get(m.group(3).lower(), 0)
                for m in seg_matches]
        n_seg = max([2, *nums])
    for m in seg_matches:
        after = [w for w in found if m.end() <= w.pos <= m.end() + 4]
        if after:
            continue  # "Segment 2 (00:00:15-00:00:30)": the stated times win
        kind = (m.group(1) or m.group(4)).lower()
        last = (m.group(3) or "").lower() == "last"
        i = int(m.group(2)) if m.group(2) else ORDINALS.get((m.group(3) or "").lower(), 0)
        if kind in ("scene", "shot") and scenes:
            j = len(scenes) if last else i
            if 1 <= j <= len(scenes):
                add(m, scenes[j - 1][0], scenes[j - 1][1], m.group(0))
            continue
        k = n_seg or 4
        part = _nth_part(k if last else i, k, d)
        if part:
            add(m, *part, m.group(0))

    # 6. beginning / end / middle of the video; all three listed: its thirds
    three = re.compile(r"\b(?:the\s+)?(?:beginning|start|opening)\s*,\s*(?:the\s+)?middle\s*,?"
                       r"\s*(?:or|and)\s+(?:the\s+)?(?:end|ending)\b", re.IGNORECASE)
    for m in three.finditer(text):
        if free(m):
            for i, name in enumerate(("beginning", "middle", "end")):
                add(m, i * d / 3, (i + 1) * d / 3, name)
    # "somewhere in the middle", "at some point near the end": a vague time, its third
    vague = re.compile(r"\b(?:somewhere|sometime|some\s+time|at\s+some\s+(?:point|moment))\s+"
                       r"(?:in|near|towards?|during|around)\s+the\s+(beginning|start|opening|"
                       r"middle|end|ending)\b", re.IGNORECASE)
    for m in vague.finditer(text):
        if free(m):
            i = {"middle": 1, "end": 2, "ending": 2}.get(m.group(1).lower(), 0)
            add(m, i * d / 3, (i + 1) * d / 3, m.group(0))
    edge = max(10.0, min(60.0, d * 0.1))  # "at the start", "just before the end": this long
    for m in re.finditer(_NEAR_EDGE, text, re.IGNORECASE):
        if free(m):
            late = bool(re.search(r"\bbefore\b", m.group(0), re.IGNORECASE))
            add(m, d - edge if late else 0.0, d if late else edge, m.group(0))
    loose = re.compile(
        r"(?:,|\b(?:at|in|near|towards?|during|than|or|versus|vs\.?|with|is|was|does|did))\s+the\s+(beginning|start|opening|end|ending|"
        r"close|finish|middle)\b|\b(?:the\s+)?(intro|opening scene|ending|outro|"
        r"(?:end\s+|closing\s+)?credits)\b|"
        r"\b(halfway(?:\s+(?:through|point|mark))?|half-way(?:\s+(?:through|point|mark))?|"
        r"midway(?:\s+through)?|mid-?point)\b",
        re.IGNORECASE,
    )
    named = list(loose.finditer(text))
    # "stronger at the start than at the end": the two ends set against each other, its thirds
    both_ends = {"start", "end"} <= {_part(m) for m in named}
    for m in named:
        if not free(m):
            continue
        w = _part(m)
        side = _SIDE_OF_HALF.search(text[:m.start()]) if m.group(3) and not re.search(
            r"point|mark", m.group(3), re.I) else None
        if side and re.search(r"\b(?:before|after)\s+or\s+$", text[:side.start()], re.I):
            side = None  # "before or after halfway through?": which side is the question
        if side:  # "after halfway through", "past the midpoint": the half on that side
            later = side.group(1).lower() in ("after", "past", "beyond", "following", "since")
            add(m, *((d / 2, d) if later else (0.0, d / 2)), side.group(0) + m.group(0))
            continue
        if m.group(3) and SIDE_OF_INSTANT.search(text[:m.start()]) and re.search(
                r"point|mark", m.group(3), re.I):  # "before the halfway point": an instant
            add(m, d / 2 - POINT_HALF_WIDTH_S, d / 2 + POINT_HALF_WIDTH_S, m.group(0), True)
            continue
        span = d / 3 if both_ends and w != "middle" else edge
        if re.match(r"(?:near|towards?)\b", m.group(0), re.I) and w != "middle":
            span = max(span, d / 4)  # "near the end": a vaguer time than "at the end"
        if w == "start":
            add(m, 0, span, m.group(0))
        elif w == "middle":
            add(m, d / 2 - span / 2, d / 2 + span / 2, m.group(0))
        else:
            add(m, d - span, d, m.group(0))

    # 7. before / after an instant: "after 5:00", "before 1:00", "from 1:30 on", "up to 1:00"
    onward = re.compile(rf"\b(?:from\s+)?({_TIME})\s+(?:on|onwards?)\b(?!\s+\w+\s+(?:to|-))|"
                        rf"\bfrom\s+({_TIME})\s+(?:to|till|until)\s+the\s+end\b|"
                        rf"\b(?:play|plays|played|playing|watch|watched|watching|start|started|"
                        rf"starting|run|ran)\s+(?:it\s+)?from\s+({_TIME})(?=\s*(?:[.,;:!?]|$))",
                        re.IGNORECASE)  # ("Repro: play from 0:00.": from there on)
    for m in onward.finditer(text):
        t = parse_time(m.group(1) or m.group(2) or m.group(3))
        if free(m) and t is not None:
            add(m, t, d, m.group(0))
    # "before or after 1:30?": the instant itself, the question is on which side
    either = re.compile(rf"\b(?:before|after)\s+or\s+(?:before|after)\s+(?:the\s+)?({_TIME})",
                        re.IGNORECASE)
    for m in either.finditer(text):
        t = parse_time(m.group(1))
        if free(m) and t is not None:
            add(m, t - POINT_HALF_WIDTH_S, t + POINT_HALF_WIDTH_S, m.group(1), point=True)
    side = re.compile(rf"\b(after|before|until|since|past|up to|till|prior to|by)\s+"
                      rf"(?:(?:about|around|roughly|approximately|some)\s+)?({_TIME})",
                      re.IGNORECASE)
    for m in side.finditer(text):
        if not free(m):
            continue
        t = parse_time(m.group(2))
        if t is None:
            continue
        later = m.group(1).lower() in ("after", "since", "past")
        near = re.search(r"\b(shortly|just|right|immediately|soon)\s*$", text[:m.start()], re.I)
        span_ = re.search(r"\b(?:the\s+)?(\d+(?:\.\d+)?|[a-z-]+)\s+(seconds?|secs?|s|minutes?|"
                          r"mins?)\s*$", text[:m.start()], re.I)
        n = _amount(span_.group(1)) if span_ else None
        if n and m.group(1).lower() in ("after", "before"):  # "the 30 seconds after 1:00"
            length = n * (60.0 if span_.group(2).lower().startswith("m") else 1.0)
            add(m, *((t, t + length) if later else (t - length, t)), span_.group(0) + m.group(0))
        elif near:  # "shortly before 2:00": the stretch just before it, not all of it
            span = max(10.0, min(30.0, d * 0.1))
            add(m, *((t, t + span) if later else (t - span, t)), near.group(1) + " " + m.group(0))
        elif later:
            add(m, t, d, m.group(0))
        else:
            add(m, 0, t, m.group(0))

    # 8. early / late in the video: its first or last third
    third = re.compile(r"\b(early|late|later)\s+(?:on|in\s+(?:the|this)\s+(?:video|clip|footage|"
                       r"film|recording|stream))\b", re.IGNORECASE)
    for m in third.finditer(text):
        if free(m):
            add(m, *((0.0, d / 3) if m.group(1).lower() == "early" else (2 * d / 3, d)),
                m.group(0))

    # 9. single instants: "at 2:15", "around 135 s", "00:01:10"
    inst = re.compile(rf"({_CLOCK}|{_UNIT_TIME})", re.IGNORECASE)
    for m in inst.finditer(text):
        if not free(m):
            continue
        t = parse_time(m.group(1))
        if t is None:
            continue
        before = text[max(0, m.start() - 14) : m.start()].lower()
        into = re.match(r"\s+(?:in|into)\b(?!\s+(?:total|all|sum|length|duration|a\s+row)\b)",
                        text[m.end():], re.I)  # "about 42 seconds in": a moment
        if not into and re.search(r"(last|lasts|lasting|for|about|approximately|roughly|over|"
                                  r"under|than|least|most|exceeding|of)\s*$", before) and not \
                re.search(r"\b(at|around|near)\s+(?:(?:about|approximately|roughly|around|"
                          r"some)\s+)?$", before):
            if not re.fullmatch(_CLOCK, m.group(1)):
                continue  # "lasts about 5 seconds": a duration, not a time
        if _MEDIA_AFTER.match(text[m.end():]):
            continue  # "this 30 min programme", "a 3-minute clip": its length, not a time
        mark = re.match(r"[\s-]*mark\b", text[m.end():], re.I)
        if re.search(r"\b(the|these|those|all)\s*$", before) and not re.fullmatch(
                _CLOCK, m.group(1)) and not mark:
            continue  # "how much of the 8 minutes ...": a length, not an instant
        half = VAGUE_MINUTE_S if t > 0 and t % 60 == 0 and _VAGUE.search(before) else \
            POINT_HALF_WIDTH_S
        add(m, t - half, t + half, m.group(0).strip(), point=True)

    return _clarified(sorted(found, key=lambda w: w.pos), text)


# "around 2 min", "at about the 3-minute mark": a whole minute said loosely is that precise
# (half a minute each way would reach the next mark's); a time said to the second is kept
# to the second
VAGUE_MINUTE_S = 15.0
_VAGUE = re.compile(r"\b(?:around|about|roughly|approximately|approx\.?|circa|near|nearly|"
                    r"some|like)\s+(?:the\s+)?$|~\s*$", re.I)


# "minute 2 (from 2:00 to 2:30)", "the end (after 2:40)": the times in brackets say what the
# words before them meant
_SAID_AGAIN = re.compile(r"\s*[(\[]\s*(?:(?:i\.?e\.?|that\s+is|so|or|roughly|about|"
                         r"approx\.?|approximately)\s*,?\s*)?$", re.I)


def _clarified(found: list[Window], text: str) -> list[Window]:
    """The windows without those that a bracketed window right after them makes precise."""
    out = []
    for i, w in enumerate(found):
        nxt = found[i + 1] if i + 1 < len(found) else None
        end = w.pos + len(w.label)
        if nxt is not None and not nxt.point and text[end:end + 1] != "" and \
                _SAID_AGAIN.match(text[end:nxt.pos]) and \
                text[w.pos:end].lower() == w.label.lower():
            continue
        out.append(w)
    return out
