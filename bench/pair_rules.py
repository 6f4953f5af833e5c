"""Answer a question comparing two videos (Q-Bench-Video's "a.mp4_cat_b.mp4" items) from the
events measured on each: which video is better or worse, in a named distortion or overall.

A video's impairment is the time-weighted severity of its events (severity × seconds / the
video's seconds), summed over the distortion types the question names, else over all types.
The options are read as "Video 1" / "Video 2" / "the same"; yes/no options as a claim about
the video the question names first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.items import option_letters

TIE = 0.02  # impairments closer than this (absolute) are "about the same"

_FIRST = re.compile(r"\b(first|1st|former|left|video\s*(1|one|a))\b", re.IGNORECASE)
_SECOND = re.compile(r"\b(second|2nd|latter|right|video\s*(2|two|b))\b", re.IGNORECASE)
_SAME = re.compile(r"\b(same|similar|equal(ly)?|both|neither|no (obvious |clear )?"
                   r"difference|comparable|identical)\b", re.IGNORECASE)
_YES = re.compile(r"^\s*(yes|true|correct)\b", re.IGNORECASE)
_NO = re.compile(r"^\s*(no|false|incorrect)\b", re.IGNORECASE)
# Words asking for the worse video (more impairment); everything else asks for the better one.
_WORSE = re.compile(
    r"\b(worse|worst|lower|poorer|poorest|more (severe|serious|obvious|noticeable|visible|"
    r"noise|noisy|blur|blurry|artifacts?|distort\w*|compress\w*|jitter\w*|shak\w*)|"
    r"blurr(y|ier|iest)|noisier|darker|shakier|more \w*(ed|y)\b|degraded|"
    r"suffers?|heavier|stronger|greater)\b", re.IGNORECASE)
_BETTER = re.compile(r"\b(better|best|higher|clearer|sharper|cleaner|less|fewer|smoother|"
                     r"more (stable|clear|natural|pleasing|detailed))\b", re.IGNORECASE)


@dataclass
class PairAnswer:
    """The chosen letter, the text explaining it, and each video's impairment."""

    choice: str | None
    text: str
    impairment: tuple[float, float]


def _get(e: Any, key: str) -> Any:
    return e[key] if isinstance(e, Mapping) else getattr(e, key)


def impairment(events: Iterable[Any], duration_s: float,
               types: Sequence[str] | None = None) -> float:
    """Time-weighted severity of a video's events (of `types` when given), per second."""
    total = 0.0
    for e in events:
        if types and _get(e, "type") not in types:
            continue
        total += float(_get(e, "severity")) * max(0.0, float(_get(e, "end_s"))
                                                  - float(_get(e, "start_s")))
    return total / max(duration_s, 1e-9)


def asks_worse(question: str) -> bool:
    """Whether the question asks which video is worse (more impaired), not better."""
    worse = _WORSE.search(question)
    better = _BETTER.search(question)
    if worse and better:
        return worse.start() < better.start()
    return bool(worse)


def option_video(text: str) -> int | None:
    """1 or 2 when an option names one video; 0 when it says they are the same; else None."""
    first, second = bool(_FIRST.search(text)), bool(_SECOND.search(text))
    if first != second:
        return 1 if first else 2
    if _SAME.search(text):
        return 0
    return None


def _subject(question: str) -> int:
    """The video a yes/no question is about: the one it names first (1 by default)."""
    a, b = _FIRST.search(question), _SECOND.search(question)
    if a and b:
        return 1 if a.start() < b.start() else 2
    return 2 if b else 1


def answer_pair(question: str, options: Sequence[str], videos: Sequence[tuple[Any, float]],
                ) -> PairAnswer:
    """Answer a two-video question from ((events, duration_s), (events, duration_s))."""
    from agent.distortions import distortions

    named = sorted({m.type for m in distortions(question)})
    imp = tuple(impairment(ev, d, named or None) for ev, d in videos)
    i1, i2 = imp[0], imp[1]
    worse = asks_worse(question)
    what = ", ".join(named) if named else "all measured distortions"
    text = (f"Impairment ({what}, severity-weighted seconds per second): Video 1 {i1:.3f}, "
            f"Video 2 {i2:.3f}. ")
    tie = abs(i1 - i2) < TIE
    better = 0 if tie else (1 if i1 < i2 else 2)
    letters = option_letters(len(options))
    choice: str | None = None
    readings = [option_video(o) for o in options]
    if any(r in (1, 2) for r in readings):
        want = 0 if tie else (3 - better if worse else better)
        for lt, r in zip(letters, readings, strict=True):
            if r == want:
                choice = lt
        if choice is None and tie:  # no "same" option: the smaller difference still decides
            want = (1 if i1 >= i2 else 2) if worse else (1 if i1 <= i2 else 2)
            choice = next((lt for lt, r in zip(letters, readings, strict=True) if r == want),
                          None)
    elif options:
        subject = _subject(question)
        claim = (better == 3 - subject) if worse else (better == subject)
        pattern = _YES if claim and not tie else _NO
        choice = next((lt for lt, o in zip(letters, options, strict=True)
                       if pattern.search(o)), None)
    verdict = "about the same" if tie else f"Video {better} is better"
    return PairAnswer(choice, text + f"{verdict}.", (round(i1, 4), round(i2, 4)))
