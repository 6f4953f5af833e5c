"""The first thing `agent` and `bench` run: a Ctrl-C while they import is one line and exit 130,
not a traceback. Uses only modules Python has loaded before any script runs (`_signal`, `os`,
`sys`), so it is in place within a millisecond of the first project line; what comes before
that line is CPython's own start-up (see docs/reliability.md, "Ctrl-C at start-up")."""

from __future__ import annotations

import _signal
import os
import sys

EXIT_INTERRUPTED = 130  # tools.errors.EXIT_INTERRUPTED (not imported: that costs start-up time)


def _interrupted_while_starting(_signum, _frame) -> None:  # noqa: ANN001 - no typing import
    os.write(2, b"interrupted while starting: nothing was done, nothing kept\n")
    os._exit(EXIT_INTERRUPTED)


_interrupted_while_starting.lvq_start_guard = True  # tools.errors.run_app removes it


def guard_start(prog: str) -> None:
    """When this process is the `prog` command line (its console script or `python -m
    prog.cli`), route a Ctrl-C during its imports to one line and exit 130; `run_app` hands
    Ctrl-C back to Python. Importing the package as a library changes nothing."""
    argv = list(getattr(sys, "orig_argv", sys.argv))
    as_module = any(a == "-m" and b == f"{prog}.cli"
                    for a, b in zip(argv, argv[1:], strict=False))
    if not as_module and os.path.basename(sys.argv[0] or "") != prog:
        return
    try:
        if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
            _signal.signal(_signal.SIGINT, _interrupted_while_starting)
    except ValueError:  # not the main thread
        return
