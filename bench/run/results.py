"""The per-item results file (JSON Lines, appended and flushed, never rewritten) and the
summary JSON beside it (written atomically)."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from tools.errors import StorageError


def read_results(path: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """The last record of every item id in a results file (unreadable lines skipped)."""
    out: dict[str, dict[str, Any]] = {}
    p = Path(path)
    if not p.exists():
        return out
    with open(p, encoding="utf-8") as fh:
        for line in fh:
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut by a kill mid-write
            if isinstance(rec, dict) and isinstance(rec.get("id"), str):
                out[rec["id"]] = rec
    return out


class ResultWriter:
    """Appends one JSON line per record, whole or not at all (fsync optional)."""

    def __init__(self, path: Path, fsync: bool = False) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.fh = open(path, "a+b", buffering=0)  # noqa: SIM115 - closed in close()
        self.fsync = fsync
        self.fh.seek(0, os.SEEK_END)
        if self.fh.tell():
            self.fh.seek(-1, os.SEEK_END)
            if self.fh.read(1) != b"\n":  # a killed run left half a line: end it
                self._put(b"\n")

    def _put(self, data: bytes) -> None:
        """Write `data` at the end; on failure (a full disk) cut it off again and say so."""
        start = self.fh.seek(0, os.SEEK_END)
        try:
            view = memoryview(data)
            while view:
                view = view[self.fh.write(view):]
            if self.fsync:
                os.fsync(self.fh.fileno())
        except OSError as exc:
            with contextlib.suppress(OSError):
                self.fh.truncate(start)
            raise StorageError(f"cannot write {self.path}: {exc.strerror or exc}") from None

    def write(self, rec: dict[str, Any]) -> None:
        """Append one record as a line."""
        self._put((json.dumps(rec, ensure_ascii=False) + "\n").encode("utf-8"))

    def close(self) -> None:
        """Close the file."""
        self.fh.close()


def write_summary(path: str | os.PathLike[str], summary: dict[str, Any]) -> None:
    """The results JSON, written atomically."""
    p = Path(path)
    tmp = p.with_name(p.name + ".part")
    tmp.write_text(json.dumps(summary, indent=1, default=str))
    tmp.replace(p)


def summary_path(out_path: str | os.PathLike[str]) -> Path:
    """Where a results file's summary JSON goes: X.jsonl -> X.summary.json."""
    p = Path(out_path)
    return p.with_name(p.name.removesuffix(".jsonl") + ".summary.json")
