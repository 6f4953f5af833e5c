"""Time phrases read before the windows are: spelt numbers and units said once ("between one
and two minutes", "the two-minute mark", "the second minute ... than the first"), brackets
("[30, 60]"), and parts of parts ("towards the end of the first minute", "the final
moments", "a third of the way in")."""

from __future__ import annotations

import re
from collections.abc import Iterator

from agent.time_units import (
    FRACTIONS,
    MEDIA_NOUNS,
    NUM,
    NUM_WORDS,
    ORDINALS,
    POINT_HALF_WIDTH_S,
    TIME,
    amount,
)

_SPELT = "|".join(sorted((w for w, v in NUM_WORDS.items() if v >= 1 and " " not in w
                          and len(w) >= len(str(int(v)))), key=len, reverse=True))
_SPELT_RANGE = re.compile(rf"\b(between|from)(\s+)({_SPELT}|\d+)(\s+(?:and|to)\s+)({_SPELT}|\d+)"
                          r"(\s+(?:minutes?|mins?|seconds?|secs?)\b)", re.I)


_ORD_WORD = r"first|second|third|fourth|fifth|last|final|1st|2nd|3rd|4th|5th"
_ORD_UNIT = re.compile(rf"\b(?:{_ORD_WORD})\s+(minute|half|third|quarter|segment|part|section|"
                       r"hour)\b", re.I)
_ORD_BARE = re.compile(rf"\b((?:than|or|and|versus|vs\.?|with|to)\s+the\s+(?:{_ORD_WORD}))\b"
                       r"(?!\s+(?:minute|half|third|quarter|segment|part|section|hour|one|time)s?"
                       r"\b)", re.I)


# "the first and the last minute": the unit said once, after the second ordinal
_ORD_SHARED = re.compile(rf"\b({_ORD_WORD})(\s+(?:and|or|versus|vs\.?|with|to)\s+"
                         r"(?:(?:in|during|at|over|en|dans|im|in\s+der)\s+)?"
                         r"(?:(?:the|la|le|el|der|die|das)\s+)?)"
                         rf"({_ORD_WORD})\s+(minute|half|third|quarter|segment|part|section|"
                         r"hour)\b", re.I)


def _elliptic_units(text: str) -> str:
    """"Is the second minute cleaner than the first?" with the unit said again after the
    second ordinal ("... than the first minute"); "the first and the last minute" with it
    said after the first ("the first minute and the last minute")."""
    text = _ORD_SHARED.sub(lambda m: f"{m.group(1)} {m.group(4)}{m.group(2)}{m.group(3)} "
                           f"{m.group(4)}", text)
    m = _ORD_UNIT.search(text)
    if not m:
        return text
    unit = m.group(1)
    return text[:m.end()] + _ORD_BARE.sub(lambda b: f"{b.group(1)} {unit}", text[m.end():])


# (a glossed question may keep a foreign article: "the end de la first minute", "at the end
# der first minute"; Chinese puts the part last: "first minute at the end")
_OF = r"(?:\s+of)?(?:\s+(?:the|de\s+la|del|de|der|des|du))?"
_PART_OF_PART = re.compile(
    r"\b(?:(?:at|in|near|towards?|during|around)\s+)?the\s+(?:very\s+)?(?:(beginning|start|end|"
    rf"middle)|(first|second|last)\s+half){_OF}\s+({_ORD_WORD})\s+(minute|half|third|quarter|"
    r"hour)\b", re.I)
_PART_AFTER = re.compile(
    rf"\b(?:the\s+)?({_ORD_WORD})\s+(minute|half|third|quarter|hour)\s+(?:at\s+)?the\s+"
    r"(beginning|start|end|middle)\b", re.I)
VERY_EDGE_S = 10.0  # "the final moments", "the first few seconds": this long
_VERY_EDGE = re.compile(
    r"\b(?:the\s+)?(?:(?:(final|last|closing)|(?:first|opening))\s+(?:few\s+)?"
    r"(?:moments|seconds|instants)|very\s+(?:(end)|beginning|start))\b", re.I)
