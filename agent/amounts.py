"""Amounts people write beside times: durations ("about 5 seconds", "1 minute 15 seconds"),
bounds on how long an event lasts ("longer than 5 s"), and plain counts ("three", "twice")."""

from __future__ import annotations

import re

from agent.time_phrases import LAST_VERB
from agent.time_units import NUM as _NUM
from agent.time_units import amount as _amount


def durations(text: str) -> list[float]:
    """Durations in seconds stated in a text ("about 5 seconds", "10-15 s" -> 12.5, "2 min",
    "1 minute 15 seconds" -> 75)."""
    out: list[float] = []
    prev_end, prev_minutes = -1, False
    for m in re.finditer(
        rf"({_NUM}|[a-z-]+)(?:\s*(?:-|–|to)\s*({_NUM}))?\s*(seconds?|secs?|s|minutes?|mins?)\b",
        text, re.IGNORECASE,
    ):
        a = _amount(m.group(1))
        if a is None:
            continue
        b = float(m.group(2)) if m.group(2) else a
        minutes = m.group(3).lower().startswith("m")
        value = (a + b) / 2 * (60.0 if minutes else 1.0)
        joined = re.fullmatch(r"\s*(?:and\s*)?", text[prev_end:m.start()]) if out else None
        if joined and prev_minutes and not minutes:
            out[-1] += value  # "1 minute 15 seconds": one duration
        else:
            out.append(value)
        prev_end, prev_minutes = m.end(), minutes
    return out


# "longer than 5 seconds", "for more than 3 s", "at least two minutes", "under 2 s": a bound
# on how long an event lasts, not a time in the video.
BOUND = re.compile(
    rf"\b(?:for\s+)?(longer|more|over|above|greater|at\s+least|exceeding|in\s+excess\s+of|"
    rf"shorter|less|under|below|at\s+most|no\s+more|no\s+longer)\s+(?:than\s+)?"
    rf"({_NUM}(?=\s*[a-z])|[a-z-]+(?=\s))\s*(seconds?|secs?|s|minutes?|mins?)\b", re.IGNORECASE)
_UPPER = ("shorter", "less", "under", "below", "at most", "no more", "no longer")


# "does the blur last a minute?", "the freeze lasts about 2 s": a length claimed, read as
# the lengths near it (LASTS_NEAR of it, and a second either way)
_LASTS = re.compile(
    rf"\blasts\s+(?:for\s+)?(?:(?:about|around|roughly|approximately|nearly|almost|some|"
    rf"only|just)\s+)?({_NUM}(?=\s*[a-z])|[a-z-]+(?=\s))\s*(seconds?|secs?|s|minutes?|mins?)\b",
    re.I)
LASTS_NEAR = 0.3


def duration_bounds(text: str) -> tuple[float | None, float | None]:
    """(least, most) seconds an event must last by the text's bounds ("freezes longer than
    5 s": (5, None); "under 2 seconds": (None, 2); "does it last a minute?": (41, 79)); None
    where it sets none."""
    lo = hi = None
    if not BOUND.search(text) and (m := _LASTS.search(LAST_VERB.sub(r"\1lasts", text))):
        n = 1.0 if m.group(1).lower() in ("a", "an") else _amount(m.group(1))
        if n is not None:
            secs = n * (60.0 if m.group(2).lower().startswith("m") else 1.0)
            return max(0.0, secs * (1 - LASTS_NEAR) - 1.0), secs * (1 + LASTS_NEAR) + 1.0
    for m in BOUND.finditer(text):
        amount = _amount(m.group(2))
        if amount is None:
            continue
        secs = amount * (60.0 if m.group(3).lower().startswith("m") else 1.0)
        if re.sub(r"\s+", " ", m.group(1).lower()) in _UPPER:
            hi = secs
        else:
            lo = secs
    return lo, hi


_CJK_AFTER_DIGIT = re.compile(r"(?<=\d)(?=[\u3040-\u30ff\u3400-\u9fff])")


def numbers(text: str) -> list[float]:
    """Plain counts in a text ("3", "three", "twice")."""
    out = []
    text = _CJK_AFTER_DIGIT.sub(" ", text)  # "3次", "2个": a count and its measure word
    for m in re.finditer(r"\b(\d+(?:\.\d+)?|[a-z-]+)\b", text.lower()):
        w = m.group(1)
        if w in ("a", "an", "half a"):
            continue
        v = _amount(w)
        if v is not None:
            out.append(v)
    return out


_PARTS_OF = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
             "fourth": 4, "fourths": 4, "fifth": 5, "fifths": 5, "sixth": 6, "sixths": 6,
             "tenth": 10, "tenths": 10}
_FRACTION = re.compile(r"\b(?:(a|an|one|two|three|four|five|nine)\s+)?(half|halves|thirds?|"
                       r"quarters?|fourths?|fifths?|sixths?|tenths?)\b|\b(all|whole|entire|"
                       r"none|nothing)\b", re.I)


def fraction(text: str) -> float | None:
    """A share said in words ("a third", "two thirds", "half", "all of it"), else None."""
    m = _FRACTION.search(text)
    if not m:
        return None
    if m.group(3):
        return 0.0 if m.group(3).lower() in ("none", "nothing") else 1.0
    k = _amount(m.group(1).lower()) if m.group(1) else 1  # "a third", "two thirds"
    return (k or 1) / _PARTS_OF[m.group(2).lower()]


_SHARE_LOW = re.compile(r"\b(?:over|above|more\s+than|greater\s+than|at\s+least|beyond|"
                        r"exceeding)\b|>", re.I)
_SHARE_HIGH = re.compile(r"\b(?:under|below|less\s+than|fewer\s+than|at\s+most|up\s+to|"
                         r"no\s+more\s+than)\b|<", re.I)


def share_bounds(text: str, whole: float = 100.0) -> tuple[float, float] | None:
    """The range of shares an option names, on the scale of `whole` ("10-30%" -> (10, 30),
    "under 10%" -> (0, 10), "more than half" -> (50, 100), "about 20%" -> (20, 20)); None
    when it names no amount."""
    nums = numbers(text)
    if not nums and (f := fraction(text)) is not None:
        nums = [f * whole]
    if not nums:
        return None
    if len(nums) >= 2:
        return min(nums[:2]), max(nums[:2])
    if _SHARE_HIGH.search(text):
        return 0.0, nums[0]
    if _SHARE_LOW.search(text):
        return nums[0], whole
    return nums[0], nums[0]
