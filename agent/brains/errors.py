"""Errors of model brains: one line each, never holding the API key."""

from __future__ import annotations

from tools.errors import EXIT_ENDPOINT, EXIT_USAGE, LvqError


class OpenAIBrainError(LvqError):
    """The chat endpoint could not be used; the message is one line and never holds the key."""

    exit_code = EXIT_ENDPOINT


class BrainConfigError(OpenAIBrainError):
    """Missing or invalid brain settings (model, vision mode, timeout, retries)."""

    exit_code = EXIT_USAGE


class EndpointUnreachable(OpenAIBrainError):
    """No HTTP answer: connection refused, name not resolved, or timed out on every attempt."""


class EndpointAuthError(OpenAIBrainError):
    """The endpoint rejected the API key (401) or refused access (403)."""


class ModelNotFound(OpenAIBrainError):
    """The endpoint does not serve the requested model (or the base URL is wrong)."""


class ToolsUnsupported(OpenAIBrainError):
    """The model or server cannot do tool calling."""


class ToolUseFailed(OpenAIBrainError):
    """The model kept making tool calls that fail (malformed arguments, unknown tools)."""


class VisionUnsupported(OpenAIBrainError):
    """The model rejected image inputs."""


class VisionRequired(OpenAIBrainError):
    """A run needs image inputs and the model does not accept them (the wrong model was
    chosen for the track: a usage error, not a failing endpoint)."""

    exit_code = EXIT_USAGE


class InvalidResponse(OpenAIBrainError):
    """The endpoint answered with something that is not a chat completion."""


class EndpointFailed(OpenAIBrainError):
    """The endpoint kept failing (429/5xx after all retries) or refused the request."""