_WAY_IN = re.compile(r"\b(a|one|two|three)\s+(thirds?|quarters?)\s+of\s+the\s+way\s+"
                     r"(?:in|into|through)\b", re.I)


# "30 seconds before the end", "one minute from the end": an instant counted back from the end
BEFORE_END = re.compile(
    rf"\b({_SPELT}|\d+(?:\.\d+)?)\s*(seconds?|secs?|s|minutes?|mins?)\s+(?:before|from|prior\s+"
    r"to)\s+(?:the\s+(?:very\s+)?end(?:\s+of\s+the\s+\w+)?|(?:it|the\s+\w+)\s+ends)\b", re.I)
# "around the middle of the video", "mid-video", "midway through": its middle tenth
_MIDDLE = re.compile(
    r"\b(?:(?:around|near|about|at|towards?|by)\s+the\s+middle(?:\s+of\s+(?:the|this)\s+(?:video|"
    r"clip|film|footage|recording|stream))?|mid-?(?:video|clip|film|stream)|midway(?:\s+(?:through|"
    r"point|mark|in))?)\b", re.I)
MIDDLE_SHARE = (0.45, 0.55)  # (as "in the middle" and "halfway through" read)
# "from second 50 to second 85", "at second 90": seconds counted as ordinals
_SECOND_RANGE = re.compile(r"\b(?:from|between)\s+second\s+(\d+(?:\.\d+)?)\s+(?:to|and|until|"
                           r"till|through)\s+(?:second\s+)?(\d+(?:\.\d+)?)\b", re.I)
_AT_SECOND = re.compile(r"\b(?:at|around|near|in|by)\s+second\s+(\d+(?:\.\d+)?)\b"
                        r"(?!\s*(?:seconds?|secs?|minutes?|mins?|s)\b)", re.I)


def _ordinal_unit(which: str, unit: str, d: float) -> tuple[float, float]:
    """The window of "the <which> <unit>" ("the first minute", "the last third")."""
    unit = unit.lower()
    length = {"minute": 60.0, "hour": 3600.0}.get(unit) or d / FRACTIONS[unit]
    w = which.lower()
    if w in ("last", "final"):
        return max(0.0, d - length), d
    i = ORDINALS[w] - 1
    return min(d, i * length), min(d, (i + 1) * length)


_SPELT_UNIT = re.compile(rf"\b(minute|hour)\s+({_SPELT})\b|"
                         r"\b(about|around|roughly|approximately|after|before|past|"
                         r"in|at|over|under)\s+a(\s+)(minute|second|hour)\b"
                         r"(?!\s+and\s+a\s+half)", re.I)


def _spelt_units(text: str) -> str:
    """"minute two" as "minute 2", "after about a minute" as "after about 1 minute" (padded
    to the same length)."""
    def one(m: re.Match) -> str:
        if m.group(1):
            return m.group(0)[:m.start(2) - m.start()] + _padded(m.group(2))
        return f"{m.group(3)} 1{m.group(4)}{m.group(5)}"

    return _SPELT_UNIT.sub(one, text)


_MARK = re.compile(rf"\b({_SPELT}|\d+(?:\.\d+)?)([\s-]+)(minutes?|mins?|seconds?|secs?|hours?)"
                   r"([\s-]+mark)\b", re.I)


def _marks(text: str) -> str:
    """"the two-minute mark" as "the 2 minute mark" (padded to the same length)."""
    return _MARK.sub(lambda m: _padded(m.group(1)) + " " * len(m.group(2)) + m.group(3)
                     + m.group(4), text)


def _padded(word: str) -> str:
    """A number word as digits padded to the word's length (positions in the text stay where
    they were); digits as they are."""
    v = NUM_WORDS.get(word.lower())
    return word if v is None else str(int(v)).ljust(len(word))


