"""Misspelt English question words read as the vocabulary's nearest word ("wen does it get
blury?" -> "when does it get blurry?"), so a typo does not make a question unreadable."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

from agent.vocabulary import vocabulary

# Sections whose strings are not English words a question uses: other languages' words, the
# glosses into English, regular expressions, and language detection data.
_SKIP_KEYS = {"de", "fr", "es", "zh", "gloss", "paraphrase", "languages", "scripts"}
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
CUTOFF = 0.8  # difflib similarity a word needs to be read as a vocabulary word, whose length
# it must also keep to within a letter (two for words of 7+ letters)


def _strings(node: object, out: list[str]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            if k not in _SKIP_KEYS:
                _strings(v, out)
    elif isinstance(node, list):
        for v in node:
            _strings(v, out)
    elif isinstance(node, str) and not node.startswith("re:"):
        out.append(node)


@lru_cache(maxsize=1)
def lexicon() -> frozenset[str]:
    """Every English word (3+ letters) the vocabulary file's phrases and word lists use (from
    the vocabulary already loaded, not a second read of its file)."""
    found: list[str] = []
    _strings(vocabulary().data, found)
    return frozenset(w for s in found for w in _WORD.findall(s.lower()) if len(w) >= 3)


def correct(text: str) -> tuple[str, list[tuple[str, str]]]:
    """The text with each word unknown to the vocabulary replaced by its closest vocabulary
    word, if one is close enough; and the (written, read) pairs replaced."""
    words = lexicon()
    pairs: list[tuple[str, str]] = []

    def fix(m: re.Match) -> str:
        w = m.group(0)
        low = w.lower()
        if len(low) < 3 or low in words:
            return w
        near = [n for n in difflib.get_close_matches(low, words, n=3, cutoff=CUTOFF)
                if abs(len(n) - len(low)) <= (1 if len(low) <= 6 else 2)]
        if not near:  # ("cartoon" is no typo of "cartoonish": a typo keeps the length)
            return w
        pairs.append((w, near[0]))
        return near[0]

    return re.sub(r"[A-Za-z]+", fix, text), pairs
