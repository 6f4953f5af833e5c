"""What every `bench` command shares: the consoles, the --cache-dir option, and the one-line
error handling (a user error is one line and its documented exit code)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from pydantic import ValidationError
from rich.console import Console

from tools.errors import EXIT_USAGE, LvqError, exit_code_of

# Tables are wide (table 4 has 15 columns): do not squeeze them into 80 columns in a pipe.
out = Console() if sys.stdout.isatty() else Console(width=160)
err = Console(stderr=True)

CacheOpt = Annotated[Path | None, typer.Option(
    "--cache-dir", envvar="LVQ_CACHE_DIR",
    help="Index/trace cache [default: $XDG_CACHE_HOME/lvq-agent or ~/.cache/lvq-agent].")]


def fail(message: str, code: int = EXIT_USAGE) -> None:
    """Print one error line and exit non-zero."""
    err.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, ValidationError):
        from bench.items import validation_reason

        return validation_reason(exc)
    if isinstance(exc, FileNotFoundError) and exc.filename:
        return f"no such file: {exc.filename}"
    return " ".join(str(exc).split()) or type(exc).__name__


def _guard(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Call fn; user errors become one line and their exit code (bad values: usage, 2)."""
    try:
        return fn(*args, **kwargs)
    except (LvqError, OSError) as exc:
        fail(_one_line(exc), exit_code_of(exc))
    except (ValueError, ValidationError, KeyError) as exc:
        fail(_one_line(exc), EXIT_USAGE)


def _csv(text: str | None) -> list[str] | None:
    return [t.strip() for t in text.split(",") if t.strip()] if text else None