def _digits_in_ranges(text: str) -> str:
    """"between one and two minutes" with its numbers as digits."""
    return _SPELT_RANGE.sub(lambda m: m.group(1) + m.group(2) + _padded(m.group(3)) + m.group(4)
                            + _padded(m.group(5)) + m.group(6), text)


# "after minute 1:30", "at the minute 1:30": the clock time, not minute 1.
_MINUTE_CLOCK = re.compile(r"\b(?:the\s+)?(?:minute|min)\.?\s+(?=\d+:\d{2}\b)", re.I)


# "1 min 30", "2 minutes 15 seconds", "1 minute and 5 s": minutes and seconds said in words
# (a moment: after a word that places one, not "it lasts 2 minutes 10 seconds")
_MIN_SEC = re.compile(r"\b(at|around|from|between|after|before|until|till|to|and|by|near|"
                      r"since|past|approximately|roughly|about)\s+(?:the\s+)?(\d{1,3})\s*"
                      r"(?:minutes?|mins?)\.?\s+(?:and\s+)?(\d{1,2})(?:\s*(?:seconds?|secs?|s)\b)?"
                      r"(?!\s*(?:minutes?|mins?|hours?|%|:|\d))", re.I)
# "minute 1.5": a decimal minute is a moment, not the first minute
_DECIMAL_MINUTE = re.compile(r"\b(?:the\s+)?minute\s+(\d+\.\d+)\b", re.I)
# "before minute 2", "from minute 2 on": a bound said as a minute is its mark (2:00), not
# the second minute
_MINUTE_BOUND = re.compile(r"\b(before|after|until|till|since|by|up\s+to|prior\s+to|past|"
                           r"around|about|near|approximately|roughly|at|"
                           r"between(?=\s+(?:(?:the|la|le|el|der|die|dem|den)\s+)?(?:minute|min)"
                           r"\.?\s+\d+\s+and\s+(?:(?:the|la|le|el|der|die|dem|den)\s+)?\d+:\d)|"
                           r"from(?=\s+(?:the\s+)?(?:minute|min)\.?\s+\d+\s+(?:on|onwards?|"
                           r"forwards?)\b))\s+(?:(?:the|la|le|el|der|die|dem|den)\s+)?"
                           r"(?:minute|min)\.?\s+(\d+)\b(?![:.]\d)", re.I)



# "t = 117 s", "t=20s": a time written as the variable of a plot's axis
_T_EQUALS = re.compile(r"\bt\s*=\s*(?=\d)", re.I)


def _minute_clock(text: str) -> str:
    """"minute 1:30" as "1:30" (the word blanked to the same length); "1 min 30" and
    "minute 1.5" as clock times."""
    text = _T_EQUALS.sub(lambda m: " " * len(m.group(0)), text)
    text = _MIN_SEC.sub(lambda m: f"{m.group(1)} {int(m.group(2))}:{int(m.group(3)):02d}", text)
    text = _DECIMAL_MINUTE.sub(lambda m: f"{float(m.group(1)) * 60:g} seconds", text)
    text = _MINUTE_BOUND.sub(lambda m: f"{m.group(1)} {int(m.group(2))}:00", text)
    return _MINUTE_CLOCK.sub(lambda m: " " * len(m.group(0)), text)


BRACKETED = re.compile(rf"[\[(]\s*({TIME}|{NUM})\s*s?\s*[,;]\s*({TIME}|{NUM})\s*s?\s*[\])]")


# "Does the video start with good quality?", "the clip ends on a clean picture": its start
# (end) named by a verb
_VERB_EDGE = re.compile(r"\b((?:video|clip|film|footage|recording|stream|movie)\s+"
                        r"(?:(?:does|did)\s+(?:it|she|he)\s+)?(?:(start|starts|"
                        r"started|begin|begins|began|open|opens|opened)|(?:end|ends|ended|finish|"
                        r"finishes|finished|close|closes|closed)))(?=(?:\s+whether)?\s+(?:with|on|cleanly|"
                        r"clean|well|badly|fine)\b)", re.I)


