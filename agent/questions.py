"""Reading a quality question: its language, kind, time windows, distortion names and options.

Pure text processing, no video. The words come from the vocabulary data file
(agent/brains/local/vocabulary.toml); a question in German, French, Spanish or Chinese is
first glossed into English (agent/language.py), one in any other language is marked
`not_understood`. Times live in agent/times.py, distortion names in agent/distortions.py,
option claims in agent/options.py; their public names are importable from here too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from agent.amounts import BOUND, duration_bounds, durations, numbers
from agent.distortions import (
    TYPE_NAMES,
    Mention,
    distortion_type,
    distortions,
    mentions_generic,
    praised,
    type_name,
)
from agent.language import gloss, read
from agent.options import (
    GRADE_WORDS,
    LEVEL_WORDS,
    TREND_WORDS,
    Option,
    has_level,
    is_no,
    is_yes,
    letters,
    parse_option,
)
from agent.spelling import correct
from agent.times import (
    ORDINALS,
    POINT_HALF_WIDTH_S,
    SIDE_OF_TIME,
    Window,
    parse_time,
    segment_count,
    which_parts,
    windows,
)
from agent.trends import grows, growth_claim, trend_claim
from agent.vocabulary import vocabulary, words

VOCAB = vocabulary()

KINDS: tuple[str, ...] = (
    "detection", "localization", "classification", "severity", "comparison",
    "cumulative_effect", "integration", "temporal_relation", "stability", "dominant_factor",
    "trend", "overall", "open", "out_of_scope", "not_understood",
)
# Kinds whose answer depends on the distortion type named: when none known is named, the
# question's unknown words are reported.
TYPED_KINDS = ("localization", "detection", "severity", "comparison", "open")
_CUE = VOCAB.cues
_SCOPE = VOCAB.scope


# "more than twice", "at least 3 times", "fewer than two freezes": a bound on how many events
# there are (a bound followed by a time unit is a duration, see times.BOUND).
_COUNT_BOUND = re.compile(
    r"\b(more than|over|at least|fewer than|less than|at most|no more than)\s+"
    r"(once|twice|\d+|one|two|three|four|five|six|seven|eight|nine|ten)\b(?:\s+times\b)?"
    r"(?!\s*(?:seconds?|secs?|s\b|minutes?|mins?|hours?|%|percent))", re.IGNORECASE)
_COUNT_OPS = {"more than": "gt", "over": "gt", "at least": "ge", "fewer than": "lt",
              "less than": "lt", "at most": "le", "no more than": "le"}


# "first" / "last" said of when one distortion shows up (not "the first half": a window)
_FIRST_OR_LAST = re.compile(r"\b(?:first|earliest|initially|last|latest)\b"
                            r"(?!\s+(?:half|third|quarter|minute|minutes|second|seconds|part|"
                            r"section|segment|hour|few|\d))", re.I)

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


# Question words: a question without any of them asks yes or no.
_WH = re.compile(r"\b(?:when|where|which|what|how|why|who|whom|whose)\b", re.IGNORECASE)


def _is_quality(text: str) -> bool:
    """Whether a text uses a word of picture quality (beyond naming the video itself)."""
    return bool(_SCOPE["quality"].search(text))


def question_kind(question: str, options: Sequence[str] = ()) -> str:
    """The LongVQUBench dimension a question asks about (a key of KINDS)."""
    reading = read(question, " ".join(options))
    if not reading.supported:
        return "not_understood"
    return _kind(reading.gloss, [gloss(o, reading.code) for o in options])


# "rate / score / grade <one type>": its level, said on the scale asked for.
_RATES = re.compile(r"\b(?:rate|score|grade)\b|\bon a scale\b", re.IGNORECASE)
# "What share of the video does the low frame rate affect?" asks a share, not a rating.
_SHARE = re.compile(r"\b(?:fraction|percentage|proportion|share|percent|portion)\s+of\b|"
                    r"\bhow much of\b", re.IGNORECASE)
# "the longest / shortest <one type>": one event of the type picked by its length (also read
# by the local brain's by_length).
BY_LENGTH = re.compile(r"\b(longest|shortest)\b", re.IGNORECASE)


def _kind(q: str, options: Sequence[str]) -> str:
    """The kind of a question already in English words (see question_kind)."""
    q = q.strip()
    low = q.lower()
    ordered = SIDE_OF_TIME.sub(" ", low)  # "after 1:00" names a window, not an order
    has_dist = bool(distortions(q)) or bool(praised(q)) or mentions_generic(q)
    if _SCOPE["outside"].search(q) and not has_dist and not _is_quality(
            _SCOPE["medium"].sub("", q)):
        return "out_of_scope"
    if not options and _CUE["open_starts"].match(low) and not (
            low.startswith("how") and VOCAB.kinds["trend"].search(low)):
        return "open"  # (but "how does the quality develop over time?" is a trend)
    if BY_LENGTH.search(low) and not re.search(r"\bhow long\b", low) \
            and not _CUE["yes_no_start"].match(low) and len({m.type for m in distortions(q)}) == 1:
        return "localization"  # "which freeze lasts the longest?": that one, and when
    if _FIRST_OR_LAST.search(low) and _CUE["asks_time"].search(low) \
            and not re.search(r"\b(?:which|or|before|after|than)\b", low) \
            and len({m.type for m in distortions(q)}) == 1:
        return "localization"  # "when does the noise appear first?": that one, and when
    opt_windows = [o for o in options if windows(o, 3600.0)]
    if len(options) >= 2 and not has_dist and sum(
            bool(distortions(o)) and o in opt_windows for o in options) >= 2:
        return "classification"  # "which statement is true?" over claims of a type somewhere
    # Options that are all times ask "when", even when the question reads "which segment".
    if options and len(opt_windows) == len(options) and _CUE["asks_time"].search(low) \
            and not _CUE["ranking"].search(low):
        return "localization"
    # "Which of these stretches ...?" over options that are all times ranks them.
    if options and len(opt_windows) == len(options) >= 2 and re.search(r"\bwhich\b", low):
        return "comparison"
    if grows(low):
        return "trend"
    levelled = sum(has_level(o) and not is_yes(o) and not is_no(o) for o in options)
    if options and levelled >= max(2, len(options) - 1) and not _CUE["not_severity"].search(low):
        return "severity"
    graded = sum(parse_option("A", o, 0.0).grade is not None for o in options)
    if options and graded >= max(2, len(options) - 1) and not _CUE["not_severity"].search(low) \
            and len({m.type for m in distortions(q) or praised(q)}) == 1:
        return "severity"  # "how good is the focus? good / fair / poor": that one's grade
    if _RATES.search(low) and len({m.type for m in distortions(q)}) == 1 \
            and not _CUE["yes_no_start"].match(low) and not _SHARE.search(low):
        return "severity"  # "rate the noise from 1 to 5": that one's level, on that scale
    for kind in VOCAB.kind_order:
        if VOCAB.kinds[kind].search(ordered if kind == "temporal_relation" else low):
            if kind == "comparison" and _CUE["which_type"].search(low) \
                    and not _CUE["pairwise"].search(low):
                return "classification"
            if kind == "comparison" and (_CUE["unit_where"].search(low)
                                         or _CUE["part_where"].search(low)):
                return "localization"
            if kind == "severity" and _CUE["yes_no_start"].match(low) \
                    and not _CUE["how"].search(low):
                continue
            return kind
    if options and all(is_yes(o) or is_no(o) for o in options):
        return "detection"
    if options and sum(bool(parse_option("A", o, 0.0).trend) for o in options) >= max(
            2, len(options) - 1):
        return "trend"  # "how does it hold up?" over options that are all trends
    if not options:
        if (has_dist or VOCAB.absent.search(low)) and re.search(r"[?？]\s*$", q) \
                and not _WH.search(low):
            return "detection"  # "¿La imagen es nítida?": yes/no in any word order
        return "open" if has_dist or _is_quality(q) else "not_understood"
    if sum(bool(distortions(o)) for o in options) >= len(options) - 1:
        return "classification"
    if not has_dist and not _is_quality(q):
        return "not_understood"
    return "overall"


def unrecognised(text: str, lang: str = "en") -> list[str]:
    """Words of a question that no part of the vocabulary knows (at most three): what a
    question that names no known quality term may have called its problem."""
    known = [*VOCAB.kinds.values(), *_CUE.values(), *_SCOPE.values(), VOCAB.least,
             VOCAB.none]
    covered = words(known, text) + [(f.start, f.end) for f in VOCAB.terms.find(text)] + [
        (f.start, f.end) for f in VOCAB.generic.find(text)]
    stop = VOCAB.languages[lang].stopwords if lang in VOCAB.languages else frozenset()
    out: list[str] = []
    for m in re.finditer(r"[^\W\d_]+(?:'[^\W\d_]+)?", text):
        w = m.group(0).lower()
        if len(w) < 3 or w in VOCAB.common or w in stop or w in LEVEL_WORDS or \
                w in GRADE_WORDS or w in ORDINALS or any(a < m.end() and m.start() < b
                                                         for a, b in covered):
            continue
        if parse_time(w) is None and w not in out and not re.fullmatch(r"\w+(ly|ing)", w):
            out.append(w)
    return out[:3]


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


def parse_question(
    question: str,
    options: Sequence[str] = (),
    duration_s: float = 0.0,
    scenes: Sequence[tuple[float, float]] | None = None,
) -> Question:
    """Parse a question and its options against a video of `duration_s` seconds; an English
    question it cannot read (or with words it does not know) is read again with its typos
    corrected, and that reading is kept when it understands more."""
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


def _as_named(o: Option, wins: Sequence[Window], parts: int | None = None,
              duration_s: float = 0.0) -> Option:
    """The option with the question's window it points back at, when it only does that and
    the question names two or more windows; or, for "which quarter ...?", that quarter."""
    i = back_reference(o.text)
    if i is not None and not wins and parts and -parts <= i < parts and duration_s > 0:
        k = i % parts
        return replace(o, windows=[Window(k * duration_s / parts, (k + 1) * duration_s / parts,
                                          o.text.strip())])
    if i is None or len(wins) < 2 or i >= len(wins):
        return o
    w = wins[i]
    return replace(o, windows=[Window(w.start_s, w.end_s, o.text.strip())])


def _parse(
    question: str,
    options: Sequence[str],
    duration_s: float,
    scenes: Sequence[tuple[float, float]] | None,
) -> Question:
    """One reading of a question (see parse_question)."""
    reading = read(question, " ".join(options))
    text = reading.gloss
    opt_texts = [gloss(o, reading.code) for o in options]
    n_seg = _n_segments(text, opt_texts)
    opts = [parse_option(letter, t, duration_s, n_seg, scenes)
            for letter, t in zip(letters(len(options)), opt_texts, strict=True)]
    # "longer than 5 s" bounds the events; it is no comparison of parts of the video
    ranks = ordinals(text) if reading.supported else []
    plain = text
    for _, _, (a, b) in reversed(ranks):  # "the last glitch" names an event, not an order
        plain = plain[:a] + "the " + plain[b:]
    plain = _unbounded(plain)
    kind = _kind(plain, opt_texts) if reading.supported else "not_understood"
    least_s, most_s = duration_bounds(text)
    types = distortions(text) if reading.supported else []
    # "Is the image sharp?" names no defect, only a picture free of one: ask about its absence
    praise = not types and bool(good := praised(text) if reading.supported else [])
    if praise:
        types = good
        if kind == "stability" and all(o.yes or o.no for o in opts):
            kind = "detection"  # "is the camera steady?": is it free of shake
    unknown = unrecognised(text, reading.code) if kind in TYPED_KINDS and not types \
        and not mentions_generic(text) else []
    wins = windows(text, duration_s, n_seg, scenes)
    if kind == "trend":  # "towards the end", "later on": where it goes, not a scope
        wins = [w for w in wins if not _DIRECTION_WORDS.search(w.label)]
    opts = [_as_named(o, wins, which_parts(text), duration_s) for o in opts]
    return Question(
        text=text,
        kind=kind,
        windows=wins,
        types=types,
        options=opts,
        duration_s=float(duration_s),
        least=praise or bool(VOCAB.least.search(plain)),
        praised=praise,
        absent=kind == "detection" and (praise or bool(VOCAB.absent.search(text))),
        claim=trend_claim(text, bool(types)) if kind == "trend" else None,
        n_segments=n_seg,
        language=reading.code,
        original=question,
        unknown=unknown,
        least_s=least_s,
        most_s=most_s,
        count=count_bound(text) if kind == "detection" else None,
        ranks=[(r, t) for r, t, _ in ranks],
    )


__all__ = [
    "GRADE_WORDS", "KINDS", "LEVEL_WORDS", "POINT_HALF_WIDTH_S", "TREND_WORDS", "TYPE_NAMES",
    "Mention", "Option", "Question", "Window", "back_reference", "distortion_type",
    "distortions", "durations",
    "growth_claim", "grows", "letters", "mentions_generic", "numbers", "parse_option",
    "parse_question", "parse_time", "question_kind", "rank_event", "segment_count",
    "trend_claim", "type_name", "unrecognised", "windows",
]
