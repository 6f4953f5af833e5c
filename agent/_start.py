"""The first thing `agent` and `bench` run: a Ctrl-C while they import is one line and exit 130,
not a traceback. Uses only modules Python has loaded at start-up, so it is in place at once."""

from __future__ import annotations

import os
import signal
import sys
from typing import Any

EXIT_INTERRUPTED = 130  # tools.errors.EXIT_INTERRUPTED (not imported: that costs start-up time)


def _interrupted_while_starting(_signum: int, _frame: Any) -> None:
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
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _interrupted_while_starting)
    except ValueError:  # not the main thread
        return
