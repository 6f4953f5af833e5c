"""The Python API: index a video, read its events, answer a question, open a trace.

The `agent` command line is a thin layer over exactly these functions (docs/api.md shows
them in use). Heavy modules are imported when a function is first called, so importing
this module costs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tools.model import Event

if TYPE_CHECKING:
    from agent.answer import Answer
    from agent.report import Report
    from tools.index import VideoIndex

__all__ = ["Event", "Step", "Trace", "answer", "events", "index_video", "open_trace",
           "traces"]

VideoLike = str | os.PathLike[str]


def index_video(video: VideoLike, *, cache_dir: Path | None = None, progress: bool = True,
                rebuild: bool = False, clip: bool = True) -> VideoIndex:
    """The quality index of `video`: measured once (progress bar on stderr), then cached."""
    from tools import index as _index  # looked up at call time: one place to swap it

    return _index.get_index(video, cache_dir=_dir(cache_dir), progress=progress,
                            rebuild=rebuild, clip=clip)


def events(video: VideoLike | VideoIndex, *, cache_dir: Path | None = None,
           progress: bool = True, types: Sequence[str] | None = None) -> list[Event]:
    """The quality events of a video (or of an index already built), in time order, as
    typed records; `types` keeps only those event types (e.g. ["blur", "flicker"])."""
    idx = video if hasattr(video, "events") else index_video(
        video, cache_dir=cache_dir, progress=progress)
    wanted = set(types) if types else None
    found = [e for e in idx.events if wanted is None or e.type in wanted]
    return sorted(found, key=lambda e: (e.start_s, e.end_s, e.type))


def answer(video: VideoLike, question: str, options: Sequence[str] = (), *,
           brain: str = "local", max_steps: int = 12, cache_dir: Path | None = None,
           progress: bool = True, brain_options: dict[str, Any] | None = None,
           **run_options: Any) -> Answer:
    """Answer a picture-quality question about `video` (options lettered A, B, ...); the
    run's trace is saved and its id is `answer.trace_id`. The local brain needs no model."""
    from agent import run as _run  # looked up at call time: one place to swap it

    return _run.answer_question(video, question, list(options), brain=brain,
                                max_steps=max_steps, cache_dir=_dir(cache_dir),
                                progress=progress, brain_options=brain_options, **run_options)


@dataclass(frozen=True)
class Step:
    """One step of a run: a brain turn, a tool call (arguments, result) or a graph note."""

    n: int
    kind: str  # "brain", "tool" or "graph"
    tool: str = ""  # the tool called (tool steps), or the tools asked for (brain turns)
    args: dict[str, Any] = field(default_factory=dict)
    result: str = ""  # the tool's result summary, the brain's text, or the note
    status: str = "success"
    windows: list[list[float]] = field(default_factory=list)  # time windows it inspected
    elapsed_s: float | None = None
    tokens: int | None = None

    @classmethod
    def from_dict(cls, s: dict[str, Any]) -> Step:
        """A stored step (agent.trace's JSON form) as a record."""
        kind = str(s.get("kind", "graph"))
        tok = s.get("tokens") if isinstance(s.get("tokens"), dict) else {}
        elapsed = s.get("elapsed_s")
        n = s.get("n")
        common = {"n": n if isinstance(n, int) else 0, "kind": kind,
                  "elapsed_s": float(elapsed) if isinstance(elapsed, int | float) else None}
        if kind == "tool":
            args = s.get("args")
            return cls(**common, tool=str(s.get("tool", "")),
                       args=dict(args) if isinstance(args, dict) else {},
                       result=str(s.get("summary", "")),
                       status=str(s.get("status", "success")),
                       windows=_windows(s.get("windows")))
        if kind == "brain":
            listed = s.get("tool_calls")
            calls = [c for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []
            return cls(**common, tool=", ".join(str(c.get("name", "?")) for c in calls),
                       result=str(s.get("text") or s.get("note") or ""),
                       tokens=tok.get("total_tokens") if tok else None)
        return cls(**common, result=str(s.get("text", "")))


@dataclass(frozen=True)
class Trace:
    """A stored run: its question, steps and answer; `data` is the trace JSON itself."""

    trace_id: str
    created: str
    video: str
    question: str
    options: list[str]
    brain: str
    steps: list[Step]
    answer: Answer | None  # None when the run failed (see `error`)
    error: str | None
    elapsed_s: float
    data: dict[str, Any]
    cache_dir: Path | None = None

    @property
    def tool_steps(self) -> list[Step]:
        """The tool calls, in order."""
        return [s for s in self.steps if s.kind == "tool"]

    def rows(self) -> list[dict[str, str]]:
        """The steps as the table `agent trace show` prints (#, what, args, result, ms)."""
        from agent.trace import step_rows

        return step_rows(self.data)

    def plot(self, output: str | os.PathLike[str] = "trace.png") -> Path:
        """Draw the quality timeline with the windows this run inspected to a PNG."""
        from agent.plot import plot_trace

        return plot_trace(self.data, Path(output), cache_dir=self.cache_dir)

    def report(self, output: str | os.PathLike[str] = "report.html") -> Report:
        """Write this run as one self-contained HTML page (see `agent report`); the result
        has the `path` written and `notes` on what the page lacks (e.g. no index)."""
        from agent.report import write_report

        return write_report(self.data, Path(output), cache_dir=self.cache_dir)


def open_trace(trace_id: str = "last", *, cache_dir: Path | None = None) -> Trace:
    """A stored trace by id, unique id prefix, or 'last' (the newest readable one)."""
    from agent.answer import Answer
    from agent.trace import load_trace

    cache = _dir(cache_dir)
    d = load_trace(trace_id, cache)
    stored = d.get("answer") or {}
    error = stored.get("error")
    ans = None
    if not error and stored:
        try:
            ans = Answer.model_validate(stored)
        except ValueError as exc:
            error = f"the stored answer is damaged: {exc.__class__.__name__}"
    elapsed = d.get("elapsed_s")
    return Trace(
        trace_id=str(d.get("trace_id", "")), created=str(d.get("created", "")),
        video=str(d.get("video", "")), question=str(d.get("question", "")),
        options=[str(o) for o in d.get("options") or []], brain=str(d.get("brain", "")),
        steps=[Step.from_dict(s) for s in d.get("steps") or []], answer=ans,
        error=str(error) if error else None,
        elapsed_s=float(elapsed) if isinstance(elapsed, int | float) else 0.0,
        data=d, cache_dir=cache,
    )


def traces(*, cache_dir: Path | None = None) -> list[dict[str, Any]]:
    """The stored traces, newest first, one short record each (as `agent trace list`)."""
    from agent.trace import list_traces

    return list_traces(_dir(cache_dir))


def _windows(value: Any) -> list[list[float]]:
    """Stored [start, end] pairs; anything else in the list is skipped."""
    out = []
    for w in value if isinstance(value, list) else []:
        if isinstance(w, list | tuple) and len(w) == 2 and all(
                isinstance(x, int | float) for x in w):
            out.append([float(w[0]), float(w[1])])
    return out


def _dir(cache_dir: Path | str | None) -> Path | None:
    """A cache directory given as text or path (None: the default cache)."""
    return Path(cache_dir) if cache_dir is not None else None
