"""Distortion names in a text: the event type and subtype each phrase stands for.

The phrases (with their synonyms in every supported language) come from the vocabulary data
file; matched longest first on word boundaries, so "brightness fluctuation" is flicker while
"brightness" alone is exposure.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from agent.vocabulary import Term, vocabulary

VOCAB = vocabulary()

# Human names of event types, for answers.
TYPE_NAMES: dict[str, str] = {t: info.name for t, info in VOCAB.types.items()}


@dataclass(frozen=True)
class Mention:
    """A distortion named in a text: the event type, subtype ("" when any), the words, where,
    and `also`: other types the words accept as well ("macroblocking": corruption too)."""

    type: str
    subtype: str
    text: str
    pos: int
    also: tuple[str, ...] = field(default=(), compare=False)

    @property
    def accepts(self) -> tuple[str, ...]:
        """The event types that answer for this mention, its own first."""
        return (self.type, *self.also)

    @property
    def fallback(self) -> tuple[str, ...]:
        """Types whose events stand in when none of the accepted types has any."""
        return tuple(t for t in VOCAB.fallback(self.type) if t not in self.accepts)


def distortions(text: str) -> list[Mention]:
    """Every distortion named in `text`, in order of appearance (synonyms resolved)."""
    return list(_distortions(text)[0])


def praised(text: str) -> list[Mention]:
    """The types whose good state `text` names ("is the image sharp?": blur; "does it play
    smoothly?": frame drops), in order; a question in such words asks about their absence."""
    return list(_distortions(text)[1])


# A mention ending in a part of the video ("the dark scene", "the blurry part") names where,
# and the word right after it is a second distortion ("is the dark scene noisy?"), not one
# name with it ("washed out colours", "salt and pepper noise").
_PLACE_END = re.compile(r"\b(scene|part|section|segment|shot|bit|portion|stretch|passage|clip)s?$",
                        re.IGNORECASE)


# "a ten-minute block", "30-second blocks": the word before names a length of time
_TIME_BLOCK = re.compile(r"\b(?:second|minute|hour|sec|min|s)s?[- ]$", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _distortions(text: str) -> tuple[tuple[Mention, ...], tuple[Mention, ...]]:
    out: list[Mention] = []
    good: list[Mention] = []
    last_end = -10
    for f in VOCAB.terms.find(text):
        term: Term = f.payload
        if term.good:
            if all(g.type != term.type for g in good):
                good.append(Mention(term.type, "", f.text, f.start, term.also))
            continue
        if not term.alone or (out and f.start - last_end <= 1
                              and not _PLACE_END.search(out[-1].text)):
            last_end = f.end  # "salt and pepper noise", "washed out colours": one name
            if out and term.type == "flicker" and out[-1].type == "exposure":
                out[-1] = Mention(term.type, term.subtype, f.text, out[-1].pos, term.also)
            continue
        last_end = f.end
        if _TIME_BLOCK.search(text[max(0, f.start - 12):f.start]) and \
                f.text.lower() in ("block", "blocks"):
            continue  # "which ten-minute block ...?": a part of the video, not blocking
        out.append(Mention(term.type, term.subtype, f.text, f.start, term.also))
    if any(m.type == "flicker" for m in out):
        # "the brightness is strobing": brightness is what flickers, not an exposure problem
        out = [m for m in out if not (m.type == "exposure" and m.text.lower() in VOCAB.tone)]
    return tuple(_either_way(text, out)), tuple(good)


# "dim/off in brightness", "too dark or just off": a direction said beside its type's own
# plain name, as alternatives, asks about the type either way
_ALTERNATIVE = re.compile(r"^\s*(?:/|\bor\b|\boder\b|\bou\b|\bo\b|或)", re.IGNORECASE)


def _either_way(text: str, out: list[Mention]) -> list[Mention]:
    """The mentions with a directed one (a subtype) made plain when the next mention of its
    type, right after it as an alternative, names no direction."""
    for i, (m, n) in enumerate(zip(out, out[1:], strict=False)):
        if m.type == n.type and m.subtype and not n.subtype and n.pos - (m.pos + len(m.text)) \
                <= 12 and _ALTERNATIVE.match(text[m.pos + len(m.text):n.pos]):
            out[i] = Mention(m.type, "", m.text, m.pos, m.also)
    return out


def distortion_type(text: str) -> str | None:
    """The event type a word or phrase names ("grainy" -> "noise"), or None."""
    found = distortions(text)
    return found[0].type if found else None


def mentions_generic(text: str) -> bool:
    """Whether the text talks about quality problems without naming a type."""
    return bool(VOCAB.generic.find(text))


def type_name(etype: str | None) -> str:
    """The name of an event type in answers ("frozen picture"); generic when None."""
    return VOCAB.type_name(etype)


def why(etype: str, subtype: str = "") -> str:
    """Why a kind of distortion (of one subtype, where its reason differs) spoils viewing
    (for open answers)."""
    special = VOCAB.data.get("why_subtype", {}).get(f"{etype}/{subtype}")
    if special:
        return special
    info = VOCAB.types.get(etype)
    return info.why if info and info.why else "it departs from the scene"
