"""Run traces: every step of a run (brain turns, tool calls, timing, tokens) kept as JSON.

A trace lives at <cache>/traces/<trace_id>.json, written atomically. Secrets never enter it:
only message text, tool names, arguments, result summaries and token counts are recorded, and
anything shaped like an API key is masked on the way in.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from tools.cache import default_cache_dir
from tools.errors import EXIT_STORAGE, LvqError

TRACE_DIR = "traces"
RESULT_CHARS = 600  # result text kept per tool step
_SECRET = re.compile(r"(sk-[A-Za-z0-9_\-]{12,}|Bearer\s+[A-Za-z0-9_\-.=]{12,}|"
                     r"(?i:api[_-]?key)[\"']?\s*[:=]\s*[\"']?[^\s\"',}]{8,})")


class TraceError(LvqError):
    """A trace cannot be found or read."""


def redact(text: str) -> str:
    """Mask anything that looks like an API key or bearer token."""
    return _SECRET.sub("[redacted]", text)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, float | int | bool) or value is None:
        return value
    return redact(str(value))


def new_trace_id() -> str:
    """Sortable unique id: UTC time plus random hex (e.g. 20250101-120000-3fa2c1)."""
    return time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-" + secrets.token_hex(3)


def traces_dir(cache_dir: Path | None = None) -> Path:
    return (cache_dir or default_cache_dir()) / TRACE_DIR


def text_of(content: Any) -> str:
    """The text of message content (a string or a list of content blocks; images dropped)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict) and block.get("type") == "text":
                parts.append(str(block.get("text", "")))
        return "\n".join(parts)
    return str(content)


def n_images(content: Any) -> int:
    if isinstance(content, list):
        return sum(1 for b in content if isinstance(b, dict) and b.get("type") == "image_url")
    return 0


def _windows_of(result: Any) -> list[list[float]]:
    """Time windows a tool result says it inspected (its 'window' / 'windows' fields)."""
    if not isinstance(result, dict):
        return []
    out = []
    if isinstance(result.get("window"), list | tuple) and len(result["window"]) == 2:
        out.append([float(result["window"][0]), float(result["window"][1])])
    for w in result.get("windows", []) or []:
        if isinstance(w, dict) and "start_s" in w and "end_s" in w:
            out.append([float(w["start_s"]), float(w["end_s"])])
        elif isinstance(w, list | tuple) and len(w) == 2:
            out.append([float(w[0]), float(w[1])])
    return out


