"""Video libraries: many videos at once for `agent index` and `agent answer`.

Finds the videos named by files, directories (searched recursively by extension) and globs,
runs one piece of work per video with an overall progress bar, keeps going past a video that
fails, and turns the results into summary rows written as CSV and JSON.
"""

from __future__ import annotations

import csv
import glob
import io
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from tqdm import tqdm

from tools.errors import (
    EXIT_ENDPOINT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    InputError,
    StorageError,
    exit_code_of,
)
from tools.jsonsafe import dumps

VIDEO_EXTENSIONS = frozenset(
    "mp4 mkv webm mov avi mpg mpeg ts m2ts ogv m4v wmv flv".split()
)
GLOB_CHARS = frozenset("*?[")
# Errors that would fail every video alike (a bad option, a dead endpoint, Ctrl-C) stop the run.
ABORTING = frozenset({EXIT_USAGE, EXIT_ENDPOINT, EXIT_INTERRUPTED})
SUMMARY_FIELDS = ("video", "status", "duration_s", "n_events", "events_by_type",
                  "worst_severity", "worst_type", "seconds", "error")

T = TypeVar("T")


def is_video_name(path: Path) -> bool:
    """Whether a file name carries one of the video extensions (any case)."""
    return path.suffix[1:].lower() in VIDEO_EXTENSIONS


def is_pattern(arg: str | os.PathLike[str]) -> bool:
    """Whether an argument is a glob pattern rather than a path."""
    return any(c in GLOB_CHARS for c in str(arg))


def is_library(args: Sequence[str | os.PathLike[str]]) -> bool:
    """Whether arguments name a library (several, a directory or a glob), not one video."""
    return len(args) != 1 or is_pattern(args[0]) or Path(args[0]).is_dir()


def videos_in(directory: Path) -> list[Path]:
    """Video files under a directory, recursively, sorted; hidden files and folders skipped."""
    found = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [Path(root) / f for f in sorted(files)
                  if not f.startswith(".") and is_video_name(Path(f))]
    return found


def find_videos(args: Sequence[str | os.PathLike[str]],
                warn: Callable[[str], None] = lambda _m: None) -> list[Path]:
    """The videos named by files, directories and globs, in argument order, each once.

    A plain path that does not exist is kept (its run fails with the usual message); a
    directory or glob that holds no video is reported through `warn`.
    """
    videos: list[Path] = []
    empty: list[str] = []  # said only when other arguments found videos (else one error)
    for arg in args:
        text = str(arg)
        if is_pattern(text):
            found = []
            for m in sorted(glob.glob(os.path.expanduser(text), recursive=True)):
                p = Path(m)
                found += videos_in(p) if p.is_dir() else [p] if is_video_name(p) else []
            if not found:
                empty.append(f"no video files match {text}")
        elif Path(text).is_dir():
            found = videos_in(Path(text))
            if not found:
                empty.append(f"no video files in {text}")
        else:
            found = [Path(text)]
        videos += found
    seen: set[Path] = set()
    out = []
    for v in videos:
        key = v.resolve() if v.exists() else v
        if key not in seen:
            seen.add(key)
            out.append(v)
    if not out:
        raise InputError("no video files found in " + ", ".join(str(a) for a in args))
    for message in empty:
        warn(message)
    return out


@dataclass
class Outcome(Generic[T]):
    """The result of one video's work: a value, or the error that stopped it."""

    video: Path
    value: T | None = None
    error: BaseException | None = None
    seconds: float = 0.0

    @property
    def message(self) -> str:
        """The error as one line (the type too when it is not a user error)."""
        exc = self.error
        if exc is None:
            return ""
        text = " ".join(str(exc).split())
        if isinstance(exc, OSError) and exc.strerror and exc.filename:
            text = f"{exc.strerror}: {exc.filename}"
        return text if exit_code_of(exc) != EXIT_INTERNAL else f"{type(exc).__name__}: {text}"


def run_each(videos: Sequence[Path], work: Callable[[Path], T], progress: bool = True,
             report: Callable[[Outcome[T]], str] | None = None) -> Iterator[Outcome[T]]:
    """Run `work` on each video under an overall progress bar, yielding each outcome.

    A video's error is kept in its outcome and the run goes on, unless the error would fail
    every video alike (usage, endpoint, Ctrl-C): that one is raised. `report` turns an
    outcome into a status line written on stderr above the bars.
    """
    bar = tqdm(total=len(videos), unit="video", desc="videos", disable=not progress,
               file=sys.stderr, dynamic_ncols=True, position=0)
    with bar:
        for video in videos:
            t0 = time.perf_counter()
            try:
                outcome = Outcome(video, value=work(video))
            except (Exception, KeyboardInterrupt) as exc:  # noqa: BLE001 - one video's failure
                if exit_code_of(exc) in ABORTING:
                    raise
                outcome = Outcome(video, error=exc)
            outcome.seconds = time.perf_counter() - t0
            if report is not None:
                tqdm.write(report(outcome), file=sys.stderr)
            bar.update(1)
            yield outcome


