"""What an interrupted or failed command left on disk, judged as the next run will judge it:
cache entries (complete and checksum-valid, or nothing), traces, bench results lines."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class CacheState:
    """Index entries and traces of one cache directory."""

    entries: int = 0
    complete: int = 0  # entries that load: meta whole, tables' checksums and rows as recorded
    bad: list[str] = field(default_factory=list)  # entries a reader would find damaged
    scratch: int = 0  # .tmp-/.old- directories: never read, swept by a later build; and the
    # .partial chunks of unfinished builds (each read back only when its checksum matches)
    traces: int = 0
    bad_traces: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Only complete entries and readable traces (scratch is allowed: nothing reads it)."""
        return not self.bad and not self.bad_traces


def cache_state(cache: Path) -> CacheState:
    """Inspect every entry under `cache` with the loader's own checks."""
    from agent.trace import TRACE_DIR, TraceUnreadable, read_trace_file
    from tools.cache import PARTIAL
    from tools.errors import IndexError_
    from tools.index import load

    st = CacheState()
    if not cache.is_dir():
        return st
    for child in sorted(cache.iterdir()):
        if child.name.startswith((".tmp-", ".old-")) or child.name == PARTIAL:
            st.scratch += 1
        elif child.is_dir() and child.name != TRACE_DIR:
            st.entries += 1
            try:
                load(child)
                st.complete += 1
            except IndexError_ as exc:
                st.bad.append(f"{child.name}: {exc}")
    traces = cache / TRACE_DIR
    for p in sorted(traces.glob("*.json")) if traces.is_dir() else []:
        st.traces += 1
        try:
            read_trace_file(p)
        except TraceUnreadable as exc:
            st.bad_traces.append(str(exc))
    return st


@dataclass
class ResultsState:
    """The records of a bench results file."""

    ids: list[str] = field(default_factory=list)  # one per parsed record, in file order
    torn: int = 0  # lines that do not parse (a kill mid-write): skipped by every reader
    errors: int = 0  # records of items that ended in an error (tried again on resume)

    @property
    def duplicates(self) -> int:
        """Records beyond the first of an id."""
        return sum(n - 1 for n in Counter(self.ids).values())

    def lost(self, expected: list[str]) -> int:
        """Items with no record."""
        return len(set(expected) - set(self.ids))


def results_state(path: Path) -> ResultsState:
    """Parse a results file line by line, as `bench run` reads it."""
    st = ResultsState()
    if not path.exists():
        return st
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            st.torn += 1
            continue
        if isinstance(rec, dict) and isinstance(rec.get("id"), str):
            st.ids.append(rec["id"])
            st.errors += bool(rec.get("error"))
        else:
            st.torn += 1
    return st


def files_containing(root: Path, needle: str) -> list[str]:
    """Every file under `root` whose bytes contain `needle` (paths relative to root)."""
    data = needle.encode()
    hits = []
    for p in sorted(root.rglob("*")):
        if p.is_file() and not p.is_symlink():
            try:
                if data in p.read_bytes():
                    hits.append(str(p.relative_to(root)))
            except OSError:
                continue
    return hits
