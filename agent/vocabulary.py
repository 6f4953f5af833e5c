"""The vocabulary data file (agent/brains/local/vocabulary.toml), loaded once and compiled.

Words live in the data file so that a synonym or a language is an edit there, not here; this
module only turns its small phrase syntax (described at the top of the file) into regular
expressions and offers a matcher where the longest phrase wins.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from agent.wordforms import WordForms

VOCAB_PATH = Path(__file__).parent / "brains" / "local" / "vocabulary.toml"

# Chinese, Japanese (kana) and Korean characters: matched without word boundaries.
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_SEP = r"[\s\-]+"
_TOKEN = re.compile(r"\([^)]*\)\*?|\[[^\]]*\]|\S+")


def _letter(ch: str) -> str:
    """One letter as a pattern: an accented letter also matches its bare form."""
    if ch == "-":
        return r"[\s\-]"
    base = unicodedata.normalize("NFD", ch)[0]
    if base != ch and base.isalpha():
        return f"[{re.escape(ch)}{re.escape(base)}]"
    return re.escape(ch)


def _word(token: str) -> str:
    """One word token: `*` at either end stands for any further letters."""
    head = r"\w*" if token.startswith("*") else ""
    tail = r"\w*" if token.endswith("*") and len(token) > 1 else ""
    core = token.strip("*")
    return head + "".join(_letter(c) for c in core) + tail


def _body(phrase: str) -> str:
    """A phrase without its boundaries: tokens joined by spaces or hyphens, groups resolved."""
    parts: list[tuple[str, bool]] = []
    for tok in _TOKEN.findall(phrase):
        if tok.startswith("("):
            star = tok.endswith("*")
            alts = tok[1:].rstrip("*")[:-1].split("|")
            parts.append(("(?:" + "|".join(_body(a) for a in alts) + ")"
                          + (r"\w*" if star else ""), False))
        elif tok.startswith("["):
            alts = tok[1:-1].split("|")
            parts.append(("(?:" + "|".join(_body(a) for a in alts) + ")", True))
        else:
            parts.append((_word(tok), False))
    out, pending_sep = "", False
    for i, (src, optional) in enumerate(parts):
        if i == 0:
            out, pending_sep = (f"(?:{src}{_SEP})?", False) if optional else (src, True)
        elif optional:
            out += f"(?:{_SEP}{src})?" if pending_sep else f"(?:{src}{_SEP})?"
        else:
            out += (_SEP if pending_sep else "") + src
            pending_sep = True
    return out


def phrase_pattern(phrase: str, hyphen: bool = True) -> str:
    """The regular expression of one phrase of the data file (see its header).

    Latin-script phrases match whole words (`hyphen`: a hyphen also ends a word, so "focus"
    is not found inside "out-of-focus"); Chinese phrases match anywhere.
    """
    if phrase.startswith("re:"):
        return phrase[3:]
    body = _body(phrase)
    if CJK.search(phrase):
        return body
    edge = r"\w-" if hyphen else r"\w"
    left = "" if phrase.startswith("*") or not re.match(r"[\w(\[]", phrase) else f"(?<![{edge}])"
    right = "" if not re.search(r"[\w*)\]]$", phrase) else f"(?![{edge}])"
    return left + body + right


def any_of(phrases: Iterable[str], hyphen: bool = False, anchored: bool = False) -> re.Pattern:
    """One case-insensitive pattern matching any of the phrases (anchored: at the start)."""
    alts = "|".join(f"(?:{phrase_pattern(p, hyphen)})" for p in phrases)
    return re.compile((r"^\s*" if anchored else "") + f"(?:{alts})", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """One phrase found in a text: its span, the words, and what the phrase stands for."""

    start: int
    end: int
    text: str
    payload: Any


class Matcher:
    """Phrases with payloads; `find` returns non-overlapping matches, the longest winning.

    With `stems` ({phrase: language}), plain phrases (words only) also match other forms of
    their words (agent/wordforms.py): "pixelated" finds "pixelating", "frame drops" finds
    "frames dropped"."""

    def __init__(self, entries: Iterable[tuple[str, Any]], hyphen: bool = True,
                 stems: dict[str, str] | None = None) -> None:
        entries = list(entries)
        self.entries = [(re.compile(phrase_pattern(p, hyphen), re.IGNORECASE), payload,
                         len(p.replace("*", ""))) for p, payload in entries]
        # One pattern of them all, to skip texts that hold none of the phrases.
        self._any = re.compile("|".join(f"(?:{r.pattern})" for r, _, _ in self.entries) or "$^",
                               re.IGNORECASE)
        self.forms = WordForms((p, payload, stems[p]) for p, payload in entries
                               if stems and p in stems) if stems else None

    def find(self, text: str) -> list[Found]:
        """The phrases in `text`, in order; where two overlap, the longer (then the more
        literal) one is kept."""
        cands = self.forms.find(text) if self.forms else []
        if not cands and not self._any.search(text):
            return []
        for rx, payload, literal in self.entries:
            for m in rx.finditer(text):
                if m.end() > m.start():
                    cands.append((m.start(), m.end(), literal, payload))
        cands.sort(key=lambda c: (-(c[1] - c[0]), -c[2], c[0]))
        taken: list[tuple[int, int, Any]] = []
        for a, b, _, payload in cands:
            if all(b <= x or a >= y for x, y, _ in taken):
                taken.append((a, b, payload))
        return [Found(a, b, text[a:b], p) for a, b, p in sorted(taken, key=lambda t: t[0])]


@dataclass(frozen=True)
class TypeInfo:
    """An event type: its name in answers, why it hurts, and its fallback types."""

    name: str
    why: str
    fallback: tuple[str, ...]


@dataclass(frozen=True)
class Term:
    """What a type phrase stands for: event type, subtype, types it also accepts, language."""

    type: str
    subtype: str
    also: tuple[str, ...]
    alone: bool
    lang: str
    good: bool = False  # the words praise the picture ("sharp"): they ask about the type's absence


@dataclass(frozen=True)
class Language:
    """A language the detector knows: its name, whether it is answered, its common words."""

    code: str
    name: str
    supported: bool
    stopwords: frozenset[str]


class Vocabulary:
    """Every table of the data file, compiled."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.types: dict[str, TypeInfo] = {
            k: TypeInfo(v["name"], v.get("why", ""), tuple(v.get("fallback", ())))
            for k, v in data["types"].items()}
        self.languages: dict[str, Language] = {
            k: Language(k, v["name"], bool(v.get("supported")), frozenset(v["stopwords"]))
            for k, v in data["languages"].items()}
        self.supported = [k for k, v in self.languages.items() if v.supported]
        self.scripts: dict[str, str] = dict(data.get("scripts", {}))
        terms = []
        for group in data["phrases"]:
            for lang in self.supported:
                for p in group.get(lang, ()):
                    terms.append((p, Term(group["type"], group.get("subtype", ""),
                                          tuple(group.get("also", ())),
                                          bool(group.get("alone", True)), lang)))
        # Words for a picture free of a type ("sharp", "smooth playback") share the matcher, so
        # that the longer phrase wins either way ("too sharp" is sharpening, "exposure is
        # correct" no exposure problem); they are matched as written, without other word forms.
        for group in data.get("virtues", ()):
            for lang in self.supported:
                for p in group.get(lang, ()):
                    terms.append((p, Term(group["type"], "", tuple(group.get("also", ())),
                                          True, lang, good=True)))
        self.terms = Matcher(terms, stems={p: t.lang for p, t in terms if not t.good})
        generic = [(p, lang) for lang in self.supported for p in data["generic"].get(lang, ())]
        self.generic = Matcher(generic, stems=dict(generic))
        self.tone = frozenset(w.lower() for w in data["tone"]["words"])
        kinds = data["kinds"]
        self.kind_order: list[str] = list(kinds["order"])
        self.kinds: dict[str, re.Pattern] = {k: any_of(kinds[k]["en"]) for k in self.kind_order}
        self.cues: dict[str, re.Pattern] = {
            k: any_of(v, anchored=k in ("open_starts",))
            for k, v in kinds.items() if isinstance(v, list) and k != "order"}
        self.scope = {k: any_of(v) for k, v in data["scope"].items()}
        self.least = any_of(data["direction"]["least"])
        self.absent = any_of(data["direction"]["absent"])
        self.grows = any_of(data["grows"]["en"])
        self.paraphrase: list[tuple[re.Pattern, str]] = [
            (re.compile(k, re.IGNORECASE), v) for k, v in data.get("paraphrase", {}).items()]
        opts = data["options"]
        self.yes = any_of(opts["yes"], anchored=True)
        self.no = any_of(opts["no"], anchored=True)
        self.none = any_of(opts["none"])
        self.levels: dict[str, float] = {k: float(v) for k, v in opts["levels"].items()}
        self.grades: dict[str, float] = {k: float(v) for k, v in opts["grades"].items()}
        self.trends: dict[str, str] = dict(opts["trends"])
        self.gloss: dict[str, Matcher] = {}
        self.gloss_patterns: dict[str, list[tuple[re.Pattern, str]]] = {}
        for lang, table in data.get("gloss", {}).items():
            pats = table.get("patterns", {})
            self.gloss[lang] = Matcher(((p, en) for en, ps in table.items() if en != "patterns"
                                        for p in ps), hyphen=False)
            self.gloss_patterns[lang] = [(re.compile(k, re.IGNORECASE), v) for k, v in
                                         pats.items()]
        self.common = frozenset(w.lower() for w in data.get("english", {}).get("common", ()))

    def type_name(self, etype: str | None) -> str:
        """The name of an event type in answers ("compression artifacts")."""
        if not etype:
            return "quality distortion"
        info = self.types.get(etype)
        return info.name if info else etype

    def fallback(self, etype: str) -> tuple[str, ...]:
        """Types whose events answer for `etype` when it has none of its own."""
        info = self.types.get(etype)
        return info.fallback if info else ()


@cache
def vocabulary(path: str | None = None) -> Vocabulary:
    """The vocabulary of the data file (loaded once per path)."""
    with open(path or VOCAB_PATH, "rb") as fh:
        return Vocabulary(tomllib.load(fh))


def words(patterns: Sequence[re.Pattern], text: str) -> list[tuple[int, int]]:
    """The spans every pattern matches in `text`."""
    return [m.span() for rx in patterns for m in rx.finditer(text) if m.end() > m.start()]
