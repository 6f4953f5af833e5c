"""Parts of a video a question sets against each other by their size ("which minute ...?",
"which third ...?") and options that name only a part ("the beginning", "the end")."""

from __future__ import annotations

import math
import re

from agent.time_units import FRACTIONS as _FRACTIONS
from agent.time_units import UNIT_S as _UNIT_S
from agent.time_units import amount as _amount

# "Which minute ...?", "which 30 seconds ...?", "which 10-minute stretch ...?": the video cut
# into windows of that length, to rank.
WHICH_UNIT = re.compile(r"\bwhich\s+(?:(\d+|\w+)[\s-]*)?(second|minute|hour)s?\b", re.I)
MOST_UNIT_WINDOWS = 12  # as many windows as compare_windows ranks


_WHICH_PART = re.compile(r"\bwhich\s+(half|third|quarter|fifth|tenth)\b", re.I)


def which_parts(text: str) -> int | None:
    """How many equal parts a "which third ...?" question sets against each other."""
    m = _WHICH_PART.search(text)
    return _FRACTIONS[m.group(1).lower()] if m else None


def unit_length(text: str) -> float | None:
    """The length in seconds of the part a "which minute ...?" question ranks, else None."""
    m = WHICH_UNIT.search(text)
    if not m:
        return None
    n = _amount(m.group(1)) if m.group(1) else 1.0
    return (n or 1.0) * _UNIT_S[m.group(2)[0].lower()]


def unit_windows(text: str, duration: float) -> list[tuple[float, float]]:
    """The windows of a "which minute ...?" question over the video, when they number 2 to
    MOST_UNIT_WINDOWS (the last one shorter when the length does not divide); else []."""
    unit = unit_length(text)
    if not unit or duration <= 0:
        return []
    n = math.ceil(duration / unit - 1e-6)
    if not 2 <= n <= MOST_UNIT_WINDOWS:
        return []
    return [(i * unit, min((i + 1) * unit, duration)) for i in range(n)]


# An option that is only a part of the video ("the beginning", "the middle", "the end"): with
# nothing else to go by, one of the video's thirds (or of its `n` equal parts).
_PART_ONLY = re.compile(r"^\s*(?:(?:at|in|near|towards?|during|around|by)\s+)?(?:the\s+)?"
                        r"(?:(?:very|early|late)\s+)?"
                        r"(?:(beginning|start|opening|first\s+part)|(middle|centre|"
                        r"center|middle\s+part)|(end|ending|final\s+part|last\s+part))"
                        r"(?:\s+of\s+the\s+(?:video|clip))?\s*[.!]?\s*$", re.I)


def part_only(text: str, duration: float, n: int | None = None) -> tuple[float, float] | None:
    """The window of an option naming only a part of the video, else None."""
    m = _PART_ONLY.match(text)
    if not m or duration <= 0:
        return None
    k = n if n and n >= 2 else 3
    i = 0 if m.group(1) else (k - 1 if m.group(3) else (k // 2 if k % 2 else None))
    if i is None:  # the middle of an even split: around the centre
        return (duration / 2 - duration / (2 * k), duration / 2 + duration / (2 * k))
    return (i * duration / k, (i + 1) * duration / k)
