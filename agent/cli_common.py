"""What every `agent` sub-command shares: the consoles, the cache option, and how a user
error ends (one line on stderr, a documented exit code)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from tools.errors import (
    EXIT_INTERRUPTED,
    EXIT_STORAGE,
    EXIT_USAGE,
    LvqError,
    exit_code_of,
    say_interrupted,
)

out = Console()
err = Console(stderr=True)

TraceIdArg = Annotated[str, typer.Argument(help="Trace id, a unique prefix of it, or 'last'.")]
CacheOpt = Annotated[
    Path | None,
    typer.Option(
        "--cache-dir",
        envvar="LVQ_CACHE_DIR",
        help="Index cache directory [default: $XDG_CACHE_HOME/lvq-agent or ~/.cache/lvq-agent].",
    ),
]



def fail(message: str, code: int = EXIT_USAGE) -> None:
    """Print one error line and exit non-zero."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def reported(writing: Path | None = None) -> Iterator[None]:
    """Run a command body: user errors and file-system errors end as one line and their exit
    code; `writing` names the output file an OSError is about."""
    try:
        yield
    except LvqError as exc:
        fail(str(exc), exit_code_of(exc))
    except OSError as exc:
        if writing:
            fail(f"cannot write {writing}: {exc.strerror or exc}", EXIT_STORAGE)
        what = f"{exc.strerror}: {exc.filename}" if exc.strerror and exc.filename else str(exc)
        fail(what, exit_code_of(exc))
    except KeyboardInterrupt:
        say_interrupted(err)
        raise typer.Exit(EXIT_INTERRUPTED) from None
