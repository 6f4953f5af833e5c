"""One benchmark item schema (JSON Lines), the LongVQUBench levels and dimensions, and item I/O.

Ground truth is always ``gold`` (never ``answer``, which is what a model gives); MCQ options are
stored without their letter; the source record is kept verbatim in ``original``.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

LEVELS: tuple[str, ...] = ("LQU", "CQR", "GQU")
LEVEL_NAMES: dict[str, str] = {
    "LQU": "Local Event Quality Understanding",
    "CQR": "Cross-Event Quality Reasoning",
    "GQU": "Global Quality Understanding",
}


class Dimension(NamedTuple):
    """One LongVQUBench MCQ question dimension: its key, table-4 abbreviation, name and level."""

    key: str
    abbr: str
    name: str
    level: str


MCQ_DIMENSIONS: tuple[Dimension, ...] = (
    Dimension("detection", "D", "Detection", "LQU"),
    Dimension("localization", "L", "Localization", "LQU"),
    Dimension("classification", "C", "Classification", "LQU"),
    Dimension("severity_comfort", "SA", "Severity & Comfort Assessment", "LQU"),
    Dimension("comparison", "CMP", "Comparison", "CQR"),
    Dimension("cumulative_effect", "CE", "Cumulative Effect", "CQR"),
    Dimension("integration", "I", "Integration", "CQR"),
    Dimension("temporal_relation", "TR", "Temporal Relation", "CQR"),
    Dimension("stability", "SE", "Stability Evaluation", "GQU"),
    Dimension("dominant_factor", "DFI", "Dominant Factor Identification", "GQU"),
    Dimension("trend", "TA", "Trend Assessment", "GQU"),
    Dimension("overall", "OE", "Overall Evaluation", "GQU"),
)
DIMENSIONS_BY_LEVEL: dict[str, tuple[Dimension, ...]] = {
    lvl: tuple(d for d in MCQ_DIMENSIONS if d.level == lvl) for lvl in LEVELS
}
# The fifth dimension of every level is free-form ("Open Reasoning"), scored by judge/similarity.
OPEN_DIMENSION = "open_reasoning"

# Other spellings seen in the paper (table S3 uses slightly different names).
_DIMENSION_ALIASES: dict[str, str] = {
    "severity": "severity_comfort",
    "severity & comfort": "severity_comfort",
    "severity and comfort": "severity_comfort",
    "stability & consistency": "stability",
    "stability evaluation": "stability",
    "dominant factors": "dominant_factor",
    "temporal trend": "trend",
    "overall quality": "overall",
    "localisation": "localization",
    "open": OPEN_DIMENSION,
    "open-ended": OPEN_DIMENSION,
    "open ended": OPEN_DIMENSION,
    "open reasoning": OPEN_DIMENSION,
}


def _norm_key(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip().lower())


def _dimension_index() -> dict[str, str]:
    index = {_norm_key(t): d.key for d in MCQ_DIMENSIONS for t in (d.key, d.abbr, d.name)}
    index.update({_norm_key(alias): key for alias, key in _DIMENSION_ALIASES.items()})
    index[_norm_key(OPEN_DIMENSION)] = OPEN_DIMENSION
    return index


_DIMENSION_INDEX = _dimension_index()


def canonical_dimension(text: str) -> str:
    """Map a dimension key, abbreviation ("SA") or paper name to its canonical key.

    Raises ValueError listing the valid choices when the text is unknown.
    """
    key = _DIMENSION_INDEX.get(_norm_key(text))
    if key is None:
        valid = ", ".join(f"{d.key} ({d.abbr})" for d in MCQ_DIMENSIONS)
        raise ValueError(f"unknown dimension {text!r}; valid: {valid}, {OPEN_DIMENSION}")
    return key


def dimension(text: str) -> Dimension:
    """The MCQ Dimension for a key, abbreviation or name (ValueError for open/unknown)."""
    key = canonical_dimension(text)
    for d in MCQ_DIMENSIONS:
        if d.key == key:
            return d
    raise ValueError(f"{text!r} is the open-ended dimension, not an MCQ dimension")


def duration_class(seconds: float) -> str:
    """LongVQUBench duration class: short (<10 min), medium (10-30 min) or long (>=30 min)."""
    if seconds < 600:
        return "short"
    if seconds < 1800:
        return "medium"
    return "long"


# ---------------------------------------------------------------- letters


def letter(i: int) -> str:
    """Option letter for a 0-based index: 0 -> "A"."""
    if not 0 <= i < 26:
        raise ValueError(f"option index {i} out of range 0..25")
    return chr(ord("A") + i)


def option_letters(n: int) -> list[str]:
    """The first n option letters: 4 -> ["A", "B", "C", "D"]."""
    return [letter(i) for i in range(n)]


def letter_index(text: str) -> int:
    """0-based index of an option letter: "B" -> 1 (case-insensitive)."""
    t = text.strip().upper()
    if len(t) != 1 or not "A" <= t <= "Z":
        raise ValueError(f"not an option letter: {text!r}")
    return ord(t) - ord("A")


def render_options(options: Sequence[str]) -> str:
    """Options as prompt lines: "A. first\\nB. second"."""
    return "\n".join(f"{letter(i)}. {opt}" for i, opt in enumerate(options))


_LETTER_PREFIX = re.compile(r"^\s*\(?[A-Z][.):]\s")


def strip_letter_prefix(option: str) -> str:
    """Remove a leading "A. " / "(B) " / "C) " / "D: " label from one option text."""
    return _LETTER_PREFIX.sub("", option, count=1).strip()


# ---------------------------------------------------------------- schema


class Span(BaseModel):
    """A ground-truth time span in seconds, [start_s, end_s]."""

    model_config = ConfigDict(extra="forbid")

    start_s: float = Field(ge=0)
    end_s: float = Field(ge=0)
    label: str = ""

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end_s < self.start_s:
            raise ValueError(f"span ends ({self.end_s}) before it starts ({self.start_s})")
        return self


class Distortion(BaseModel):
    """A distortion applied to (part of) a video: type, level 1-3, parameters, where."""

    model_config = ConfigDict(extra="forbid")

    type: str
    level: int | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    start_s: float | None = None
    end_s: float | None = None


class Item(BaseModel):
    """One benchmark question about one video (or a pair), with its ground truth."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    benchmark: str = Field(min_length=1)
    split: str = "test"
    videos: list[str] = Field(min_length=1, max_length=2)
    question: str = Field(min_length=1)
    format: Literal["mcq", "open"]
    options: list[str] = Field(default_factory=list)
    gold: str | None = None
    question_type: str = ""
    tags: dict[str, Any] = Field(default_factory=dict)
    spans: list[Span] = Field(default_factory=list)
    distortions: list[Distortion] = Field(default_factory=list)
    original: Any = None

    @model_validator(mode="before")
    @classmethod
    def _no_answer_field(cls, data: Any) -> Any:
        if isinstance(data, dict) and "answer" in data:
            raise ValueError("field 'answer' is not allowed: ground truth is named 'gold'")
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Item:
        if self.format == "mcq":
            if len(self.options) < 2:
                raise ValueError("an mcq item needs at least two options")
            for opt in self.options:
                if _LETTER_PREFIX.match(opt):
                    raise ValueError(f"option {opt!r} keeps its letter prefix; store the text only")
            if self.gold is not None and self.gold not in option_letters(len(self.options)):
                valid = ", ".join(option_letters(len(self.options)))
                raise ValueError(f"mcq gold {self.gold!r} is not one of {valid}")
        elif self.options:
            raise ValueError("an open item has no options")
        level = self.tags.get("level")
        if level is not None and level not in LEVELS:
            raise ValueError(f"tags.level {level!r} is not one of {', '.join(LEVELS)}")
        return self

    @property
    def video(self) -> str:
        """The video this item clusters with (the pair joined when there are two)."""
        return " + ".join(self.videos)

    @property
    def gold_text(self) -> str | None:
        """Gold as text: the option text for an MCQ, the reference for an open item."""
        if self.gold is None or self.format == "open":
            return self.gold
        return self.options[letter_index(self.gold)]


