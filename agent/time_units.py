"""The words and numbers of time: number words, ordinals, fractions, clock and unit times,
and the Window a text names (shared by agent/times.py and agent/time_phrases.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass

NUM_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90,
    "a": 1, "an": 1, "half a": 0.5, "once": 1, "twice": 2, "single": 1,
}
ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
    "6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10,
}
FRACTIONS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
              "fifth": 5, "fifths": 5, "tenth": 10}

CLOCK = r"\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?"
UNIT_TIME = (
    r"\d+\s*h(?:ours?|rs?)?\s*\d+\s*m(?:in(?:ute)?s?)?\b|"  # "1h05m", "1 hour 5 minutes"
    r"(?:\d+(?:\.\d+)?\s*h(?:ours?|rs?)?\s*)?(?:\d+(?:\.\d+)?\s*m(?:in(?:ute)?s?)?\s*)?"
    r"\d+(?:\.\d+)?\s*s(?:ec(?:ond)?s?)?\b"
    r"|\d+(?:\.\d+)?\s*(?:h(?:ours?|rs?)?|m(?:in(?:ute)?s?)?)\b(?:\s*\d+(?:\.\d+)?\s*s(?:ec(?:ond)?s?)?\b)?"
)
TIME = rf"(?:{CLOCK}|{UNIT_TIME})"
NUM = r"\d+(?:\.\d+)?"
# What a length can be said of ("a 30 min programme", "a half-hour recording"): the amount
# before such a noun is how long the media is, not a time in it
MEDIA_NOUNS = (r"(?:recording|video|clip|programme|program|show|episode|film|movie|stream|"
               r"broadcast|tape|file|session|interview|lecture|webinar|match|game|documentary|"
               r"footage|edit|cut|version|sequence)s?")


def parse_time(text: str) -> float | None:
    """Seconds from one time: "2:15", "00:01:10.5", "135 s", "2m15s", "1 min 5 sec", "1.5 min"."""
    s = text.strip().lower()
    if re.fullmatch(CLOCK, s):
        parts = [float(p) for p in s.split(":")]
        total = 0.0
        for p in parts:
            total = total * 60 + p
        return total
    m = re.fullmatch(
        r"(?:(\d+(?:\.\d+)?)\s*h(?:ours?|rs?)?\s*)?(?:(\d+(?:\.\d+)?)\s*m(?:in(?:ute)?s?)?\s*)?"
        r"(?:(\d+(?:\.\d+)?)\s*s(?:ec(?:ond)?s?)?)?",
        s,
    )
    if m and any(m.groups()):
        h, mi, se = (float(g) if g else 0.0 for g in m.groups())
        return h * 3600 + mi * 60 + se
    if re.fullmatch(NUM, s):
        return float(s)
    return None


@dataclass(frozen=True)
class Window:
    """A time window [start_s, end_s] named in a text; `point` when it was a single instant."""

    start_s: float
    end_s: float
    label: str
    point: bool = False
    pos: int = 0

    @property
    def span(self) -> tuple[float, float]:
        return (self.start_s, self.end_s)


POINT_HALF_WIDTH_S = 2.0  # "at 2:15" looks at 2:13-2:17
UNIT_S = {"s": 1.0, "m": 60.0, "h": 3600.0}  # seconds per unit, by its first letter
_UNITS = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
         "eighty": 80, "ninety": 90}
_COUNTED = re.compile(
    rf"\b(?:({'|'.join(_TENS)})(?:[\s-]({'|'.join(_UNITS[:9])}))?|({'|'.join(_UNITS)}))"
    r"(?=[\s-](?:seconds?|secs?|minutes?|mins?|hours?|hrs?)\b)", re.IGNORECASE)


def digits_before_units(text: str) -> str:
    """Number words counting time units written as digits ("two-minute mark" -> "2-minute
    mark", "forty five seconds" -> "45 seconds"), so every time rule reads them."""
    def one(m: re.Match) -> str:
        if m.group(3):
            return str(_UNITS.index(m.group(3).lower()) + 1)
        tens = _TENS[m.group(1).lower()]
        return str(tens + (_UNITS.index(m.group(2).lower()) + 1 if m.group(2) else 0))
    return _COUNTED.sub(one, text)


def amount(word: str) -> float | None:
    """A number written as digits or as a word ("two", "a"), else None."""
    word = word.strip().lower()
    if re.fullmatch(NUM, word):
        return float(word)
    return NUM_WORDS.get(word)


def nth_part(i: float, k: int, duration: float) -> tuple[float, float] | None:
    """The i-th (1-based) of k equal parts of the video; None when there is no such part."""
    if not 1 <= i <= k:
        return None
    return (i - 1) * duration / k, i * duration / k


def clamp(a: float, b: float, duration: float) -> tuple[float, float]:
    """[a, b] ordered and cut to the video."""
    a, b = max(0.0, min(a, b)), max(a, b)
    if duration > 0:
        a, b = min(a, duration), min(b, duration)
    return a, b
