"""What decides the next step: a brain reads the conversation and returns the next message."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from langchain_core.messages import AIMessage, BaseMessage

if TYPE_CHECKING:
    from agent.context import RunContext


# A brain that could not parse a tool call's arguments passes {ERROR_KEY: reason} as its args;
# the graph answers such a call with an error result instead of running the tool.
ERROR_KEY = "__error__"


@runtime_checkable
class Brain(Protocol):
    """One turn of the agent.

    `messages` starts with the SystemMessage and the question (HumanMessage); tool results
    follow as ToolMessages with compact JSON content. `tools` are OpenAI-format schemas. The
    brain returns an AIMessage with `tool_calls` ([{"name", "args", "id"}]) to act, or plain
    content to answer; token counts go in `usage_metadata` when known.
    """

    name: str

    def step(
        self, messages: list[BaseMessage], tools: list[dict], ctx: RunContext
    ) -> AIMessage: ...


def accepts_images(brain: object) -> bool:
    """Whether a brain takes image inputs (asked of it once; brains without the notion: no)."""
    ask = getattr(brain, "accepts_images", None)
    return bool(ask()) if callable(ask) else bool(getattr(brain, "vision", False))
