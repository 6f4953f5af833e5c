"""Strict JSON output: NaN and infinities become null, so any JSON parser can read what we print."""

from __future__ import annotations

import json
import math
from typing import Any


def finite(value: Any) -> Any:
    """A copy of `value` with every non-finite float (numpy ones too) replaced by None."""
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    try:  # numpy scalars and arrays, without importing numpy here
        value = value.tolist()
    except AttributeError:
        return value
    return finite(value)


def dumps(value: Any, **kwargs: Any) -> str:
    """json.dumps of `finite(value)` that refuses NaN/Infinity instead of writing them."""
    return json.dumps(finite(value), allow_nan=False, **kwargs)
