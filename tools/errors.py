"""Errors a user can act on, and the one table of exit codes both command lines use.

Each error class carries `exit_code`; `exit_code_of` maps any exception to its code, so a
script can tell a bad argument from a bad video, a dead endpoint or a full disk.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from typing import Any

EXIT_OK = 0
EXIT_INTERNAL = 1  # unexpected: a bug, reported with its type
EXIT_USAGE = 2  # bad arguments or options, an empty question
EXIT_INPUT = 3  # an input file is missing, unreadable or damaged (video, item file, results)
EXIT_ENDPOINT = 4  # the model endpoint is down, refuses the key or answers nonsense
EXIT_STORAGE = 5  # the cache or an output file cannot be read or written
EXIT_INTERRUPTED = 130  # Ctrl-C

class LvqError(Exception):
    """Base of every error the command line reports as one line and a non-zero exit."""

    exit_code = EXIT_USAGE


class UsageError(LvqError, ValueError):
    """An argument or option cannot be used (empty question, unknown name, bad value)."""

    exit_code = EXIT_USAGE


class InputError(LvqError, ValueError):
    """An input file is missing, unreadable or holds nothing usable."""

    exit_code = EXIT_INPUT


class VideoError(InputError):
    """The input is not a readable video (missing, a directory, not a video, corrupt, empty)."""


class StorageError(LvqError):
    """The cache or an output location cannot be read or written."""

    exit_code = EXIT_STORAGE


class IndexError_(StorageError):
    """A cached index is missing, unreadable or built by another analyzer version."""


class EndpointError(LvqError):
    """A model endpoint cannot be used (unreachable, refuses the key, invalid answers)."""

    exit_code = EXIT_ENDPOINT


def exit_code_of(exc: BaseException) -> int:
    """The documented exit code of an exception (1 for anything unexpected)."""
    if isinstance(exc, KeyboardInterrupt):
        return EXIT_INTERRUPTED
    if isinstance(vars(exc).get("exit_code"), int):  # set on one error where it was raised
        return vars(exc)["exit_code"]
    for cls in type(exc).__mro__:
        if "exit_code" in vars(cls):
            return int(vars(cls)["exit_code"])
    if isinstance(exc, FileNotFoundError | IsADirectoryError | NotADirectoryError):
        return EXIT_INPUT
    if isinstance(exc, OSError) and exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS,
                                                  errno.ENOSPC, errno.EDQUOT):
        return EXIT_STORAGE
    return EXIT_INTERNAL


def run_app(app: Callable[[], Any], err: Any) -> None:
    """Run a command-line app: Ctrl-C says so and exits 130; a bug is one line on `err` (a
    rich console) and exit 1, with the traceback only when LVQ_DEBUG is set."""
    try:
        app()
    except KeyboardInterrupt:
        err.print("interrupted")
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # noqa: BLE001 - a bug: one line and exit 1, traceback on demand
        if os.environ.get("LVQ_DEBUG"):
            raise
        err.print(f"[bold red]internal error:[/] {type(exc).__name__}: {exc} "
                  "(set LVQ_DEBUG=1 for the traceback)", highlight=False, soft_wrap=True)
        sys.exit(EXIT_INTERNAL)
