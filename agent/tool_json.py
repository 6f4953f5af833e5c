"""Tool results and tool schemas as JSON: compact results, schemas with their $refs inlined."""

from __future__ import annotations

import json
from typing import Any


def dumps(obj: Any) -> str:
    """Compact JSON (no spaces) for tool results."""
    return json.dumps(obj, separators=(",", ":"), default=_jsonable)


def _jsonable(o: Any) -> Any:
    try:
        import numpy as np

        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
    except ImportError:  # pragma: no cover
        pass
    return str(o)


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace $ref/$defs by their definitions (some OpenAI-compatible servers need that)."""
    defs = schema.pop("$defs", {}) or schema.pop("definitions", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.split("/")[-1] in defs:
                target = dict(defs[ref.split("/")[-1]])
                target.pop("title", None)
                return walk({**target, **{k: v for k, v in node.items() if k != "$ref"}})
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(schema)