class TraceRecorder:
    """Collects the steps of one run; `save` writes them. Safe to call from tool threads."""

    def __init__(self, video: str, question: str, options: list[str], brain: str,
                 max_steps: int, trace_id: str | None = None, **extra: Any) -> None:
        self.trace_id = trace_id or new_trace_id()
        self.t0 = time.perf_counter()
        self.data: dict[str, Any] = {
            "trace_id": self.trace_id,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "video": video,
            "question": question,
            "options": list(options),
            "brain": brain,
            "max_steps": max_steps,
            **extra,
            "steps": [],
        }
        self._lock = threading.Lock()

    @property
    def steps(self) -> list[dict[str, Any]]:
        return self.data["steps"]

    def _add(self, step: dict[str, Any]) -> None:
        with self._lock:
            step["n"] = len(self.steps) + 1
            step["t_s"] = round(time.perf_counter() - self.t0, 4)
            self.steps.append(_clean(step))

    def brain_step(self, turn: int, message: Any, elapsed_s: float, note: str = "") -> None:
        """Record one brain turn: what it said, which tools it asked for, its tokens."""
        calls = [{"name": c.get("name"), "args": c.get("args", {}), "id": c.get("id")}
                 for c in getattr(message, "tool_calls", []) or []]
        usage = getattr(message, "usage_metadata", None) or None
        self._add({
            "kind": "brain",
            "turn": turn,
            "text": text_of(getattr(message, "content", ""))[:RESULT_CHARS],
            "tool_calls": calls,
            "tokens": dict(usage) if usage else None,
            "elapsed_s": round(elapsed_s, 4),
            **({"note": note} if note else {}),
        })

    def tool_step(self, call: dict[str, Any], message: Any, elapsed_s: float) -> None:
        """Record one tool call: arguments, status, a summary of the result, windows seen."""
        content = getattr(message, "content", "")
        text = text_of(content)
        try:
            parsed = json.loads(text)
        except (ValueError, TypeError):
            parsed = None
        summary = parsed.get("summary") if isinstance(parsed, dict) else None
        self._add({
            "kind": "tool",
            "tool": call.get("name"),
            "call_id": call.get("id"),
            "args": call.get("args", {}),
            "status": getattr(message, "status", "success") or "success",
            "summary": (summary or text)[:RESULT_CHARS],
            "windows": _windows_of(parsed),
            "images": n_images(content),
            "elapsed_s": round(elapsed_s, 4),
        })

    def note(self, text: str) -> None:
        """Record something the graph did on its own (a nudge, a forced answer)."""
        self._add({"kind": "graph", "text": text})

    def finish(self, answer: dict[str, Any]) -> None:
        """Attach the final answer and totals."""
        tokens = {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
        seen = False
        for s in self.steps:
            for k, v in (s.get("tokens") or {}).items():
                if k in tokens and isinstance(v, int | float):
                    tokens[k] += int(v)
                    seen = True
        self.data["tokens"] = tokens if seen else None
        self.data["answer"] = _clean(answer)
        self.data["elapsed_s"] = round(time.perf_counter() - self.t0, 4)

    def save(self, cache_dir: Path | None = None) -> Path:
        """Write the trace atomically to <cache>/traces/<trace_id>.json; returns the path."""
        folder = traces_dir(cache_dir)
        folder.mkdir(parents=True, exist_ok=True)
        final = folder / f"{self.trace_id}.json"
        fd, tmp = tempfile.mkstemp(prefix=f".{self.trace_id}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(self.data, fh, indent=1, default=str)
            os.replace(tmp, final)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return final


# ---------------------------------------------------------------- reading


class TraceUnreadable(TraceError):
    """A stored trace file cannot be read or does not hold a trace (the store is damaged)."""

    exit_code = EXIT_STORAGE

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot read trace {path}: {reason}")
        self.reason = reason


def _shape_problem(d: Any) -> str | None:
    """Why parsed JSON is not a trace the commands can show, or None when it is one."""
    if not isinstance(d, dict):
        return f"holds a JSON {type(d).__name__}, not a trace object"
    kinds = {"steps": list, "options": list, "answer": dict, "tokens": dict}
    for key, kind in kinds.items():
        if d.get(key) is not None and not isinstance(d[key], kind):
            return f"field {key!r} is not a {kind.__name__}"
    if not all(isinstance(s, dict) for s in d.get("steps") or []):
        return "a step is not an object"
    if not isinstance(d.get("elapsed_s", 0) or 0, int | float):
        return "field 'elapsed_s' is not a number"
    segs = (d.get("answer") or {}).get("segments") or []
    if not isinstance(segs, list) or not all(
            isinstance(s, dict) and all(isinstance(s.get(k, 0), int | float)
                                        for k in ("start_s", "end_s", "severity"))
            and "start_s" in s and "end_s" in s for s in segs):
        return "the answer's segments are damaged"
    return None


def read_trace_file(path: Path) -> dict[str, Any]:
    """One trace file as a dict; TraceUnreadable when it is unreadable or not a trace."""
    try:
        d = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TraceUnreadable(path, str(exc)) from None
    problem = _shape_problem(d)
    if problem:
        raise TraceUnreadable(path, problem)
    return d


def list_traces(cache_dir: Path | None = None) -> list[dict[str, Any]]:
    """Stored traces, newest first, each as a short record (id, time, brain, question...).

    A file that cannot be read or is not a trace is listed with an `unreadable` reason
    instead of its fields, so one damaged file neither hides the others nor stops the list.
    """
    folder = traces_dir(cache_dir)
    rows = []
    for p in sorted(folder.glob("*.json"), reverse=True) if folder.is_dir() else []:
        try:
            d = read_trace_file(p)
        except TraceUnreadable as exc:
            rows.append({"trace_id": p.stem, "created": "", "brain": "", "steps": "",
                         "video": "", "question": "", "answer": "", "choice": None,
                         "elapsed_s": None, "unreadable": exc.reason})
            continue
        ans = d.get("answer") or {}
        rows.append({
            "trace_id": str(d.get("trace_id", p.stem)),
            "created": str(d.get("created", "")),
            "brain": str(d.get("brain", "")),
            "steps": ans.get("steps", len([s for s in d.get("steps") or []
                                           if s.get("kind") == "brain"])),
            "video": Path(str(d.get("video", ""))).name,
            "question": str(d.get("question", "")),
            "answer": str(ans.get("answer", "")),
            "choice": ans.get("choice"),
            "elapsed_s": d.get("elapsed_s"),
        })
    return rows


_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")


def find_trace(trace_id: str, cache_dir: Path | None = None) -> Path:
    """The trace file for an id, a unique id prefix, or 'last'; TraceError otherwise.

    Ids are plain words (letters, digits, '-', '_'): anything else could name a file outside
    the trace store ('../../etc/passwd') and is refused before any file is touched.
    """
    folder = traces_dir(cache_dir)
    if trace_id not in ("last", "latest") and not _ID.fullmatch(trace_id):
        raise TraceError(f"not a trace id: {trace_id!r} (ids look like 20250101-120000-3fa2c1; "
                         "see `agent trace list`)")
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        raise TraceError(f"no traces in {folder}")
    if trace_id in ("last", "latest"):
        return files[-1]
    exact = folder / f"{trace_id}.json"
    if exact.is_file():
        return exact
    hits = [p for p in files if p.stem.startswith(trace_id)]
    if len(hits) == 1:
        return hits[0]
    if not hits:
        raise TraceError(f"no trace {trace_id!r} in {folder} (see `agent trace list`)")
    raise TraceError(f"trace id {trace_id!r} is ambiguous: {', '.join(p.stem for p in hits[:5])}")


def load_trace(trace_id: str, cache_dir: Path | None = None) -> dict[str, Any]:
    """The stored trace as a dict; 'last' is the newest trace that can be read."""
    path = find_trace(trace_id, cache_dir)
    if trace_id not in ("last", "latest"):
        return read_trace_file(path)
    for p in sorted(path.parent.glob("*.json"), reverse=True):
        try:
            return read_trace_file(p)
        except TraceUnreadable:
            continue
    raise TraceUnreadable(path.parent, "no trace in it can be read")


def _ms(seconds: Any) -> str:
    """Milliseconds of a stored duration ('' when it is missing or not a number)."""
    return f"{1000 * seconds:.0f}" if isinstance(seconds, int | float) else ""


def step_rows(trace: dict[str, Any]) -> list[dict[str, str]]:
    """The trace's steps as table rows: #, what, arguments, result, time, tokens."""
    rows = []
    for s in trace.get("steps", []):
        kind = s.get("kind")
        if kind == "brain":
            calls = ", ".join(c.get("name", "?") for c in s.get("tool_calls", []))
            tok = s.get("tokens") or {}
            rows.append({
                "n": str(s.get("n", "")),
                "what": f"brain turn {s.get('turn', '')}",
                "args": f"-> {calls}" if calls else "(answers in text)",
                "result": (s.get("text") or s.get("note") or "")[:160],
                "ms": _ms(s.get("elapsed_s")),
                "tokens": str(tok.get("total_tokens", "")) if tok else "",
            })
        elif kind == "tool":
            args = json.dumps(s.get("args", {}), separators=(",", ":"))
            status = "" if s.get("status") == "success" else f"[{s.get('status')}] "
            rows.append({
                "n": str(s.get("n", "")),
                "what": str(s.get("tool", "")),
                "args": args[:120],
                "result": status + str(s.get("summary", ""))[:200],
                "ms": _ms(s.get("elapsed_s")),
                "tokens": "",
            })
        else:
            rows.append({"n": str(s.get("n", "")), "what": "graph", "args": "",
                         "result": str(s.get("text", ""))[:200], "ms": "", "tokens": ""})
    return rows
