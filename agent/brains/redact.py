"""Masking the actual API key values, wherever text leaves a brain.

Pattern-based masking (``sk-...``) misses keys of other shapes; this masks the exact values:
the keys in the environment variables a brain reads and every key a brain was given.
"""

from __future__ import annotations

import os
import threading
from typing import Any

MASK = "[redacted]"
KEY_ENV = ("OPENAI_API_KEY", "LVQ_OPENAI_API_KEY")
MIN_SECRET_CHARS = 6  # shorter values ("x", "none") are placeholders, not secrets
_PLACEHOLDERS = frozenset({"none", "null", "empty", "ollama", "sk-no-key-required"})

_known: set[str] = set()
_env_names: set[str] = set(KEY_ENV)
_lock = threading.Lock()


def _is_secret(value: str | None) -> bool:
    """Whether a value is long enough and not a well-known placeholder."""
    v = (value or "").strip()
    return len(v) >= MIN_SECRET_CHARS and v.lower() not in _PLACEHOLDERS


def remember(key: str | None = None, env_name: str | None = None) -> None:
    """Mask `key` from now on, and the value of the environment variable `env_name`."""
    with _lock:
        if key and _is_secret(key):
            _known.add(key.strip())
        if env_name:
            _env_names.add(env_name)


def secrets() -> list[str]:
    """The values to mask, longest first (so a key containing another is masked whole)."""
    with _lock:
        values = set(_known) | {os.environ.get(n, "").strip() for n in _env_names}
    return sorted((v for v in values if _is_secret(v)), key=len, reverse=True)


def scrub(text: str, extra: str | None = None) -> str:
    """`text` with every known key (and `extra`) replaced by the mask."""
    if not isinstance(text, str) or not text:
        return text
    values = secrets()
    if extra and _is_secret(extra):
        values.insert(0, extra)
    for value in values:
        if value in text:
            text = text.replace(value, MASK)
    return text


def scrub_value(value: Any) -> Any:
    """A copy of a JSON-like value (dicts, lists, strings) with every key masked."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {scrub(k) if isinstance(k, str) else k: scrub_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub_value(v) for v in value]
    return value


def scrub_error(exc: BaseException) -> BaseException:
    """The same exception with its message masked (args rewritten in place)."""
    exc.args = tuple(scrub_value(a) if isinstance(a, str) else a for a in exc.args)
    return exc
