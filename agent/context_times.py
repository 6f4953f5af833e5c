"""Which times of a question with a sentence of context say where to look: "This is a 30 min
programme. Is there any blur between minute 5 and minute 7?" looks at 5:00-7:00, and "Our
player buffers 5 seconds ahead. Is the colour ok?" at the whole video.

The asking sentences (ending in "?") name the window when they name one; otherwise the context
may, but only with a moment ("the tripod was bumped at 1:20"), never with an amount of time
("trimmed 10 seconds off", "a 30 min programme"), which says how long, not where.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from agent.time_units import NUM

_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# an amount of time: a number and its unit, not a clock time ("1:20") or a frame
_AMOUNT = re.compile(rf"\b{NUM}\s*-?\s*(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\b"
                     r"(?!\s+(?:in|into)\b)", re.I)  # ("42 seconds in" is a moment)


def _blank(m: re.Match) -> str:
    return " " * len(m.group(0))


def windows_text(text: str, has_window: Callable[[str], bool]) -> str:
    """The part of a question whose times set its windows: its asking sentences when they
    name a window (`has_window`), else the whole text with the context's amounts of time
    blanked (positions kept)."""
    parts: Sequence[str] = _SENTENCE.split(text.strip())
    if len(parts) < 2:
        return text
    asking = [p for p in parts if p.rstrip().endswith("?")]
    context = [p for p in parts if not p.rstrip().endswith("?")]
    if not asking or not context:
        return text
    asked = " ".join(asking)
    if has_window(asked):
        return asked
    return " ".join(p if p in asking else _AMOUNT.sub(_blank, p) for p in parts)
