"""Answer one question about one video: index, toolbox, brain, graph, answer, trace.

`answer_question` is what the CLI and the benchmark call. The graph is streamed
(`stream_mode="updates"`), so a caller sees each step as it happens; with a thread id its
steps are checkpointed and a failed run resumes where it stopped (agent.threads).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from agent import prompts, threads
from agent.answer import Answer, Segment, clamp_segments
from agent.brains import get_brain
from agent.brains.base import Brain, accepts_images
from agent.brains.redact import scrub_value
from agent.context import RunContext
from agent.graph import build_graph, collect_evidence, recursion_limit
from agent.options import letters
from agent.timefmt import hms
from agent.toolbox import Toolbox
from agent.trace import TraceRecorder
from tools.cache import default_cache_dir, warn_unwritable
from tools.errors import UsageError

DEFAULT_MAX_STEPS = 12


def question_message(question: str, options: Sequence[str], duration_s: float) -> str:
    """The user turn: duration, question, and the options labelled A., B., ..."""
    letters = [chr(ord("A") + i) for i in range(len(options))]
    if options:
        block = prompts.part("tool_guidance.md", "options").format(
            options="\n".join(f"{k}. {o}" for k, o in zip(letters, options, strict=True)),
            letters=", ".join(letters),
        )
    else:
        block = prompts.part("tool_guidance.md", "open")
    return prompts.part("tool_guidance.md", "question").format(
        duration_s=f"{duration_s:.1f}", duration_hms=hms(duration_s), question=question.strip(),
        options_block=block,
    )


def answer_question(
    video: str | os.PathLike[str],
    question: str,
    options: Sequence[str] = (),
    brain: str | Brain = "local",
    max_steps: int = DEFAULT_MAX_STEPS,
    cache_dir: Path | None = None,
    progress: bool = True,
    index: Any = None,
    brain_options: dict[str, Any] | None = None,
    thread: str | None = None,
    on_update: Callable[[dict[str, Any]], None] | None = None,
) -> Answer:
    """Answer `question` about `video` (options lettered A, B, ... in order); trace saved.

    The index is built on first use (progress bar on stderr when `progress`) and reused.
    `on_update` receives each streamed graph update ({node: state update}) as it happens.
    With `thread`, checkpoints go to the cache directory and a run of the same question on
    the same video and thread continues from its last saved step. Brain errors propagate
    (LvqError subclasses print as one line in the CLI) after the trace so far is saved.
    """
    t0 = time.perf_counter()
    if not question or not question.strip():
        raise UsageError("the question is empty: ask something, e.g. 'When does flicker occur?'")
    empty = [k for k, o in zip(letters(len(options)), options, strict=True) if not str(o).strip()]
    if empty:
        raise UsageError(f"option {', '.join(empty)} is empty: give each option its text, or "
                         "leave the options out")
    b = get_brain(brain, **(brain_options or {})) if isinstance(brain, str) else brain
    if index is None:
        from tools.index import get_index

        index = get_index(video, cache_dir=cache_dir, progress=progress)
    opts = [str(o) for o in options]
    duration = float(index.info.duration_s)
    rec = TraceRecorder(
        video=index.info.path, question=question, options=opts, brain=b.name,
        max_steps=max_steps, duration_s=duration,
        index_dir=str(index.directory) if index.directory else None,
        fingerprint=index.meta.get("fingerprint"),
    )
    ctx = RunContext(
        video=index.info.path, duration_s=duration, question=question, options=opts,
        max_steps=max_steps, vision=accepts_images(b), trace=rec,
    )
    turn = question_message(question, opts, duration)
    fresh = {"messages": [SystemMessage(prompts.system_prompt()), HumanMessage(turn)],
             "steps": 0, "nudged": False, "answer": None}
    config: dict[str, Any] = {"recursion_limit": recursion_limit(max_steps)}
    try:
        with ExitStack() as stack:
            saver, tid = None, ""
            if thread is not None:
                tid = threads.check_thread(thread)
                saver = stack.enter_context(threads.checkpointer(cache_dir))
                config["configurable"] = {
                    "thread_id": threads.thread_key(index.meta.get("fingerprint"), tid)}
            graph = build_graph(b, Toolbox(index, ctx), max_steps, checkpointer=saver)
            start = threads.plan_resume(graph, config, tid, fresh, turn) if saver else \
                threads.Resume(input=fresh, values=dict(fresh))
            if start.resumed:
                threads.replay(rec, start.values.get("messages") or [])
                rec.note(f"thread {tid!r}: resumed after step {start.steps_done}"
                         + (" (already finished)" if start.finished else ""))
            out = stream_graph(graph, start, config, ctx, on_update)
    except BaseException as exc:
        rec.note(f"run failed: {type(exc).__name__}: {exc}")
        rec.finish({"error": f"{type(exc).__name__}: {exc}"})
        save_trace(rec, cache_dir)
        raise
    raw = dict(out.get("answer") or {})
    segs = [Segment.model_validate(s) for s in raw.get("segments") or []]
    ans = Answer(
        answer=str(raw.get("answer") or "No answer."),
        choice=raw.get("choice"),
        segments=clamp_segments(segs, duration),
        confidence=float(raw.get("confidence", 0.5)),
        evidence=collect_evidence(out["messages"]),
        trace_id=rec.trace_id,
        brain=b.name,
        steps=int(out.get("steps", 0)),
        elapsed_s=round(time.perf_counter() - t0, 3),
    )
    rec.finish({**ans.model_dump(), "forced": bool(raw.get("forced"))})
    save_trace(rec, cache_dir)
    return ans


def stream_graph(graph: Any, start: threads.Resume, config: dict[str, Any], ctx: RunContext,
                 on_update: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Run the graph from `start`, handing each update to `on_update`; the final state.

    Checkpoints (when the graph has a checkpointer) are written before the next step runs.
    """
    final = dict(start.values)
    saved = {"durability": "sync"} if getattr(graph, "checkpointer", None) else {}
    for mode, chunk in graph.stream(start.input, config, context=ctx,
                                    stream_mode=["updates", "values"], **saved):
        if mode == "values":
            final = dict(chunk)
        elif on_update is not None:
            on_update(chunk)
    return final


def save_trace(rec: TraceRecorder, cache_dir: Path | None) -> Path | None:
    """Store a run's trace with every known API key masked (whatever shape the key has); a
    read-only cache costs only the trace (said once on stderr)."""
    rec.data = scrub_value(rec.data)
    try:
        return rec.save(cache_dir)
    except OSError:
        warn_unwritable(cache_dir or default_cache_dir())
        return None
