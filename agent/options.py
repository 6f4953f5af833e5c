"""What one multiple-choice option claims: times, distortion types, a level, a grade, a trend,
yes or no. The words come from the vocabulary data file ([options])."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from agent.amounts import durations, numbers
from agent.distortions import Mention, distortions
from agent.times import Window, part_only, windows
from agent.vocabulary import vocabulary

VOCAB = vocabulary()

_YES = VOCAB.yes
_NO = VOCAB.no
_NONE = VOCAB.none

# 0 none .. 3 severe (and beyond), and 1 bad .. 5 excellent.
LEVEL_WORDS: dict[str, float] = VOCAB.levels
GRADE_WORDS: dict[str, float] = VOCAB.grades
# Regular-expression stems of trend words; "?" (and "+?" grows, "-?" shrinks) is decided by
# what increases or decreases: the quality, or a defect.
TREND_WORDS: dict[str, str] = VOCAB.trends


def _word_re(words: dict[str, float]) -> re.Pattern:
    return re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(words, key=len,
                                                                    reverse=True)) + r")\b",
                      re.I)


LEVEL_RE = _word_re(LEVEL_WORDS)
_GRADE_RE = _word_re(GRADE_WORDS)


@dataclass
class Option:
    """What one MCQ option says: its letter, text, and the facts it claims."""

    letter: str
    text: str
    windows: list[Window] = field(default_factory=list)
    types: list[Mention] = field(default_factory=list)
    level: float | None = None  # 0 none .. 3 severe (and beyond)
    grade: float | None = None  # 1 bad .. 5 excellent
    trend: str | None = None  # improving | degrading | stable | fluctuating
    yes: bool = False
    no: bool = False
    none: bool = False
    durations: list[float] = field(default_factory=list)
    numbers: list[float] = field(default_factory=list)


def letters(n: int) -> list[str]:
    """Option letters for n options: A, B, C..."""
    return [chr(ord("A") + i) for i in range(n)]


def is_yes(text: str) -> bool:
    """Whether a text starts by saying yes ("Yes", "There is", "True")."""
    return bool(_YES.match(text))


def is_no(text: str) -> bool:
    """Whether a text starts by saying no ("No", "None", "Never")."""
    return bool(_NO.match(text))


def has_level(text: str) -> bool:
    """Whether a text names a severity level ("mild", "severe")."""
    return bool(LEVEL_RE.search(text))


def _trend_of(text: str) -> str | None:
    low = text.lower()
    if re.search(r"\b(first|initially|begin\w*|start\w*)\b.*\b(then|later|but|before)\b", low) \
            and re.search(r"\b(improv|recover|better)\w*", low) \
            and re.search(r"\b(degrad|worse|declin|deteriorat)\w*", low):
        return "fluctuating"
    for stem, trend in TREND_WORDS.items():
        if re.search(rf"\b{stem}", low):
            if trend not in ("?", "+?", "-?"):
                return trend
            grows = stem == "increas" if trend == "?" else trend == "+?"
            positive = re.search(r"\b(quality|clarity|sharpness)\b", low)
            return ("improving" if grows else "degrading") if positive else (
                "degrading" if grows else "improving"
            )
    return None


# "A. Yes", "(B) Noise", "C) 1:52-2:13", "D: Never": an option carrying its own letter
_LABEL = re.compile(r"^\s*(?:\(([A-Za-z])\)|([A-Za-z])\s*[.):\]]|([A-Za-z])\s+[-–—]\s)\s*")


def unlabelled(options: Sequence[str]) -> list[str]:
    """The options without the letters they carry, when every one starts with its own
    ("A. Yes", "B. No"); as given otherwise ("A black screen" is no label)."""
    opts = list(options)
    found = [_LABEL.match(o) for o in opts]
    if len(opts) < 2 or not all(
            m and (m.group(1) or m.group(2) or m.group(3)).upper() == chr(ord("A") + i)
            for i, m in enumerate(found)):
        return opts
    return [o[m.end():] for o, m in zip(opts, found, strict=True)]


_BARE_LETTER = re.compile(r"^\s*([A-F])[+-]?\s*[.)]?\s*$", re.I)
# "A (clean), B (slight) ...", "A = best": what the question says each letter stands for
_LETTER_SAID = re.compile(r"\b([A-F])\s*(?:\(\s*([^()]{1,30}?)\s*\)|=\s*([^,;()]{1,30}?)"
                          r"(?=\s*[,;)]|\s*$))")
_LETTER_ENDS = re.compile(r"\b([A-F])\s*(?:is\s+|=\s*)?(best|worst)\b[^?]*?\b([A-F])\s*"
                          r"(?:is\s+|=\s*)?(best|worst)\b", re.I)
_GRADE_NAMES = ("bad", "poor", "fair", "good", "excellent")  # grade 1 .. 5


def lettered(question: str, options: Sequence[str]) -> list[str]:
    """Options that are bare letters, as the words the question gives them ("grade it: A
    (clean), B (slight) ..." -> "clean", "slight"; "A best, E worst" -> "excellent" .. "bad");
    other options as they are."""
    marks = [_BARE_LETTER.match(o) for o in options]
    if len(options) < 2 or not all(marks):
        return list(options)
    said = {m.group(1): (m.group(2) or m.group(3)).strip()
            for m in _LETTER_SAID.finditer(question)}
    keys = [m.group(1).upper() for m in marks if m]
    if sum(k in said for k in keys) >= 2:
        return [said.get(k, o) for k, o in zip(keys, options, strict=True)]
    ends = _LETTER_ENDS.search(question)
    if ends and ends.group(2).lower() != ends.group(4).lower():
        best, worst = (ends.group(1), ends.group(3)) if ends.group(2).lower() == "best" else (
            ends.group(3), ends.group(1))
        span = ord(worst.upper()) - ord(best.upper())
        if span:
            return [_GRADE_NAMES[round(4 - 4 * (ord(k) - ord(best.upper())) / span)]
                    if 0 <= (ord(k) - ord(best.upper())) / span <= 1 else o
                    for k, o in zip(keys, options, strict=True)]
    return list(options)


def parse_option(letter: str, text: str, duration_s: float, n_segments: int | None = None,
                 scenes: Sequence[tuple[float, float]] | None = None) -> Option:
    """The facts one option text claims (times, types, level, grade, trend, yes/no)."""
    bare = re.fullmatch(r"\s*(yes|no)\W*", text, re.I)  # a bare "No" claims no level
    graded = list(_GRADE_RE.finditer(text))
    gr = [GRADE_WORDS[m.group(1).lower()] for m in graded]
    # a level word inside a grade ("very" of "very comfortable", "very good") grades, it is
    # not a defect's level
    lv = [] if bare else [LEVEL_WORDS[m.group(1).lower()] for m in LEVEL_RE.finditer(text)
                          if not any(g.start() <= m.start() and m.end() <= g.end()
                                     and g.end() - g.start() > m.end() - m.start()
                                     for g in graded)]
    # an option naming only a part ("the beginning", "towards the end") is one of the parts
    # the options split the video into, not the short edge a question's "at the end" is
    part = part_only(text, duration_s, n_segments)
    wins = [] if part else windows(text, duration_s, n_segments, scenes)
    return Option(
        letter=letter,
        text=text,
        windows=wins or ([Window(*part, text.strip())] if part else []),
        types=distortions(text),
        level=max(lv) if lv else None,
        grade=min(gr) if gr else None,
        trend=_trend_of(text),
        yes=is_yes(text),
        no=is_no(text),
        none=bool(_NONE.search(text)),
        durations=durations(text),
        numbers=numbers(text),
    )