def _verb_edges(text: str) -> str:
    return _VERB_EDGE.sub(lambda m: m.group(1) + (" at the start" if m.group(2) else
                                                  " at the end"), text)


# "a minute and a half", "two and a half minutes", "half a minute": halves said in words
_AND_A_HALF = re.compile(rf"\b(?:(an?|one|{_SPELT}|\d+)\s+)?(minutes?|hours?)\s+and\s+a\s+half\b|"
                         rf"\b({_SPELT}|\d+)\s+and\s+a\s+half\s+(minutes?|hours?)\b|"
                         rf"\bhalf(?:\s+an?|-|\s+)(minute|hour)\b(?![\s-]+(?:long\s+)?"
                         rf"{MEDIA_NOUNS}\b)", re.I)


_QUARTER_HOUR = re.compile(r"\b(?:a\s+)?quarter(?:\s+of\s+an|-)?\s*hour\b", re.I)


def _halves(text: str) -> str:
    """"the first minute and a half" as "the first 1.5 minutes", "half a minute" as "0.5
    minutes", "the last quarter hour" as "the last 15 minutes"."""
    def said(m: re.Match) -> str:
        if m.group(5):
            return f"0.5 {m.group(5)}s"
        count, unit = (m.group(1), m.group(2)) if m.group(2) else (m.group(3), m.group(4))
        n = 1.0 if not count or count.lower() in ("a", "an") else amount(count) or 1.0
        return f"{n + 0.5:g} {unit.rstrip('s')}s"
    return _AND_A_HALF.sub(said, _QUARTER_HOUR.sub("15 minutes", text))


# "does the blur last 90 seconds?": the verb, an amount of time, not the video's last part
LAST_VERB = re.compile(r"\b((?:does|do|did|will|would|can|could|should|may|might)\s+"
                        r"(?:[\w'-]+\s+){0,3}?(?!(?:the|in|during|of|for|over|within|"
                        r"very)\s)[\w'-]+\s+)last(?=\s+(?:(?:about|around|roughly|"
                        r"approximately|for|over|under|more\s+than|less\s+than|at\s+least|"
                        r"only|just)\s+)?(?:\d|an?\b|one\b|two\b|three\b|half\b))", re.I)


# "between the first and the second minute" (German "zwischen der ersten und der zweiten
# Minute", Chinese "第一分钟和第二分钟之间"): the stretch from the 1:00 mark to the 2:00 mark,
# as "between minute 1 and minute 2" reads; not where a difference between them is asked.
_ART = r"(?:(?:the|la|le|el|der|die|das)\s+)?"
_NUM_ORD = r"first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|1st|2nd|3rd|4th|5th"
_ORD_MARKS = re.compile(
    rf"\bbetween\s+{_ART}({_NUM_ORD})(?:\s+minute)?\s+and\s+{_ART}({_NUM_ORD})\s+minutes?\b|"
    rf"\b{_ART}({_NUM_ORD})\s+minutes?\s+and\s+{_ART}({_NUM_ORD})\s+minutes?\s+between\b", re.I)
_DIFFERENCE = re.compile(r"\b(?:differ\w*|compar\w*|contrast\w*|unterschied\w*|différence|"
                         r"diferencia|versus|vs)\b|区别|差别|不同", re.I)


def _ordinal_marks(text: str) -> str:
    """"between the first and the second minute" as "between minute 1 and minute 2"."""
    def said(m: re.Match) -> str:
        a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        i, j = ORDINALS[a.lower()], ORDINALS[b.lower()]
        if j <= i or _DIFFERENCE.search(text):
            return m.group(0)
        return f"between minute {i} and minute {j}"
    return _ORD_MARKS.sub(said, text)


