"""Running a table's checks, each in its own folder, and printing the table for the note."""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

Row = tuple[str, str, str, bool]


def run_checks(checks: Sequence[Callable[[Path], Row]], prefix: str) -> list[Row]:
    """Every check's row, each run in a fresh folder; a check that breaks is a failed row."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        for k, check in enumerate(checks):
            work = Path(tmp) / str(k)
            work.mkdir()
            try:
                rows.append(check(work))
            except Exception as exc:  # noqa: BLE001 - a check that breaks is a failed row
                rows.append((check.__name__, "-", f"check failed: {type(exc).__name__}: "
                             f"{exc}"[:120], False))
            print(f"  {rows[-1][0]}: {rows[-1][3]}", file=sys.stderr, flush=True)
    return rows


def table_exit(rows: Sequence[Row]) -> int:
    """Print the table; 0 when every row is as expected, else 1."""
    from bench.reliability.faults import print_table

    print_table(list(rows))
    return 0 if all(r[3] for r in rows) else 1
