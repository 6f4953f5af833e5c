"""Checking the arguments a brain gives a tool: the error it gets back, and event type names."""

from __future__ import annotations

from agent.questions import distortions
from tools.model import EVENT_TYPES


class ToolArgError(ValueError):
    """A tool was called with arguments it cannot use; the message says how to fix them."""


def resolve_type(name: str | None) -> tuple[str | None, str]:
    """An event type (and subtype) from a type name or synonym; None for 'any'.

    Raises ToolArgError listing the valid types when the name means nothing measurable.
    """
    if name is None:
        return None, ""
    key = name.strip().lower().replace(" ", "_")
    if key in ("", "any", "all", "none", "*", "distortion", "distortions", "artifact",
               "artifacts", "event", "events", "all_types"):
        return None, ""
    if key in EVENT_TYPES:
        return key, ""
    if key == "color":
        return "colour", ""
    found = distortions(name)
    if found:
        return found[0].type, found[0].subtype
    raise ToolArgError(
        f"unknown distortion type {name!r}; valid types: {', '.join(EVENT_TYPES)} "
        "(synonyms such as 'blurry', 'grainy', 'pixelated', 'freeze', 'shaky' work too)"
    )