# ---------------------------------------------------------------- I/O


@dataclass(frozen=True)
class RecordError:
    """A record that could not be read: where it was (line/record/row number) and why."""

    path: str
    index: int
    reason: str
    unit: str = "line"

    def __str__(self) -> str:
        return f"{self.path}: {self.unit} {self.index}: {self.reason}"


def validation_reason(exc: ValidationError) -> str:
    """A compact one-line reason from a pydantic error: "field: message; ..."."""
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err.get("loc", ())) or "record"
        parts.append(f"{loc}: {err.get('msg', '')}")
    return "; ".join(parts)


def load_items(path: str | os.PathLike[str]) -> tuple[list[Item], list[RecordError]]:
    """Read an item JSONL file; bad lines are reported (line number, reason) and skipped."""
    items: list[Item] = []
    errors: list[RecordError] = []
    seen: set[str] = set()
    p = str(path)
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                item = Item.model_validate_json(line)
            except ValidationError as exc:
                errors.append(RecordError(p, lineno, validation_reason(exc)))
                continue
            if item.id in seen:
                errors.append(RecordError(p, lineno, f"duplicate id {item.id!r}"))
                continue
            seen.add(item.id)
            items.append(item)
    return items, errors


def _umask() -> int:
    """The process umask (read by setting it and putting it back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_items(path: str | os.PathLike[str], items: Iterable[Item]) -> int:
    """Write items as JSON Lines atomically (temp file then rename); returns the count."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    n = 0
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for item in items:
                fh.write(item.model_dump_json() + "\n")
                n += 1
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; a written file follows the umask
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return n
