"""Reading a quality question: its language, kind, time windows, distortion names and options.

Pure text processing, no video. The words come from the vocabulary data file
(agent/brains/local/vocabulary.toml); a question in German, French, Spanish or Chinese is
first glossed into English (agent/language.py), one in any other language is marked
`not_understood`. Its kind is read in agent/kinds.py, times in agent/times.py, distortion
names in agent/distortions.py, option claims in agent/options.py; their public names are
importable from here too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from agent.amounts import BOUND, duration_bounds, durations, numbers
from agent.context_times import question_windows
from agent.distortions import (
    TYPE_NAMES,
    Mention,
    distortion_type,
    distortions,
    mentions_generic,
    praised,
    type_name,
)
from agent.kinds import (
    BY_LENGTH,
    DIFFERENCE,
    KINDS,
    TYPED_KINDS,
    kind_of,
    question_kind,
    unrecognised,
)
from agent.language import gloss, read
from agent.options import (
    GRADE_WORDS,
    LEVEL_WORDS,
    TREND_WORDS,
    Option,
    lettered,
    letters,
    parse_option,
    unlabelled,
)
from agent.spelling import correct
from agent.times import (
    ORDINALS,
    POINT_HALF_WIDTH_S,
    Window,
    parse_time,
    segment_count,
    unit_windows,
    which_parts,
    windows,
)
from agent.trends import grows, growth_claim, trend_claim
from agent.vocabulary import vocabulary

VOCAB = vocabulary()


# "more than twice", "at least 3 times", "fewer than two freezes": a bound on how many events
# there are (a bound followed by a time unit is a duration, see times.BOUND).
_COUNT_BOUND = re.compile(
    r"\b(more than|over|at least|fewer than|less than|at most|no more than)\s+"
    r"(once|twice|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b(?:\s+times\b)?"
    r"(?!\s*(?:seconds?|secs?|s\b|minutes?|mins?|hours?|%|percent))", re.IGNORECASE)
_COUNT_OPS = {"more than": "gt", "over": "gt", "at least": "ge", "fewer than": "lt",
              "less than": "lt", "at most": "le", "no more than": "le"}


_MORE_OR_LESS = re.compile(r"\bmore or less\b", re.I)


def count_bound(text: str) -> tuple[str, float] | None:
    """("gt" | "ge" | "lt" | "le", N) when the text bounds how many events there are."""
    m = _COUNT_BOUND.search(text)
    if not m:
        return None
    n = (numbers(m.group(2)) or [None])[0]  # "twice": 2, as numbers reads it
    return (_COUNT_OPS[re.sub(r"\s+", " ", m.group(1).lower())], float(n)) \
        if n is not None else None


def _unbounded(text: str) -> str:
    """The text without its bounds on durations and counts ("longer than 5 s", "at least
    twice"): they ask for no comparison and no least."""
    return re.sub(r"\bat (?:least|most)\b", " ", _COUNT_BOUND.sub(" ", BOUND.sub(" ", text)),
                  flags=re.IGNORECASE)


def rank_event(evs: Sequence[dict], rank: int, etype: str) -> dict | None:
    """The rank-th event of `etype` in time order (rank -1: the last); None when there is
    no such event ("the fifth freeze" of three)."""
    mine = sorted((e for e in evs if e["type"] == etype), key=lambda e: e["start_s"])
    if not mine or rank > len(mine):
        return None
    return mine[rank - 1 if rank > 0 else -1]


@dataclass
class Question:
    """A parsed question: text (in English words), kind, named windows and distortions,
    direction, options, and its language (with the text as written and any words of it that
    name no known quality term)."""

    text: str
    kind: str
    windows: list[Window]
    types: list[Mention]
    options: list[Option]
    duration_s: float
    least: bool = False  # asks for the least/mildest/best instead of the worst
    praised: bool = False  # names a virtue ("the sharpness"), not a defect: its levels invert
    absent: bool = False  # a yes/no question asking whether the distortion is absent
    claim: str | None = None  # the trend a trend question claims (see trend_claim)
    n_segments: int | None = None
    language: str = "en"
    original: str = ""
    unknown: list[str] = field(default_factory=list)
    count: tuple[str, float] | None = None  # a bound on how many ("more than twice")
    ranks: list[tuple[int, str]] = field(default_factory=list)  # "the first freeze": (1, ...)
    besides: list[str] = field(default_factory=list)  # "apart from the noise": set aside
    least_s: float | None = None  # events must last at least this long ("longer than 5 s")
    most_s: float | None = None  # ... and at most this long ("under 2 seconds")
    corrected: list[tuple[str, str]] = field(default_factory=list)  # typos read: (as, for)

    def ranked(self, evs: Sequence[dict]) -> list[dict]:
        """The one event the question ranks ("the second freeze": the second of that type,
        in time order), or all of them when it ranks none (or one that does not exist)."""
        if len(self.ranks) != 1:
            return list(evs)
        one = rank_event(evs, *self.ranks[0])
        return [one] if one else list(evs)

    def lasting(self, evs: Sequence[dict]) -> list[dict]:
        """The events whose duration is within the question's bounds (all, when it sets none)."""
        return [e for e in evs if (self.least_s is None
                                   or e["end_s"] - e["start_s"] >= self.least_s - 0.05)
                and (self.most_s is None or e["end_s"] - e["start_s"] <= self.most_s + 0.05)]

    @property
    def bound_text(self) -> str:
        """The bounds in words (" lasting over 5 s"), or ""."""
        parts = ([f"over {self.least_s:g} s"] if self.least_s is not None else []) + (
            [f"under {self.most_s:g} s"] if self.most_s is not None else [])
        return f" lasting {' and '.join(parts)}" if parts else ""

    @property
    def type(self) -> str | None:
        """The first distortion type named in the question, if any."""
        return self.types[0].type if self.types else None

    @property
    def subtype(self) -> str:
        return self.types[0].subtype if self.types else ""

    def scope(self, duration: float) -> tuple[float, float]:
        """The span the question is about: its (first) window, else the whole video."""
        return (self.window.start_s, self.window.end_s) if self.window else (0.0, duration)

    @property
    def window(self) -> Window | None:
        """The single window the question is about (the first named), if any."""
        return self.windows[0] if self.windows else None


_DIRECTION_WORDS = re.compile(r"\b(end|ending|close|finish|start|beginning|opening|early|"
                              r"late|later)\b", re.IGNORECASE)


def _n_segments(question: str, options: Sequence[str]) -> int | None:
    n = segment_count(question)
    if n:
        return n
    nums = []
    for text in (question, *options):
        for m in re.finditer(r"\b(?:segment|part|section|clip)\s*#?\s*(\d+)\b", text, re.I):
            nums.append(int(m.group(1)))
        for m in re.finditer(r"\b(first|second|third|fourth|fifth|sixth|last)\s+segment\b",
                             text, re.I):
            nums.append(ORDINALS.get(m.group(1).lower(), 0))
    return max(nums) if nums and max(nums) >= 2 else None


# "the first freeze", "the second glitch", "the last flicker": one event of a type by its rank
_NTH = re.compile(r"\bthe\s+(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th|last|final|"
                  r"latest|earliest)\s+((?:[\w-]+\s+){0,2}?[\w-]+)\b", re.IGNORECASE)


_NTH_ELIDED = re.compile(r"\b(?:than|and|or|vs\.?|versus|with|to)\s+the\s+(first|second|third|"
                         r"fourth|fifth|1st|2nd|3rd|4th|5th|last|final)\b(?=\s*(?:one\b)?\s*"
                         r"[?.!,]|\s*$)", re.IGNORECASE)


def _rank(word: str) -> int:
    """An ordinal word as a rank: 1, 2, ...; -1 for the last; 0 when it is none."""
    word = word.lower()
    return -1 if word in ("last", "final", "latest") else 1 if word == "earliest" else \
        ORDINALS.get(word, 0)


def ordinals(text: str) -> list[tuple[int, str, tuple[int, int]]]:
    """(rank, event type, span) of each "the first/second/last <distortion>" in the text;
    rank -1 is the last. Parts of the video ("the first half", "the last minute") are not
    distortions and are left to the windows."""
    out = []
    for m in _NTH.finditer(text):
        named = distortions(m.group(2))
        if not named or named[0].pos > 0:
            continue
        rank = _rank(m.group(1))
        if rank:
            out.append((rank, named[0].type, (m.start(), m.start(2))))
    if out:  # "... the first freeze shorter than the last?": the noun left out after it
        for m in _NTH_ELIDED.finditer(text):
            rank = _rank(m.group(1))
            if rank and all(m.start(1) != span[0] + 4 for _, _, span in out):
                out.append((rank, out[-1][1], (m.start(1) - 4, m.end(1))))
        out.sort(key=lambda r: r[2][0])
    return out


_AFTER_QUESTION_MARK = re.compile(r"(?<=[?？])\s*")


def asked_part(text: str) -> str:
    """The sentences of a text that ask (end in a question mark), when it also says things
    that do not ("is anything wrong? looks fine to me but idk": the asker's own view, not
    what is asked); else the whole text."""
    parts = [p for p in _AFTER_QUESTION_MARK.split(text) if p.strip()]
    asking = [p for p in parts if p.rstrip().endswith(("?", "？"))]
    return " ".join(asking) if asking and len(asking) < len(parts) else text


def parse_question(
    question: str,
    options: Sequence[str] = (),
    duration_s: float = 0.0,
    scenes: Sequence[tuple[float, float]] | None = None,
) -> Question:
    """Parse a question and its options against a video of `duration_s` seconds; an English
    question it cannot read (or with words it does not know) is read again with its typos
    corrected, and that reading is kept when it understands more. Options that carry their
    own letters ("A. Yes") are read without them."""
    options = unlabelled(options)
    q = _parse(question, options, duration_s, scenes)
    if q.language != "en" or not (q.kind == "not_understood" or q.unknown):
        return q
    fixed, pairs = correct(question)
    if not pairs:
        return q
    q2 = _parse(fixed, options, duration_s, scenes)
    better = (q.kind == "not_understood") != (q2.kind == "not_understood") or \
        len(q2.unknown) < len(q.unknown) or (q2.types and not q.types)
    if not better or q2.kind == "not_understood":
        return q
    return replace(q2, original=question, corrected=pairs)


# An option that only points back at one of the question's own windows: "the first section"
# of "the section from 0:40 to 1:10 or the section from 2:10 to 2:30", "the latter".
_BACK_REFERENCE = re.compile(
    r"^\s*(?:the\s+)?(first|second|third|fourth|fifth|last|former|latter|earlier|later)"
    r"(?:\s+(?:one|section|"
    r"part|segment|interval|window|period|stretch|passage|portion|clip|span|range))?"
    r"(?:\s+one)?\s*[.!]?\s*$", re.I)
_BACK_INDEX = {"first": 0, "former": 0, "earlier": 0, "second": 1, "latter": -1, "later": -1,
               "third": 2, "fourth": 3, "fifth": 4, "last": -1}


def back_reference(text: str) -> int | None:
    """The index an option that only points back names ("the first one": 0, "the latter":
    -1), else None."""
    m = _BACK_REFERENCE.match(text)
    return _BACK_INDEX[m.group(1).lower()] if m else None


_PART_WORDS = (("start", re.compile(r"\b(?:beginning|start|opening|intro)\b", re.I)),
               ("end", re.compile(r"\b(?:end|ending|close|finish|outro)\b", re.I)),
               ("middle", re.compile(r"\bmiddle\b", re.I)))


def part_word(label: str) -> str | None:
    """The part of the video a window's words name ("at the beginning": "start"), if any."""
    return next((name for name, rx in _PART_WORDS if rx.search(label)), None)


def _as_named(o: Option, wins: Sequence[Window], parts: int | None = None,
              duration_s: float = 0.0,
              units: Sequence[tuple[float, float]] = ()) -> Option:
    """The option with the question's window it points back at, when it only does that and
    the question names two or more windows, or names the same part of the video as one of
    them; or, for "which quarter ...?", that quarter; for "which minute ...?", that minute."""
    part = part_word(o.windows[0].label) if len(o.windows) == 1 and len(wins) >= 2 else None
    same = [w for w in wins if part and part_word(w.label) == part]
    if len(same) == 1:  # "stronger at the start than at the end? / stronger at the start"
        return replace(o, windows=[Window(same[0].start_s, same[0].end_s, o.text.strip())])
    i = back_reference(o.text)
    if i is not None and not wins and not parts and units and -len(units) <= i < len(units):
        a, b = units[i]
        return replace(o, windows=[Window(a, b, o.text.strip())])
    if i is not None and not wins and parts and -parts <= i < parts and duration_s > 0:
        k = i % parts
        return replace(o, windows=[Window(k * duration_s / parts, (k + 1) * duration_s / parts,
                                          o.text.strip())])
    if i is None or len(wins) < 2 or i >= len(wins):
        return o
    w = wins[i]
    return replace(o, windows=[Window(w.start_s, w.end_s, o.text.strip())])


# "Apart from the noise, is anything wrong?": the types named in such a clause are set aside
# (the question asks about the others).
_BESIDES = re.compile(r"\b(?:apart from|besides|other than|except(?: for)?|aside from|"
                      r"excluding|not counting|leaving aside)\b[^,;?.!]{0,40}", re.IGNORECASE)


def _set_aside(text: str, pos: int) -> bool:
    """Whether the word at `pos` lies in a clause that sets it aside."""
    return any(m.start() <= pos < m.end() for m in _BESIDES.finditer(text))


def _parse(
    question: str,
    options: Sequence[str],
    duration_s: float,
    scenes: Sequence[tuple[float, float]] | None,
) -> Question:
    """One reading of a question (see parse_question)."""
    reading = read(question, " ".join(options))
    text = reading.gloss
    opt_texts = lettered(text, [gloss(o, reading.code) for o in options])
    n_seg = _n_segments(text, opt_texts)
    opts = [parse_option(letter, t, duration_s, n_seg, scenes)
            for letter, t in zip(letters(len(options)), opt_texts, strict=True)]
    # "longer than 5 s" bounds the events; it is no comparison of parts of the video
    ranks = ordinals(text) if reading.supported else []
    plain = text
    for _, _, (a, b) in reversed(ranks):  # "the last glitch" names an event, not an order
        plain = plain[:a] + "the " + plain[b:]
    plain = _unbounded(plain)
    kind = kind_of(plain, opt_texts) if reading.supported else "not_understood"
    least_s, most_s = duration_bounds(text)
    types = distortions(text) if reading.supported else []
    if DIFFERENCE.search(text) and len({m.type for m in types}) == 1:
        kind = "comparison"  # "how much longer is the longest freeze than the shortest?"
    aside = [m for m in types if _set_aside(text, m.pos)]  # "apart from the noise, ...?"
    types = [m for m in types if m not in aside]
    # "Is the image sharp?" names no defect, only a picture free of one: ask about its absence
    asked = asked_part(text)  # ("is anything wrong? looks fine to me": the asker's view)
    praise = not types and bool(good := praised(asked) if reading.supported else [])
    if praise:
        types = good
        if kind == "stability" and all(o.yes or o.no for o in opts):
            kind = "detection"  # "is the camera steady?": is it free of shake
    if kind == "stability" and any(m.type == "jitter" for m in types):
        kind = "detection"  # "is the footage stable or does the camera wobble?": the shake
    unknown = unrecognised(text, reading.code) if kind in TYPED_KINDS and not types \
        and not mentions_generic(text) else []
    wins = question_windows(text, lambda t: windows(t, duration_s, n_seg, scenes))
    if kind == "trend":  # "towards the end", "later on": where it goes, not a scope
        wins = [w for w in wins if not _DIRECTION_WORDS.search(w.label)]
    units = unit_windows(text, duration_s)  # "which minute ...? the first / second / third"
    opts = [_as_named(o, wins, which_parts(text), duration_s, units) for o in opts]
    said = {(w.start_s, w.end_s) for o in opts for w in o.windows}
    if len(wins) >= 2 and len(said) == 1 and sum(bool(o.windows) for o in opts) >= 2 and \
            said <= {(w.start_s, w.end_s) for w in wins}:
        # "is 1:40-2:00 softer than 0:30-0:45? / 1:40-2:00 is softer / ... is sharper": the
        # options repeat the question's subject; they claim which way, not where
        opts = [replace(o, windows=[]) for o in opts]
    offered = {(w.start_s, w.end_s) for o in opts for w in o.windows}
    if kind == "localization" and wins and all((w.start_s, w.end_s) in offered for w in wins):
        wins = []  # "in the first or in the second half?": the options' parts, not a scope
    return Question(
        text=text,
        kind=kind,
        windows=wins,
        types=types,
        options=opts,
        duration_s=float(duration_s),
        # ("more or less severe than" asks which way, not for the least)
        least=praise or bool(VOCAB.least.search(_MORE_OR_LESS.sub("", asked_part(plain)))),
        praised=praise,
        absent=kind == "detection" and (praise or bool(VOCAB.absent.search(asked))),
        claim=trend_claim(text, bool(types)) if kind == "trend" else None,
        n_segments=n_seg,
        language=reading.code,
        original=question,
        unknown=unknown,
        least_s=least_s,
        most_s=most_s,
        count=count_bound(text) if kind == "detection" else None,
        ranks=[(r, t) for r, t, _ in ranks],
        besides=list(dict.fromkeys(m.type for m in aside)),
    )


__all__ = [
    "BY_LENGTH", "GRADE_WORDS", "KINDS", "LEVEL_WORDS", "POINT_HALF_WIDTH_S", "TREND_WORDS",
    "TYPE_NAMES",
    "Mention", "Option", "Question", "Window", "back_reference", "distortion_type",
    "distortions", "durations",
    "growth_claim", "grows", "letters", "mentions_generic", "numbers", "parse_option",
    "parse_question", "parse_time", "question_kind", "rank_event", "segment_count",
    "trend_claim", "type_name", "unrecognised", "windows",
]
