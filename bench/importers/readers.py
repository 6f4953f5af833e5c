"""Reading benchmark files record by record (.json, .jsonl, .tsv, .parquet): each record comes
with its line/record/row number, and a record that cannot be read comes as a RecordError."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.items import RecordError

Record = dict[str, Any] | RecordError


def _is_json_object(line: str) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False


def _read_json(path: Path) -> Iterator[tuple[int, str, Record]]:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        if _is_json_object(first):  # JSON Lines saved under a .json name
            yield from _read_jsonl(path)
            return
        yield exc.lineno, "line", RecordError(str(path), exc.lineno, f"invalid JSON: {exc.msg}")
        return
    if isinstance(data, dict) and isinstance(data.get("data"), list):
        data = data["data"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list):
        yield 0, "record", RecordError(str(path), 0, "top level is neither a list nor an object")
        return
    for i, rec in enumerate(data, start=1):
        if isinstance(rec, dict):
            yield i, "record", rec
        else:
            yield i, "record", RecordError(str(path), i, "record is not an object", "record")


def _read_jsonl(path: Path) -> Iterator[tuple[int, str, Record]]:
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                yield lineno, "line", RecordError(str(path), lineno, f"invalid JSON: {exc.msg}")
                continue
            if isinstance(rec, dict):
                yield lineno, "line", rec
            else:
                yield lineno, "line", RecordError(str(path), lineno, "line is not a JSON object")


def _read_tsv(path: Path) -> Iterator[tuple[int, str, Record]]:
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter="\t")
        width = len(reader.fieldnames or [])
        for row in reader:
            lineno = reader.line_num
            if None in row or any(v is None for v in row.values()):
                n = len([v for k, v in row.items() if k is not None and v is not None])
                n += len(row.get(None) or [])
                reason = f"expected {width} tab-separated fields, found {n}"
                yield lineno, "line", RecordError(str(path), lineno, reason)
                continue
            yield lineno, "line", dict(row)


def _read_parquet(path: Path) -> Iterator[tuple[int, str, Record]]:
    import pyarrow.parquet as pq

    for i, row in enumerate(pq.read_table(path).to_pylist(), start=1):
        yield i, "row", row


def read_records(path: str | os.PathLike[str]) -> Iterator[tuple[int, str, Record]]:
    """Yield (number, unit, record-or-error) from a .json, .jsonl, .tsv or .parquet file."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".jsonl":
        return _read_jsonl(p)
    if suffix == ".json":
        return _read_json(p)
    if suffix == ".tsv":
        return _read_tsv(p)
    if suffix == ".parquet":
        return _read_parquet(p)
    raise ValueError(f"unsupported file type {suffix!r}; expected .json, .jsonl, .tsv or .parquet")


