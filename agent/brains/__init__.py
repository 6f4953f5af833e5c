"""Brains by name: `get_brain("local")`. Unknown names fail with the list of valid ones."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from agent.brains.base import Brain
from tools.errors import LvqError

# name -> "module:factory"; modules are imported only when their brain is asked for.
BRAINS: dict[str, str] = {
    "local": "agent.brains.local:LocalBrain",
    "openai": "agent.brains.openai_brain:OpenAIBrain.from_env",
}


class BrainError(LvqError):
    """A brain cannot be made (unknown name, missing configuration)."""


def brain_names() -> list[str]:
    return list(BRAINS)


def get_brain(name: str, **options: Any) -> Brain:
    """Make the brain called `name`; BrainError lists the valid names otherwise."""
    target = BRAINS.get((name or "").strip().lower())
    if target is None:
        raise BrainError(f"unknown brain {name!r}; valid brains: {', '.join(BRAINS)}")
    module, attr = target.split(":")
    try:
        factory: Any = importlib.import_module(module)
        for part in attr.split("."):
            factory = getattr(factory, part)
    except (ImportError, AttributeError) as exc:
        raise BrainError(f"brain {name!r} is not available: {exc}") from None
    make: Callable[..., Brain] = factory
    return make(**{k: v for k, v in options.items() if v is not None})


__all__ = ["BRAINS", "Brain", "BrainError", "brain_names", "get_brain"]
