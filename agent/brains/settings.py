"""Brain settings from arguments, else the environment, else defaults; bad values fail early."""

from __future__ import annotations

import os

from agent.brains.errors import BrainConfigError

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_RETRIES = 4
TIMEOUT_RETRIES = 1  # a timed-out request is tried once more at most: slow rarely heals
VISION_MODES = ("auto", "on", "off")
VISION_ENV = ("LVQ_VISION", "LVQ_OPENAI_VISION")


def _env(*names: str) -> tuple[str, str] | None:
    """(name, value) of the first of `names` set to a non-empty value."""
    for name in names:
        value = os.environ.get(name, "").strip()
        if value:
            return name, value
    return None


def timeout_s(value: float | str | None = None) -> float:
    """Seconds to wait for one request: `value`, else $LVQ_TIMEOUT, else 60."""
    source = "timeout"
    if value is None and (found := _env("LVQ_TIMEOUT")):
        source, value = found
    if value is None:
        return DEFAULT_TIMEOUT_S
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise BrainConfigError(f"{source} {value!r} invalid: give seconds, e.g. 30") from None
    if not seconds > 0 or seconds == float("inf"):
        raise BrainConfigError(f"{source} {value!r} invalid: give a positive number of seconds")
    return seconds


def retries(value: int | str | None = None) -> int:
    """Retries after a failed request (429/5xx, dropped connection): `value`, $LVQ_RETRIES, 4."""
    source = "retries"
    if value is None and (found := _env("LVQ_RETRIES")):
        source, value = found
    if value is None:
        return DEFAULT_RETRIES
    try:
        count = int(str(value).strip())
    except ValueError:
        raise BrainConfigError(f"{source} {value!r} invalid: give a whole number, e.g. 2") from None
    if count < 0:
        raise BrainConfigError(f"{source} {value!r} invalid: give 0 or more")
    return count


def vision_mode(value: str | None = None) -> str:
    """Whether images may be sent: `value`, else $LVQ_VISION (or $LVQ_OPENAI_VISION), else auto.

    ``on`` and ``off`` are taken as said; ``auto`` asks the endpoint once (vision_probe).
    """
    source = "vision mode"
    if not value and (found := _env(*VISION_ENV)):
        source, value = found
    mode = (value or "auto").strip().lower()
    if mode not in VISION_MODES:
        raise BrainConfigError(
            f"{source} {value!r} invalid; choose one of {', '.join(VISION_MODES)}"
        )
    return mode
