"""The graph's state: the conversation, the brain steps taken, and the final answer."""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import BaseMessage
from langgraph.graph.message import add_messages


class AgentState(TypedDict, total=False):
    """Messages accumulate (add_messages); `steps` counts brain turns; `answer` ends the run.

    `answer` holds the validated finish arguments (plus `forced` when the graph built it).
    """

    messages: Annotated[list[BaseMessage], add_messages]
    steps: int
    nudged: bool
    answer: dict[str, Any] | None
