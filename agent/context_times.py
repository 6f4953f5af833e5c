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
from typing import TypeVar

from agent.time_units import NUM

T = TypeVar("T")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
# an amount of time: a number and its unit, not a clock time ("1:20") or a frame
_AMOUNT = re.compile(rf"\b{NUM}\s*-?\s*(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\b"
                     r"(?!\s+(?:in|into)\b)", re.I)  # ("42 seconds in" is a moment)


def _blank(m: re.Match) -> str:
    return " " * len(m.group(0))


def asking_span(text: str) -> tuple[int, int] | None:
    """Where the last asking sentence (ending in "?", cut as question_windows cuts them) lies
    in a text that also holds a sentence of context; None when every sentence asks or none
    does."""
    cuts = [0, *(m.end() for m in _SENTENCE.finditer(text)), len(text)]
    spans = [(a, b) for a, b in zip(cuts, cuts[1:], strict=False) if text[a:b].strip()]
    asking = [sp for sp in spans if text[sp[0]:sp[1]].rstrip().endswith("?")]
    if len(spans) < 2 or not asking or len(asking) == len(spans):
        return None
    return asking[-1]


def question_windows(text: str, find: Callable[[str], list[T]]) -> list[T]:
    """The windows (`find` of a text) that set where a question looks: those its asking
    sentences name, when they name any, else those of the whole text with the context's
    amounts of time blanked (positions kept)."""
    parts: Sequence[str] = _SENTENCE.split(text.strip())
    asking = [p for p in parts if p.rstrip().endswith("?")]
    if len(parts) < 2 or not asking or len(asking) == len(parts):
        return find(text)
    if wins := find(" ".join(asking)):
        return wins
    return find(" ".join(p if p in asking else _AMOUNT.sub(_blank, p) for p in parts))