def normalised(text: str) -> str:
    """The text with its spelt numbers as digits and its elliptic units said again; the
    positions of what comes before a change stay where they were."""
    return _elliptic_units(_marks(_spelt_units(_digits_in_ranges(_minute_clock(
        _verb_edges(LAST_VERB.sub(r"\1lasts", _ordinal_marks(_halves(text)))))))))


# the share of a part each word of a part of it names
_SUB = {"beginning": (0.0, 0.25), "start": (0.0, 0.25), "end": (0.75, 1.0),
        "middle": (0.375, 0.625), "first": (0.0, 0.5), "second": (0.5, 1.0), "last": (0.5, 1.0)}


def parts_of_parts(text: str, d: float) -> Iterator[tuple[re.Match, float, float, bool]]:
    """(match, start, end, point) of "the end of the first minute", "the final moments" and
    "a third of the way in", in a video of d seconds."""
    for m in _PART_OF_PART.finditer(text):
        a, b = _ordinal_unit(m.group(3), m.group(4), d)
        if b > a:
            lo, hi = _SUB[(m.group(1) or m.group(2)).lower()]
            yield m, a + lo * (b - a), a + hi * (b - a), False
    for m in _PART_AFTER.finditer(text):  # "first minute at the end" (Chinese word order)
        a, b = _ordinal_unit(m.group(1), m.group(2), d)
        if b > a:
            lo, hi = _SUB[m.group(3).lower()]
            yield m, a + lo * (b - a), a + hi * (b - a), False
    for m in _VERY_EDGE.finditer(text):
        late = bool(m.group(1) or m.group(2))
        yield m, d - VERY_EDGE_S if late else 0.0, d if late else VERY_EDGE_S, False
    for m in _WAY_IN.finditer(text):
        t = d * amount(m.group(1)) / FRACTIONS[m.group(2).lower()]
        yield m, t - POINT_HALF_WIDTH_S, t + POINT_HALF_WIDTH_S, True
    for m in BEFORE_END.finditer(text):
        n = amount(m.group(1))
        if n is not None:
            t = d - n * (60.0 if m.group(2).lower().startswith("m") else 1.0)
            yield m, t - POINT_HALF_WIDTH_S, t + POINT_HALF_WIDTH_S, True
    for m in _MIDDLE.finditer(text):
        yield m, d * MIDDLE_SHARE[0], d * MIDDLE_SHARE[1], False
    for m in _SECOND_RANGE.finditer(text):
        a, b = sorted((float(m.group(1)), float(m.group(2))))
        if b > a:
            yield m, a, b, False
    for m in _AT_SECOND.finditer(text):
        t = float(m.group(1))
        yield m, t - POINT_HALF_WIDTH_S, t + POINT_HALF_WIDTH_S, True


# "at frame 3000", "frames 3000-3600", "frame #450": moments counted in frames
_FRAMES = re.compile(r"\bframes?\s+(?:number\s+|no\.?\s*|#\s*)?(\d+)(?:\s*(?:-|–|to|and|"
                     r"through|until)\s*(?:frame\s+)?(\d+))?\b", re.I)


def frames_as_times(text: str, fps: float | None) -> str:
    """The text with frame numbers said as clock times at `fps` (unchanged without it)."""
    if not fps or fps <= 0:
        return text

    def clock(n: str) -> str:
        t = int(n) / fps
        return f"{int(t // 60)}:{t % 60:04.1f}"

    def said(m: re.Match) -> str:
        if not m.group(2):
            return clock(m.group(1))
        before = text[:m.start()].rstrip().lower()
        lead = "" if before.endswith(("between", "from")) else "from "
        join = " and " if before.endswith("between") else " to "
        return f"{lead}{clock(m.group(1))}{join}{clock(m.group(2))}"

    return _FRAMES.sub(said, text)
