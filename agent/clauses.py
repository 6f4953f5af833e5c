"""Two questions in one sentence: "When does it flicker, and is there any blockiness?".

A question is split where a second question begins: after a sentence's end (?, ., !, ;),
or at "and" or a comma followed by a question word. The split is made on the question's
English reading (agent/language glosses German, French, Spanish and Chinese question words
and joins), so "Wann flackert das Bild und wann ist es unscharf?" splits like its English.

A part that cannot stand alone ("... and if so, when?", "... and how bad is it?", "why?")
names no distortion and asks something only a distortion gives sense to: it stays with the
part before it. Only when two or more parts stand alone is the question answered part by
part; otherwise it is one question, parsed as a whole. Multiple-choice questions are never
split: their options answer the whole sentence.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from agent.questions import Question, parse_question

# Words that open a question (in the English reading).
_OPENERS = (r"when|where|what|which|how|why|whether|is|are|was|were|does|do|did|can|could|"
            r"has|have|will|would|should|at what")
# Where a second question can begin: after a sentence's end, or at "and" / a comma (or
# both) before a question word.
_SPLIT = re.compile(
    rf"(?<=[?.!;])\s+(?=\S)"
    rf"|\s*,\s*(?:and\s+)?(?=(?:{_OPENERS})\b)"
    rf"|\s+and\s+(?=(?:{_OPENERS})\b)",
    re.I,
)
# Kinds that mean nothing without a distortion or an event to ask about: a part of such a
# kind that names none refers back to the part before it.
_NEEDS_SUBJECT = ("localization", "detection", "severity", "open", "not_understood",
                  "out_of_scope")
_MAX_PARTS = 4


def pieces(text: str) -> list[str]:
    """The text cut where a second question may begin (empty pieces dropped)."""
    out = [p.strip(" ,;") for p in _SPLIT.split(text)]
    return [p for p in out if p and re.search(r"\w", p)]


# A piece that neither asks nor tells the reader to do something is context for the question
# after it ("Someone bumped the tripod. When did the picture shake?").
_ASKS = re.compile(rf"^\s*(?:{_OPENERS}|describe|list|give|tell|rate|check|name|explain|"
                   r"compare|summari[sz]e|identify|find|show|count|estimate|report|please|"
                   r"any|anything)\b", re.I)


def _with_context(texts: list[str]) -> list[str]:
    """The pieces with each statement of context joined to the question after it (or, at
    the end, to the one before)."""
    out: list[str] = []
    carry = ""
    for t in texts:
        if not t.rstrip().endswith("?") and not _ASKS.match(t):
            carry = f"{carry} {t}".strip()
            continue
        out.append(f"{carry} {t}".strip() if carry else t)
        carry = ""
    if carry:
        if out:
            out[-1] = f"{out[-1]} {carry}"
        else:
            out.append(carry)
    return out


def _stands_alone(q: Question) -> bool:
    """Does a part ask something on its own (a distortion named, or a question about the
    whole video such as how many problems there are or which part is worse)?"""
    return bool(q.types) or q.kind not in _NEEDS_SUBJECT


def split_question(whole: Question, options: Sequence[str], duration_s: float,
                   scenes: Sequence[tuple[float, float]] | None = None) -> list[Question]:
    """The questions a question asks: [whole] unless it asks two or more that stand alone
    (each then parsed on its own, keeping the whole's language and wording)."""
    if options or whole.kind in ("out_of_scope", "not_understood"):
        return [whole]
    texts = _with_context(pieces(whole.text))
    if len(texts) < 2:
        return [whole]
    parts: list[tuple[str, Question]] = []  # (text, its parse): only merged text re-parsed
    for t in texts:
        q = parse_question(t, (), duration_s, scenes)
        if parts and not _stands_alone(q):
            merged = f"{parts[-1][0]}, {t}"
            parts[-1] = (merged, parse_question(merged, (), duration_s, scenes))
        else:
            parts.append((t, q))
    out = [q for _, q in parts]
    if not 2 <= len(out) <= _MAX_PARTS or not all(_stands_alone(q) for q in out):
        return [whole]
    return [dataclasses.replace(q, language=whole.language, original=whole.original)
            for q in out]


__all__ = ["pieces", "split_question"]
