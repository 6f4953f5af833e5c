"""How an OpenAI-compatible endpoint failed: causes, Retry-After, and one-line brain errors."""

from __future__ import annotations

import re
import socket
from urllib.parse import urlsplit, urlunsplit

import openai

from agent.brains.errors import (
    EndpointAuthError,
    EndpointFailed,
    ModelNotFound,
    ToolsUnsupported,
    VisionUnsupported,
)
from agent.brains.openai_messages import one_line

RETRY_STATUSES = frozenset({408, 409, 429}) | frozenset(range(500, 600))
MAX_RETRY_AFTER_S = 60.0
_TOOLS_UNSUPPORTED = re.compile(
    r"(does not|doesn't|not|no|cannot|can't|unable to) (support|call)\w* (tools|tool|function)"
    r"|(tools?|function calling|tool calling|tool_choice)\W+(is |are )?(not |un)supported"
    r"|enable-auto-tool-choice|tools param requires --jinja|tool.?call.?parser",
    re.IGNORECASE,
)
_VISION_UNSUPPORTED = re.compile(
    r"(image|vision|multimodal|multi-modal|image_url)\b.*\b(not|un)\s*(supported|support|allowed)"
    r"|(does not|doesn't|not|cannot) (support|accept|handle)\w* (image|vision|multimodal)"
    r"|image input|mmproj|not a multimodal",
    re.IGNORECASE,
)


def display_url(url: str) -> str:
    """The URL without user info or query string (either may carry a credential)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def root_cause(exc: BaseException) -> BaseException:
    """The innermost chained exception."""
    seen = set()
    while (nxt := exc.__cause__ or exc.__context__) is not None and id(nxt) not in seen:
        seen.add(id(exc))
        exc = nxt
    return exc


def is_refusal(exc: BaseException) -> bool:
    """Whether the connection was refused or the host unknown (retrying rarely helps)."""
    root = root_cause(exc)
    return isinstance(root, ConnectionRefusedError) or isinstance(root, socket.gaierror)


def connection_reason(exc: BaseException) -> str:
    """A short human reason for a connection failure."""
    root = root_cause(exc)
    if isinstance(root, ConnectionRefusedError):
        return "connection refused"
    if isinstance(root, socket.gaierror):
        return "host name not resolved"
    text = str(root) or type(root).__name__
    return re.sub(r"^\[Errno -?\d+\]\s*", "", text).lower()


def retry_after(exc: openai.APIStatusError) -> float | None:
    """Seconds the server asked us to wait (Retry-After / retry-after-ms), if given."""
    headers = getattr(exc.response, "headers", None) or {}
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, min(float(value) / scale, MAX_RETRY_AFTER_S))
        except ValueError:
            continue
    return None


def server_message(exc: openai.APIStatusError) -> str:
    """The error message the server sent."""
    body = exc.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            return str(inner.get("message") or inner.get("detail") or inner)
        return str(inner)
    if isinstance(body, str) and body.strip():
        return body
    return exc.message


def status_error(exc: openai.APIStatusError, attempt: int, images: bool, *, model: str,
                 endpoint: str, keyless: bool, api_key: str) -> Exception:
    """Map an HTTP error status to a one-line brain error (the key masked in what it quotes)."""
    status = exc.status_code
    said = one_line(server_message(exc), api_key, limit=160)
    if status == 401:
        hint = ": set LVQ_OPENAI_API_KEY or OPENAI_API_KEY" if keyless else ""
        return EndpointAuthError(f"endpoint rejected the API key (401){hint}")
    if status == 403:
        return EndpointAuthError(f"endpoint refused access (403): {said}")
    if status == 404:
        return ModelNotFound(
            f"model {model!r} not found at {endpoint} (404: {said}); "
            "check --model and that the base URL ends in /v1"
        )
    if status in (400, 422) and _TOOLS_UNSUPPORTED.search(said):
        return ToolsUnsupported(f"model {model!r} cannot call tools (server said: {said})")
    if status in (400, 422) and images and _VISION_UNSUPPORTED.search(said):
        return VisionUnsupported(
            f"model {model!r} does not accept image inputs (server said: {said}); "
            "set LVQ_VISION=off"
        )
    if status in RETRY_STATUSES:
        return EndpointFailed(
            f"endpoint {endpoint} kept failing (HTTP {status}) after "
            f"{attempt + 1} attempts: {said}"
        )
    return EndpointFailed(
        f"endpoint {endpoint} refused the request (HTTP {status}): {said}"
    )
