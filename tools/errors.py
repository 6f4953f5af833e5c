"""Errors a user can act on, and the one table of exit codes both command lines use.

Each error class carries `exit_code`; `exit_code_of` maps any exception to its code, so a
script can tell a bad argument from a bad video, a dead endpoint or a full disk.
"""

from __future__ import annotations

import errno
import os
import signal
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
                                                  errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return EXIT_STORAGE
    return EXIT_INTERNAL


INTERRUPTED = ("interrupted: only finished work was kept (complete indexes, traces and result "
               "lines); run the same command again to go on")
_NOTED: list[str] = []  # interrupted lines printed since run_app started the command


def say_interrupted(err: Any, message: str = INTERRUPTED) -> None:
    """Print the one line an interrupted command ends with, on `err` (`run_app` then adds
    none of its own)."""
    _NOTED.append(message)
    err.print(message, highlight=False, soft_wrap=True)


def _exit_interrupted(err: Any, whole: bool) -> None:
    """Say what was kept (unless the command did) and end with 130; in the command's own
    process at once, since a Ctrl-C that crossed C code run through PyRun_* (some extension
    imports) would otherwise turn exit 130 into death by SIGINT."""
    if not _NOTED:
        say_interrupted(err)
    if not whole:
        sys.exit(EXIT_INTERRUPTED)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(EXIT_INTERRUPTED)


def _unraisable_hook(err: Any, before: Callable[[Any], Any]) -> Callable[[Any], None]:
    """A Ctrl-C that lands in a callback Python cannot raise from (a weakref callback inside
    importlib's module locks, a __del__) would be printed as "Exception ignored" with a
    traceback and then lost; in the command's own process it ends the command like any other."""
    def hook(unraisable: Any) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):
            _exit_interrupted(err, True)
        before(unraisable)
    return hook


def _done(whole: bool) -> None:
    """The command has ended and said so: a Ctrl-C while Python shuts down has nothing left
    to stop, and would only turn the exit code into death by SIGINT."""
    if not whole:
        return
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread (an embedding caller)
        pass


def run_app(app: Callable[[], Any], err: Any) -> None:
    """Run a command-line app: Ctrl-C says in one line what was kept and exits 130 (also when
    it lands where typer turns it into a silent exit 130); a bug is one line on `err` (a rich
    console) and exit 1, with the traceback only when LVQ_DEBUG is set."""
    # agent._start's guard is there only in the command-line process itself: then this process
    # is ours to end (in a test calling main() it is not, and signals are left alone).
    whole = bool(getattr(signal.getsignal(signal.SIGINT), "lvq_start_guard", False))
    _NOTED.clear()
    if whole:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        sys.unraisablehook = _unraisable_hook(err, sys.unraisablehook)
    try:
        app()
    except KeyboardInterrupt:
        _exit_interrupted(err, whole)
    except SystemExit as exc:
        if exc.code == EXIT_INTERRUPTED:
            _exit_interrupted(err, whole)
        _done(whole)
        raise
    except Exception as exc:  # noqa: BLE001 - a bug: one line and exit 1, traceback on demand
        if os.environ.get("LVQ_DEBUG"):
            raise
        err.print(f"[bold red]internal error:[/] {type(exc).__name__}: {exc} "
                  "(set LVQ_DEBUG=1 for the traceback)", highlight=False, soft_wrap=True)
        sys.exit(EXIT_INTERNAL)
    _done(whole)
