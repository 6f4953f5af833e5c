"""Other forms of a vocabulary phrase's words: "pixelating" for "pixelated", "frames dropped"
for "frame drops", "artefacting" for "artefacts".

The vocabulary lists phrases as people usually write them; users inflect them freely. Each
plain phrase (words only, no pattern syntax) is reduced to the Snowball stems of its words,
and a text's words are stemmed the same way, so any inflection of the same words matches. A
text word must be at least as long as the phrase's word minus two letters: a suffix may be
added or swapped, but a phrase is never found in a shorter base word ("darkness" does not
reach "dark", "grainy" not "grain").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache
from typing import Any

import snowballstemmer

# The vocabulary's language codes with a Snowball stemmer.
STEMMERS: dict[str, str] = {"en": "english", "de": "german", "fr": "french", "es": "spanish",
                            "it": "italian", "pt": "portuguese", "nl": "dutch"}
PLAIN = re.compile(r"^[^\W\d_]+(?:[\s\-][^\W\d_]+){0,3}$")
_WORD = re.compile(r"[^\W\d_]+")
SHORTER_BY = 2  # a text word may be at most this much shorter than the phrase's word


@cache
def _stemmer(lang: str) -> Any:
    return snowballstemmer.stemmer(STEMMERS[lang])


def _positive(word: str) -> str:
    """An English comparative or superlative in -ier/-iest, or a superlative in -est, as its
    plain adjective ("noisiest" noisy, "darkest" dark, "biggest" big), which Snowball leaves
    alone; other words whose ending looks alike reduce to nothing the vocabulary holds."""
    for end in ("iest", "ier"):
        if word.endswith(end) and len(word) > len(end) + 2:
            return word[: -len(end)] + "y"
    if word.endswith("est") and len(word) >= 6:
        base = word[:-3]
        return base[:-1] if len(base) > 2 and base[-1] == base[-2] else base
    return word


def stem(word: str, lang: str = "en") -> str:
    """The Snowball stem of one word (lower-cased); English degrees of comparison first
    reduced to the plain adjective."""
    word = word.lower()
    return _stemmer(lang).stemWord(_positive(word) if lang == "en" else word)


class WordForms:
    """Plain phrases by the stems of their words; `find` gives Matcher candidates."""

    def __init__(self, entries: Iterable[tuple[str, Any, str]]) -> None:
        self.index: dict[tuple[str, tuple[str, ...]], list[tuple[tuple[int, ...], int, Any]]] = {}
        self.langs: set[str] = set()
        for phrase, payload, lang in entries:
            if lang not in STEMMERS or not PLAIN.match(phrase):
                continue
            words = _WORD.findall(phrase.lower())
            key = (lang, tuple(stem(w, lang) for w in words))
            self.index.setdefault(key, []).append(
                (tuple(len(w) for w in words), len(phrase), payload))
            self.langs.add(lang)
        self.longest = max((len(k[1]) for k in self.index), default=0)

    def find(self, text: str) -> list[tuple[int, int, int, Any]]:
        """(start, end, literal length, payload) of every phrase found by its word forms."""
        if not self.index:
            return []
        words = [(m.start(), m.end(), m.group(0).lower()) for m in _WORD.finditer(text)]
        out = []
        for lang in self.langs:
            stems = [stem(w, lang) for _, _, w in words]
            for i in range(len(words)):
                for n in range(1, min(self.longest, len(words) - i) + 1):
                    # words of one phrase sit next to each other (a space or a hyphen apart)
                    if n > 1 and not re.fullmatch(r"[\s\-]+",
                                                  text[words[i + n - 2][1]:words[i + n - 1][0]]):
                        break
                    for lengths, literal, payload in self.index.get(
                            (lang, tuple(stems[i:i + n])), ()):
                        if all(len(words[i + j][2]) >= lengths[j] - SHORTER_BY
                               for j in range(n)):
                            # ranked as one letter less literal than the phrase as written
                            out.append((words[i][0], words[i + n - 1][1], literal - 1, payload))
        return out
