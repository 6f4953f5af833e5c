"""Whether the [clip] extra (torch, open_clip, faiss) is installed, found without importing it."""

from __future__ import annotations

import importlib.util

# What the [clip] extra installs; retrieval is off, with this said, when any is missing.
CLIP_MODULES = ("torch", "open_clip", "faiss")
EXTRA_MISSING = "the [clip] extra is not installed (pip install 'lvq-agent[clip]')"


def missing_clip_modules() -> list[str]:
    """The [clip] extra's modules that are not installed here (looked up, never imported)."""
    missing = []
    for name in CLIP_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # blocked, or a broken half-install
            found = False
        if not found:
            missing.append(name)
    return missing


def extra_status() -> str | None:
    """None when the [clip] extra is installed, else the one-line reason retrieval is off."""
    missing = missing_clip_modules()
    return f"{EXTRA_MISSING}: no {', '.join(missing)}" if missing else None
