"""Errors a user can act on: each carries a one-line message and no traceback is needed."""

from __future__ import annotations


class LvqError(Exception):
    """Base of every error the command line reports as one line and a non-zero exit."""


class VideoError(LvqError, ValueError):
    """The input is not a readable video (missing, a directory, not a video, corrupt, empty)."""


class IndexError_(LvqError):
    """A cached index is missing, unreadable or built by another analyzer version."""
