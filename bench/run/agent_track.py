"""The agent track: the LangGraph agent answers one item from the video's cached index."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.run.tracks import Prediction


def agent_answer(video: str | Path, question: str, options: Sequence[str], brain: Any,
                 index: Any, cache_dir: Path | None, max_steps: int = 12) -> Prediction:
    """Ask the LangGraph agent; windows are those its tools measured."""
    from agent.run import answer_question
    from agent.trace import TraceError, load_trace

    ans = answer_question(video, question, list(options), brain=brain, max_steps=max_steps,
                          cache_dir=cache_dir, progress=False, index=index)
    tokens = None
    try:
        tokens = load_trace(ans.trace_id, cache_dir).get("tokens")
    except TraceError:
        pass
    windows = [list(map(float, e["window"])) for e in ans.evidence
               if isinstance(e.get("window"), list) and len(e["window"]) == 2]
    return Prediction(
        response=ans.answer,
        choice=ans.choice,
        segments=[s.model_dump() for s in ans.segments],
        windows=windows, steps=ans.steps, tokens=tokens, latency_s=ans.elapsed_s,
        trace_id=ans.trace_id,
    )
