"""The `openai` brain: any OpenAI-compatible chat endpoint with tool calling.

Works with OpenAI, vLLM, Ollama and llama.cpp servers. Base URL and model come from flags or
the environment, the API key from the environment only; it lives inside the HTTP client and
never appears in a repr, an error message, a log line or a returned message. Requests are
retried with exponential backoff and jitter on 429/5xx, timeouts and dropped connections;
endpoint failures become one-line `LvqError`s; a timed-out request is tried once more at
most. Timeout and retries come from arguments or LVQ_TIMEOUT / LVQ_RETRIES. Whether the model
accepts images is asked of the endpoint once (vision_probe) unless LVQ_VISION says on or off;
frames returned by `zoom_in` are sent as image inputs (in a user message after the tool
results) only then. The actual key value is masked in everything the brain returns or raises.
"""

from __future__ import annotations

import logging
import os
import random
import time
from typing import Any

import openai
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
)

from agent.brains import redact, settings, vision_probe
from agent.brains.base import ERROR_KEY
from agent.brains.errors import (
    BrainConfigError,
    EndpointAuthError,
    EndpointFailed,
    EndpointUnreachable,
    InvalidResponse,
    ModelNotFound,
    OpenAIBrainError,
    ToolsUnsupported,
    ToolUseFailed,
    VisionRequired,
    VisionUnsupported,
)
from agent.brains.openai_failures import (
    RETRY_STATUSES,
    connection_reason,
    display_url,
    is_refusal,
    retry_after,
    server_message,
    status_error,
)
from agent.brains.openai_messages import (
    has_images,
    images_of,
    one_line,
    parse_arguments,
    parse_completion,
    to_openai_messages,
    tool_calls_from_text,
)

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.openai.com/v1"
CONNECT_RETRIES = 1  # a refused connection or unknown host rarely heals: fail fast


