"""Prompt files (prompts/*.md) read at run time, and the tagged parts inside them."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources


@cache
def load(name: str) -> str:
    """Text of a prompt file shipped in the prompts package (e.g. "agent_system.md")."""
    return resources.files("prompts").joinpath(name).read_text(encoding="utf-8")


def part(name: str, tag: str) -> str:
    """The text between <tag> and </tag> in a prompt file."""
    m = re.search(rf"<{tag}>\s*(.*?)\s*</{tag}>", load(name), re.DOTALL)
    if not m:
        raise KeyError(f"prompt file {name} has no <{tag}> part")
    return m.group(1)


def system_prompt() -> str:
    """The agent's system message: the role and rules, then how to use the tools."""
    guidance = re.sub(r"<(\w+)>.*?</\1>", "", load("tool_guidance.md"), flags=re.DOTALL)
    return load("agent_system.md").strip() + "\n\n" + guidance.strip() + "\n"
