"""The directories an MCP client may read videos from, and the check every video path passes."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from tools.errors import UsageError


class OutsideRoots(UsageError):
    """A video path that resolves (symlinks and '..' followed) outside every allowed root."""


class Roots:
    """Allowed directories, resolved once; `resolve` confines a client's path to them."""

    def __init__(self, dirs: Sequence[str | os.PathLike[str]]) -> None:
        if not dirs:
            raise UsageError("give at least one --root DIR (a directory videos may be read from)")
        resolved = []
        for d in dirs:
            real = Path(os.path.realpath(Path(d).expanduser()))
            if not real.is_dir():
                raise UsageError(f"--root {d}: not a directory")
            resolved.append(real)
        self.dirs: tuple[Path, ...] = tuple(dict.fromkeys(resolved))

    def __str__(self) -> str:
        return ", ".join(str(d) for d in self.dirs)

    def inside(self, path: Path) -> bool:
        """Whether an already resolved path lies in one of the roots."""
        return any(path == d or path.is_relative_to(d) for d in self.dirs)

    def resolve(self, video: str) -> Path:
        """The real path of `video` (absolute, or relative to the first root holding it).

        Raises OutsideRoots when it resolves outside every root, UsageError for an empty path.
        A path inside the roots is returned even if missing: opening it says what is wrong.
        """
        text = (video or "").strip()
        if not text or "\x00" in text:
            raise UsageError("give the video as a file path inside the server's roots")
        p = Path(text).expanduser()
        candidates = [p] if p.is_absolute() else [d / p for d in self.dirs]
        real = [Path(os.path.realpath(c)) for c in candidates]
        inside = [r for r in real if self.inside(r)]
        for r in inside:
            if r.exists():
                return r
        if inside:
            return inside[0]
        raise OutsideRoots(f"{video!r} is outside the allowed roots ({self}); this server "
                           "reads videos only under the --root directories it was started with")