class OpenAIBrain:
    """A brain that asks an OpenAI-compatible chat endpoint for the next tool call."""

    name = "openai"

    def __init__(
        self,
        model: str,
        base_url: str = DEFAULT_BASE_URL,
        api_key: str | None = None,
        *,
        vision: str | None = None,
        timeout: float | None = None,
        max_retries: int | None = None,
        timeout_retries: int = settings.TIMEOUT_RETRIES,
        backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
        temperature: float | None = None,
    ) -> None:
        if not model:
            raise BrainConfigError("no model: set --model or LVQ_OPENAI_MODEL")
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.vision_mode = settings.vision_mode(vision)
        self._vision: bool | None = None if self.vision_mode == "auto" else (
            self.vision_mode == "on")
        self.timeout = settings.timeout_s(timeout)
        self.max_retries = settings.retries(max_retries)
        self.timeout_retries = max(0, min(int(timeout_retries), self.max_retries))
        self.backoff_s = float(backoff_s)
        self.max_backoff_s = float(max_backoff_s)
        self.temperature = temperature
        self._keyless = not api_key
        redact.remember(api_key)
        self._client = openai.OpenAI(
            base_url=self.base_url, api_key=api_key or "none", timeout=self.timeout, max_retries=0
        )

    @classmethod
    def from_env(
        cls,
        base_url: str | None = None,
        model: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        timeout: float | None = None,
        max_retries: int | None = None,
        vision: str | None = None,
        **kwargs: Any,
    ) -> OpenAIBrain:
        """Settings from flags, else LVQ_* / OPENAI_* variables; the key from env only."""
        env = os.environ
        redact.remember(env_name=api_key_env)
        url = base_url or env.get("LVQ_OPENAI_BASE_URL") or env.get("OPENAI_BASE_URL")
        name = model or env.get("LVQ_OPENAI_MODEL")
        if not name:
            raise BrainConfigError("no model for the openai brain: set --model or LVQ_OPENAI_MODEL")
        key = env.get("LVQ_OPENAI_API_KEY") or env.get(api_key_env)
        return cls(
            name,
            url or DEFAULT_BASE_URL,
            key,
            vision=vision,
            timeout=timeout,
            max_retries=max_retries,
            **kwargs,
        )

    def __repr__(self) -> str:
        return f"OpenAIBrain(base_url={display_url(self.base_url)!r}, model={self.model!r})"

    @property
    def endpoint(self) -> str:
        """The base URL safe to show (no credentials)."""
        return display_url(self.base_url)

    # -- images

    @property
    def vision(self) -> bool:
        """Whether images are sent (asks the endpoint once in ``auto`` mode)."""
        return self.accepts_images()

    def accepts_images(self) -> bool:
        """``on``/``off`` as set; in ``auto`` the remembered or freshly probed verdict."""
        if self._vision is None:
            self._vision = vision_probe.cached(self.endpoint, self.model)
        if self._vision is None:
            self._vision = self._probe_vision()
        return self._vision

    def _probe_vision(self) -> bool:
        """Send the tiny image once; remember whether the endpoint took it."""
        payload = {"model": self.model, "messages": vision_probe.probe_messages()}
        try:
            self._with_retries(lambda: self._client.chat.completions.create(**payload), True)
        except OpenAIBrainError as exc:
            cause = exc.__cause__
            status, said = None, ""
            if isinstance(cause, openai.APIStatusError):
                status, said = cause.status_code, one_line(server_message(cause))
            if not (isinstance(exc, VisionUnsupported)
                    or vision_probe.rejects_images(status, said)):
                raise redact.scrub_error(exc) from exc.__cause__
            log.info("%s at %s does not accept images: %s", self.model, self.endpoint, exc)
            vision_probe.remember(self.endpoint, self.model, False, str(exc))
            return False
        vision_probe.remember(self.endpoint, self.model, True, "answered the image probe")
        return True

    def _refused_images(self) -> None:
        """Remember that a real request with images was refused; images are off from now."""
        log.warning("%s rejected image inputs; continuing without images", self.model)
        self._vision = False
        vision_probe.remember(self.endpoint, self.model, False, "rejected images in a request")

    # -- the Brain protocol

    def step(self, messages: list[BaseMessage], tools: list[dict], ctx: Any = None) -> AIMessage:
        """Send the conversation and tools; return the model's tool calls or text (keys masked)."""
        try:
            names = {t.get("function", {}).get("name") for t in tools or []} - {None}
            return scrub_message(parse_completion(self._step(messages, tools, ctx), names))
        except OpenAIBrainError as exc:
            raise redact.scrub_error(exc) from exc.__cause__

    def _step(self, messages: list[BaseMessage], tools: list[dict], ctx: Any) -> Any:
        """The completion for one turn; images only when the model accepts them."""
        images = any(images_of(m.content) for m in messages)
        vision = images and getattr(ctx, "vision", True) is not False and self.accepts_images()
        try:
            return self._complete(messages, tools, vision)
        except VisionUnsupported:
            if self.vision_mode != "auto":
                raise
            self._refused_images()
            if getattr(ctx, "images_required", False):  # the caller cannot do without them
                raise
            return self._complete(messages, tools, False)

    def list_models(self) -> list[str]:
        """Model ids the endpoint serves (also a cheap reachability check)."""
        try:
            page = self._with_retries(lambda: self._client.models.list(), images=False)
        except OpenAIBrainError as exc:
            raise redact.scrub_error(exc) from exc.__cause__
        return [redact.scrub(m.id) for m in getattr(page, "data", None) or []]

    # -- requests

    def _complete(self, messages: list[BaseMessage], tools: list[dict], vision: bool) -> Any:
        """One chat completion, retried; raises OpenAIBrainError subclasses."""
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": to_openai_messages(messages, vision),
        }
        if tools:
            payload["tools"] = list(tools)
        if self.temperature is not None:
            payload["temperature"] = self.temperature
        images = has_images(payload["messages"])
        completion = self._with_retries(
            lambda: self._client.chat.completions.create(**payload), images=images
        )
        if isinstance(completion, str) or not getattr(completion, "choices", None):
            got = completion if isinstance(completion, str) else "no choices"
            snippet = one_line(got, self._client.api_key, limit=80)
            raise InvalidResponse(f"endpoint returned an invalid response ({snippet})")
        return completion

    def _with_retries(self, call: Any, images: bool) -> Any:
        """Run ``call`` with backoff on 429/5xx, connection errors and (once) timeouts."""
        attempt = 0
        while True:
            try:
                return call()
            except openai.APITimeoutError as exc:
                if attempt >= self.timeout_retries:
                    raise self._unreachable(
                        f"no answer within {self.timeout:g} s", attempt,
                        "; set LVQ_TIMEOUT to wait longer") from exc
                delay = self._backoff(attempt)
            except openai.APIConnectionError as exc:
                limit = min(self.max_retries, CONNECT_RETRIES) if is_refusal(exc) else None
                if attempt >= (self.max_retries if limit is None else limit):
                    raise self._unreachable(connection_reason(exc), attempt) from exc
                delay = self._backoff(attempt)
            except openai.APIStatusError as exc:
                if exc.status_code not in RETRY_STATUSES or attempt >= self.max_retries:
                    raise status_error(
                        exc, attempt, images, model=self.model, endpoint=self.endpoint,
                        keyless=self._keyless, api_key=self._client.api_key) from exc
                wait = retry_after(exc)
                delay = self._backoff(attempt) if wait is None else wait
            except openai.APIResponseValidationError as exc:
                raise InvalidResponse("endpoint returned an invalid response") from exc
            except ValueError as exc:  # a JSON content type with a body that is not JSON
                raise InvalidResponse("endpoint returned an invalid response (not JSON)") from exc
            attempt += 1
            log.info("%s: retry %d/%d in %.2f s", self.endpoint, attempt, self.max_retries, delay)
            time.sleep(delay)

    def _backoff(self, attempt: int) -> float:
        """Exponential backoff with jitter: base * 2**attempt, scaled by 0.5-1.0, capped."""
        return min(self.max_backoff_s, self.backoff_s * 2**attempt) * (0.5 + random.random() / 2)

    def _unreachable(self, reason: str, attempt: int, hint: str = "") -> EndpointUnreachable:
        """The unreachable-endpoint error."""
        tries = f" ({attempt + 1} attempts)" if attempt else ""
        reason = one_line(reason, self._client.api_key)
        return EndpointUnreachable(f"endpoint {self.endpoint} unreachable: {reason}{tries}{hint}")


def scrub_message(msg: AIMessage) -> AIMessage:
    """The message with every known key masked: text, tool-call arguments, metadata."""
    calls = [{**c, "name": redact.scrub(c["name"]), "args": redact.scrub_value(c["args"])}
             for c in msg.tool_calls]
    return AIMessage(
        content=redact.scrub(msg.content) if isinstance(msg.content, str)
        else redact.scrub_value(msg.content),
        tool_calls=calls,
        usage_metadata=msg.usage_metadata,
        response_metadata=redact.scrub_value(msg.response_metadata),
    )


__all__ = [
    "ERROR_KEY",
    "BrainConfigError",
    "EndpointAuthError",
    "EndpointFailed",
    "EndpointUnreachable",
    "InvalidResponse",
    "ModelNotFound",
    "OpenAIBrain",
    "OpenAIBrainError",
    "ToolUseFailed",
    "ToolsUnsupported",
    "VisionRequired",
    "VisionUnsupported",
    "display_url",
    "one_line",
    "parse_arguments",
    "parse_completion",
    "scrub_message",
    "to_openai_messages",
    "tool_calls_from_text",
]