@dataclass
class Row:
    """One line of a library summary."""

    video: str
    status: str  # indexed, cached or failed
    duration_s: float | None = None
    events_by_type: dict[str, int] = field(default_factory=dict)
    worst_severity: float | None = None
    worst_type: str = ""
    seconds: float = 0.0
    error: str = ""

    @property
    def n_events(self) -> int:
        """How many events the video has."""
        return sum(self.events_by_type.values())

    def to_dict(self) -> dict[str, Any]:
        """The row as JSON-able fields, in SUMMARY_FIELDS order."""
        return {"video": self.video, "status": self.status, "duration_s": self.duration_s,
                "n_events": self.n_events, "events_by_type": dict(self.events_by_type),
                "worst_severity": self.worst_severity, "worst_type": self.worst_type,
                "seconds": round(self.seconds, 3), "error": self.error}

    def to_csv(self) -> dict[str, str]:
        """The row as CSV cells: event counts as 'type=n; type=n', missing numbers empty."""
        d = self.to_dict()
        d["events_by_type"] = "; ".join(f"{k}={n}" for k, n in self.events_by_type.items())
        return {k: "" if v is None else str(v) for k, v in d.items()}


def index_row(outcome: Outcome[Any]) -> Row:
    """The summary row of one video's index (a tools.index.VideoIndex) or failure."""
    video = str(outcome.video)
    if outcome.error is not None or outcome.value is None:
        return Row(video, "failed", seconds=outcome.seconds, error=outcome.message)
    index = outcome.value
    events = list(index.events)
    counts = Counter(e.type for e in events)
    worst = max(events, key=lambda e: e.severity, default=None)
    return Row(
        video, "cached" if index.meta.get("cached") else "indexed",
        duration_s=round(float(index.info.duration_s), 3),
        events_by_type=dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))),
        worst_severity=None if worst is None else round(float(worst.severity), 3),
        worst_type="" if worst is None else worst.type,
        seconds=outcome.seconds,
    )


def status_line(row: Row) -> str:
    """One status line for a finished video."""
    if row.status == "failed":
        return f"failed  {row.video}: {row.error}"
    what = "cached" if row.status == "cached" else f"indexed in {row.seconds:.1f} s"
    return f"{what}  {row.video}  ({row.n_events} events)"


def summary_paths(path: Path) -> tuple[Path, Path]:
    """The CSV and JSON files a `--summary PATH` writes."""
    return path.with_suffix(".csv"), path.with_suffix(".json")


def write_atomic(path: Path, text: str) -> None:
    """Write text to a file through a temporary file and a rename (never half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def csv_text(records: Sequence[dict[str, Any]], fields: Sequence[str] = SUMMARY_FIELDS) -> str:
    """Records as CSV with a header line."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(fields), lineterminator="\n")
    writer.writeheader()
    writer.writerows(records)
    return buf.getvalue()


def write_summary(rows: Sequence[Row], path: Path) -> tuple[Path, Path]:
    """Write the summary as PATH.csv and PATH.json (atomically); returns both paths."""
    csv_path, json_path = summary_paths(path)
    write_atomic(csv_path, csv_text([r.to_csv() for r in rows]))
    write_atomic(json_path, dumps([r.to_dict() for r in rows], indent=1) + "\n")
    return csv_path, json_path


class SummarySaver:
    """Keeps a library summary on disk while the run goes: rewritten atomically at most every
    `every_s` seconds and at the end, rows in the order of the videos, so an interrupted run
    keeps the rows of the videos it finished."""

    def __init__(self, path: Path | None, videos: Sequence[Path], every_s: float = 2.0) -> None:
        self.path = path
        self.order = {str(v): i for i, v in enumerate(videos)}
        self.rows: list[Row] = []
        self.every_s = every_s
        self.saved_at = time.monotonic()

    def sorted_rows(self) -> list[Row]:
        """The rows so far, in the order of the videos."""
        return sorted(self.rows, key=lambda r: self.order.get(r.video, len(self.order)))

    def add(self, row: Row) -> None:
        """Take a finished video's row; rewrite the files when the last write is old enough."""
        self.rows.append(row)
        if self.path is not None and time.monotonic() - self.saved_at >= self.every_s:
            self.save()

    def save(self) -> tuple[Path, Path] | None:
        """Write the rows so far as PATH.csv and PATH.json now (None without a PATH)."""
        self.saved_at = time.monotonic()
        if self.path is None:
            return None
        try:
            return write_summary(self.sorted_rows(), self.path)
        except OSError as exc:  # mid-run or at the end: one line naming the file, exit 5
            raise StorageError(f"cannot write {self.path}: {exc.strerror or exc}") from None


def answer_row(outcome: Outcome[Any]) -> dict[str, Any]:
    """One video's answer (an agent.answer.Answer) as a row: video, first line, time spans."""
    from agent.timefmt import hms

    video = str(outcome.video)
    if outcome.error is not None or outcome.value is None:
        return {"video": video, "answer": "", "times": "", "error": outcome.message}
    ans = outcome.value
    lines = str(ans.answer).strip().splitlines()
    first = (f"{ans.choice}: " if ans.choice else "") + (lines[0] if lines else "")
    times = ", ".join(f"{hms(s.start_s)}-{hms(s.end_s)}" for s in ans.segments)
    return {"video": video, "answer": first, "times": times, "error": ""}
