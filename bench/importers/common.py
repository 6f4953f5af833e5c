"""Helpers every importer shares: required text fields, lists written as text, option texts
without letters, correct-choice fields resolved to a letter, the split named in a file name."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

from bench.items import letter, strip_letter_prefix


def _text(rec: dict[str, Any], *keys: str, required: bool = True) -> str | None:
    """The first non-empty value among keys, as stripped text."""
    for key in keys:
        value = rec.get(key)
        if value is not None and str(value).strip():
            return str(value).strip()
    if required:
        raise ValueError(f"missing field {' / '.join(keys)}")
    return None


def _as_list(value: Any) -> list[Any]:
    """A list from a list, a tuple, a numpy-like array, or a list written as text."""
    if value is None:
        return []
    if isinstance(value, str):
        s = value.strip()
        if not s:
            return []
        if s[0] in "[(":
            try:
                parsed = json.loads(s)
            except json.JSONDecodeError:
                parsed = ast.literal_eval(s)  # literals only, never eval
            return list(parsed)
        return [s]
    if hasattr(value, "tolist"):
        value = value.tolist()
    return list(value)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", text.lower())).strip()


_LEADING_LETTER = re.compile(r"^\(?([A-Za-z])(?:[.):](?:\s|$)|$)")


def gold_letter(value: Any, options: list[str]) -> str | None:
    """Resolve a correct-choice field to a letter: "B", "b", "B. text", 1 (0-based), option text."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError(f"correct choice {value!r} is a boolean")
    n = len(options)
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        i = int(value)
        if not 0 <= i < n:
            raise ValueError(f"correct choice index {i} out of range for {n} options")
        return letter(i)
    s = str(value).strip()
    m = _LEADING_LETTER.match(s)
    if m and 0 <= ord(m.group(1).upper()) - ord("A") < n:
        return m.group(1).upper()
    matches = [i for i, opt in enumerate(options) if _norm(opt) == _norm(s)]
    if len(matches) == 1:
        return letter(matches[0])
    raise ValueError(f"correct choice {s!r} is neither a letter within {n} options nor an option")


def _clean_options(raw: Any) -> list[str]:
    """Option texts without letter prefixes; a dict {"A": text} is read in letter order."""
    if isinstance(raw, dict):
        raw = [raw[k] for k in sorted(raw)]
    opts = [strip_letter_prefix(str(o)) for o in _as_list(raw)]
    while opts and not opts[-1]:
        opts.pop()  # Q-Bench-Video pads two-choice questions with empty answers
    if any(not o for o in opts):
        raise ValueError("an option is empty")
    return opts


def _split_from_name(path: Path) -> str | None:
    m = re.search(r"(?:^|[_\-.])(dev|val|validation|test|train)(?:[_\-.]|$)", path.name.lower())
    if not m:
        return None
    return {"validation": "val"}.get(m.group(1), m.group(1))


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


