"""Which language a question is written in, and its gloss: the same question in the English
words the question rules know.

Detection is cheap: the script first (Han without kana is Chinese; kana, Hangul, Cyrillic,
Arabic... name their language), then, for Latin script, each language's common words and the
quality terms of the vocabulary it uses. A supported language's question words, time words
and option words are glossed into English; its quality terms are left as written (they are
matched in every language), so "Wann flackert das Bild?" reads "when flackert the picture?".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from agent.time_units import digits_before_units
from agent.vocabulary import Term, vocabulary

VOCAB = vocabulary()

_SCRIPTS: tuple[tuple[str, str], ...] = (
    ("ja", r"[\u3040-\u30ff]"), ("ko", r"[\uac00-\ud7af\u1100-\u11ff]"),
    ("ru", r"[\u0400-\u04ff]"), ("ar", r"[\u0600-\u06ff]"), ("el", r"[\u0370-\u03ff]"),
    ("he", r"[\u0590-\u05ff]"), ("hi", r"[\u0900-\u097f]"), ("th", r"[\u0e00-\u0e7f]"),
)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
# Letters that only some of the Latin-script languages use.
_MARKS: dict[str, str] = {"ß": "de", "ä": "de", "ö": "de", "ü": "de", "ñ": "es", "¿": "es",
                          "¡": "es", "ç": "fr", "œ": "fr", "è": "fr", "ê": "fr", "â": "fr",
                          "î": "fr", "ô": "fr", "û": "fr", "ë": "fr", "ã": "pt", "õ": "pt",
                          "ì": "it", "ò": "it", "ą": "pl", "ę": "pl", "ł": "pl", "ż": "pl",
                          "ğ": "tr", "ş": "tr", "ı": "tr", "å": "sv", "ř": "cs", "ě": "cs",
                          "ů": "cs", "č": "cs", "ž": "cs", "ď": "cs", "ť": "cs", "ň": "cs"}
TERM_WEIGHT = 1.5  # a quality term of one language weighs more than a common word
# French inverted questions: a verb joined to its pronoun ("tremble-t-elle", "est-il")
_FR_INVERSION = re.compile(r"\w-(?:t-)?(?:il|elle|ils|elles|on)\b")


@dataclass(frozen=True)
class Reading:
    """A question's language (code, name), whether it is answered, and its English gloss."""

    code: str
    name: str
    supported: bool
    gloss: str


def _normal(text: str) -> str:
    """Typographic quotes as ASCII; full-width digits and punctuation as ASCII."""
    return unicodedata.normalize("NFKC", text).replace("\u2019", "'").replace("\u2018", "'")


def detect(text: str) -> str:
    """The language code of a text ("en", "de", "fr", "es", "zh", or an unsupported one)."""
    for code, pattern in _SCRIPTS:
        if re.search(pattern, text):
            return code
    han = len(_HAN.findall(text))
    if han and han >= len(_LATIN.findall(text)) / 4:
        return "zh"
    low = _normal(text).lower()
    tokens = re.findall(r"[^\W\d_]+", low)
    score = dict.fromkeys(VOCAB.languages, 0.0)
    for tok in tokens:
        langs = [k for k, lang in VOCAB.languages.items() if tok in lang.stopwords]
        for k in langs:
            score[k] += 1.0 / len(langs)
    for ch in set(low):
        if ch in _MARKS and _MARKS[ch] in score:
            score[_MARKS[ch]] += 1.0
    if _FR_INVERSION.search(low):  # "tremble-t-elle", "y a-t-il": French word order
        score["fr"] = score.get("fr", 0.0) + TERM_WEIGHT
    for f in VOCAB.terms.find(low):
        term: Term = f.payload
        score[term.lang] = score.get(term.lang, 0.0) + TERM_WEIGHT
    best = max(score, key=lambda k: (score[k], k == "en", VOCAB.languages[k].supported))
    return best if score[best] > 0 else "en"


def language_name(code: str) -> str:
    """The English name of a language code ("de" -> "German")."""
    lang = VOCAB.languages.get(code)
    return lang.name if lang else VOCAB.scripts.get(code, code)


def is_supported(code: str) -> bool:
    """Whether questions in this language are read (glossed and answered)."""
    return code in VOCAB.supported


def paraphrase(text: str) -> str:
    """English question shapes said in other words, in the words the kind rules know ("for
    how many seconds" -> "how long", "count the freezes" -> "how many freezes")."""
    text = digits_before_units(text)
    for rx, repl in VOCAB.paraphrase:
        text = rx.sub(repl, text)
    return text


@lru_cache(maxsize=4096)
def gloss(text: str, code: str) -> str:
    """The text with its question, time and option words in English (quality terms kept),
    its question shapes in the words the rules know (see paraphrase)."""
    if not is_supported(code):
        return text
    if code == "en" or code not in VOCAB.gloss:
        return paraphrase(text)
    out = _normal(text)
    for rx, repl in VOCAB.gloss_patterns.get(code, ()):
        out = rx.sub(repl, out)
    kept = [(f.start, f.end) for f in VOCAB.terms.find(out)]
    parts, pos = [], 0
    for f in VOCAB.gloss[code].find(out):
        if any(f.start < b and a < f.end for a, b in kept):
            continue
        parts += [out[pos:f.start], f" {f.payload} "]
        pos = f.end
    parts.append(out[pos:])
    return paraphrase(re.sub(r"\s+", " ", "".join(parts)).strip())


def read(text: str, context: str = "") -> Reading:
    """The language of a question (`context`: its options, a weaker hint) and its gloss."""
    code = detect(text)
    if code == "en" and context and not re.search(r"[a-z]{3}", text, re.I):
        code = detect(context)
    return Reading(code, language_name(code), is_supported(code), gloss(text, code))
