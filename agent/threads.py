"""Resumable runs: `agent answer --thread ID` keeps LangGraph checkpoints in the cache directory.

Every super-step of the graph (a brain turn, a round of tool calls) is saved in
CACHE/threads.sqlite under the thread id, keyed per video (its content fingerprint), so a run
that stopped half-way (an endpoint failure, Ctrl-C) continues from its last saved step when
the same command is run again, instead of from step 0. SQLite commits are atomic: a step
that did not finish is never read back.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.sqlite import SqliteSaver

from agent.graph import ELAPSED_KEY
from agent.trace import TraceRecorder, text_of
from tools.cache import default_cache_dir
from tools.errors import StorageError, UsageError

THREADS_FILE = "threads.sqlite"
MAX_THREAD_LEN = 200


def check_thread(thread: str) -> str:
    """The thread id, stripped; UsageError when empty, too long or holding control characters."""
    tid = (thread or "").strip()
    if not tid or len(tid) > MAX_THREAD_LEN or any(ord(c) < 32 for c in tid):
        raise UsageError(f"--thread {thread!r}: give a name of 1-{MAX_THREAD_LEN} printable "
                         "characters, e.g. --thread flicker-1")
    return tid


def thread_key(fingerprint: str | None, thread: str) -> str:
    """The checkpoint thread id: the user's id, scoped to the video's content."""
    return f"{fingerprint or 'unknown'}:{thread}"


@contextmanager
def checkpointer(cache_dir: Path | None = None) -> Iterator[SqliteSaver]:
    """A SQLite checkpointer over CACHE/threads.sqlite; StorageError when it cannot be used."""
    root = Path(cache_dir) if cache_dir else default_cache_dir()
    path = root / THREADS_FILE
    try:
        root.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), check_same_thread=False)
    except (OSError, sqlite3.Error) as exc:
        raise StorageError(f"cannot keep thread checkpoints in {path}: {exc}") from None
    try:
        saver = SqliteSaver(conn)
        saver.setup()
    except sqlite3.Error as exc:
        conn.close()
        raise StorageError(f"cannot keep thread checkpoints in {path}: {exc}") from None
    try:
        yield saver
    finally:
        conn.close()


@dataclass
class Resume:
    """How a thread's run starts: `input` None continues from the saved state `values`."""

    input: dict[str, Any] | None
    values: dict[str, Any] = field(default_factory=dict)
    steps_done: int = 0
    finished: bool = False

    @property
    def resumed(self) -> bool:
        """Whether saved steps are reused."""
        return self.input is None


def plan_resume(graph: Any, config: dict[str, Any], thread: str, fresh: dict[str, Any],
                question_turn: str) -> Resume:
    """Start `fresh`, or continue the thread's saved run when it asked the same question.

    A thread holding another question about this video is refused (UsageError), never mixed.
    """
    try:
        snap = graph.get_state(config)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot read the checkpoints of thread {thread!r}: {exc}") from None
    values = dict(snap.values or {})
    messages = values.get("messages") or []
    if not messages:
        return Resume(input=fresh, values=dict(fresh))
    asked = next((text_of(m.content) for m in messages if isinstance(m, HumanMessage)), "")
    if asked.strip() != question_turn.strip():
        raise UsageError(f"thread {thread!r} holds another question about this video: "
                         "use another --thread")
    return Resume(input=None, values=values, steps_done=int(values.get("steps", 0)),
                  finished=not snap.next)


def replay(rec: TraceRecorder, messages: list[BaseMessage]) -> None:
    """Record the steps a thread took before it was resumed, so its trace shows the whole run
    (brain turns from the checkpoint carry no time: it was spent in the earlier run)."""
    calls: dict[str, dict[str, Any]] = {}
    turn = 0
    for m in messages:
        if isinstance(m, AIMessage):
            turn += 1
            rec.brain_step(turn, m, 0.0, note="from the thread's checkpoint")
            calls.update({str(c.get("id")): c for c in m.tool_calls or []})
        elif isinstance(m, ToolMessage):
            call = calls.get(str(m.tool_call_id), {"name": m.name, "id": m.tool_call_id})
            took = (m.response_metadata or {}).get(ELAPSED_KEY, 0.0)
            rec.tool_step(dict(call), m, float(took) if isinstance(took, int | float) else 0.0)
