"""Prompt files of the prompts package, read at run time and filled by placeholder name."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

# ---------------------------------------------------------------- prompts


def load_prompt(name: str) -> str:
    """Text of a prompt file shipped in the prompts package (e.g. "judge_open.md")."""
    return resources.files("prompts").joinpath(name).read_text(encoding="utf-8")


def fill_prompt(template: str, **values: Any) -> str:
    """Replace {name} placeholders; other braces (JSON examples) are left alone.

    Raises KeyError when a value has no placeholder or a placeholder gets no value, so a
    renamed field cannot go silently missing.
    """
    wanted = set(re.findall(r"\{([a-z_]+)\}", template))
    if set(values) != wanted:
        raise KeyError(f"prompt placeholders {sorted(wanted)} but values for {sorted(values)}")
    out = template
    for key, value in values.items():
        out = out.replace("{" + key + "}", str(value))
    return out


