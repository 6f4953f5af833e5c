"""OpenAI chat messages: LangChain messages out (tool images in a user message after the
tool results), chat completions in (structured tool calls, or tool calls written as text)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from agent.brains import redact
from agent.brains.base import ERROR_KEY
from agent.brains.errors import InvalidResponse

MESSAGE_LIMIT = 240


def one_line(text: str, secret: str | None = None, limit: int = MESSAGE_LIMIT) -> str:
    """Collapse whitespace, mask ``secret`` and known keys, truncate: for errors and logs."""
    text = " ".join(str(text).split())
    if secret and secret != "none":
        text = text.replace(secret, redact.MASK)
    text = redact.scrub(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _text_of(content: Any) -> str:
    """The text of a message content (a string or a list of content parts)."""
    if isinstance(content, str):
        return content
    texts = []
    for part in content or []:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("type") == "text":
            texts.append(str(part.get("text", "")))
    return "\n".join(t for t in texts if t)


def _image_url(part: Any) -> str | None:
    """The URL (often a data: URL) of an image content part, in OpenAI or LangChain form."""
    if not isinstance(part, dict):
        return None
    if part.get("type") == "image_url":
        ref = part.get("image_url")
        return ref.get("url") if isinstance(ref, dict) else ref
    if part.get("type") == "image":
        if part.get("url"):
            return part["url"]
        data = part.get("base64") or part.get("data")
        if data:
            return f"data:{part.get('mime_type') or 'image/jpeg'};base64,{data}"
    return None


def images_of(content: Any) -> list[str]:
    """Image URLs in a message content."""
    if isinstance(content, str):
        return []
    return [url for url in map(_image_url, content or []) if url]


def _image_parts(urls: Sequence[str]) -> list[dict]:
    """OpenAI ``image_url`` content parts."""
    return [{"type": "image_url", "image_url": {"url": url}} for url in urls]


# ----------------------------------------------------------------------------- messages out


def _user_message(msg: HumanMessage, vision: bool) -> dict:
    """A user message; images kept only with vision."""
    if isinstance(msg.content, str):
        return {"role": "user", "content": msg.content}
    text, images = _text_of(msg.content), images_of(msg.content)
    if images and not vision:
        text += f"\n({len(images)} image(s) omitted: this model receives text only)"
    if not (vision and images):
        return {"role": "user", "content": text}
    return {"role": "user", "content": _ordered_parts(msg.content)}


def _ordered_parts(content: Sequence[Any]) -> list[dict]:
    """Text and image parts in their order (adjacent texts joined), e.g. labelled frame groups."""
    out: list[dict] = []
    for part in content:
        url = _image_url(part)
        if url:
            out += _image_parts([url])
            continue
        text = _text_of([part])
        if not text:
            continue
        if out and out[-1]["type"] == "text":
            out[-1]["text"] += "\n" + text
        else:
            out.append({"type": "text", "text": text})
    return out


def _assistant_message(msg: AIMessage) -> dict:
    """An assistant message; tool-call arguments as JSON strings."""
    text = _text_of(msg.content)
    out: dict[str, Any] = {"role": "assistant", "content": text or (None if msg.tool_calls else "")}
    if msg.tool_calls:
        out["tool_calls"] = [
            {
                "id": call["id"],
                "type": "function",
                "function": {"name": call["name"], "arguments": json.dumps(call["args"])},
            }
            for call in msg.tool_calls
        ]
    return out


def _tool_message(msg: ToolMessage, vision: bool) -> tuple[dict, list[str]]:
    """A tool result (text only) and the images to send after it in a user message."""
    text, images = _text_of(msg.content), images_of(msg.content)
    if images and not vision:
        text += f"\n({len(images)} frame image(s) omitted: this model receives measurements only)"
    out = {"role": "tool", "tool_call_id": msg.tool_call_id, "content": text or "{}"}
    return out, images if vision else []


def _frames_message(batches: list[tuple[str, list[str]]]) -> dict:
    """The user message carrying tool images, after the run of tool results it belongs to."""
    parts: list[dict] = []
    for label, urls in batches:
        parts.append({"type": "text", "text": f"Frames from {label} (times in its result above):"})
        parts.extend(_image_parts(urls))
    return {"role": "user", "content": parts}


def _fill_missing_results(out: list[dict], pending: list[str]) -> None:
    """Answer tool calls left without a result, so the endpoint accepts the history."""
    for call_id in pending:
        note = {"error": "tool call not executed"}
        out.append({"role": "tool", "tool_call_id": call_id, "content": json.dumps(note)})
    pending.clear()


def to_openai_messages(messages: Sequence[BaseMessage], vision: bool) -> list[dict]:
    """Convert LangChain messages to OpenAI chat messages (tool images in a user message)."""
    out: list[dict] = []
    pending: list[str] = []  # tool call ids still waiting for a result
    frames: list[tuple[str, list[str]]] = []
    for msg in messages:
        if not isinstance(msg, ToolMessage):
            _fill_missing_results(out, pending)
            if frames:
                out.append(_frames_message(frames))
                frames = []
        if isinstance(msg, ToolMessage):
            converted, images = _tool_message(msg, vision)
            out.append(converted)
            pending = [i for i in pending if i != msg.tool_call_id]
            if images:
                frames.append((msg.name or "the tool", images))
        elif isinstance(msg, AIMessage):
            out.append(_assistant_message(msg))
            pending = [call["id"] for call in msg.tool_calls]
        elif isinstance(msg, SystemMessage):
            out.append({"role": "system", "content": _text_of(msg.content)})
        elif isinstance(msg, HumanMessage):
            out.append(_user_message(msg, vision))
        else:
            out.append({"role": "user", "content": _text_of(msg.content)})
    _fill_missing_results(out, pending)
    if frames:
        out.append(_frames_message(frames))
    return out


def has_images(messages: Sequence[dict]) -> bool:
    """Whether any converted message carries an image part."""
    return any(
        isinstance(m.get("content"), list)
        and any(p.get("type") == "image_url" for p in m["content"])
        for m in messages
    )


# ----------------------------------------------------------------------------- responses in


def parse_arguments(raw: Any) -> dict:
    """Tool-call arguments as a dict; malformed input becomes ``{"__error__": ...}``."""
    if isinstance(raw, dict):
        return raw
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return {}
    try:
        value = json.loads(raw)
        if isinstance(value, str):  # double-encoded by some servers
            value = json.loads(value)
    except (TypeError, ValueError) as exc:
        reason = getattr(exc, "msg", None) or type(exc).__name__
        return {ERROR_KEY: f"malformed arguments: {reason}; got {one_line(str(raw), limit=200)}"}
    if not isinstance(value, dict):
        return {ERROR_KEY: f"malformed arguments: expected a JSON object, got {one_line(raw)}"}
    return value


def _new_id() -> str:
    """A tool-call id for calls the server did not label."""
    return f"call_{uuid.uuid4().hex[:24]}"


def _call_from_json(obj: Any, tool_names: set[str]) -> dict | None:
    """A tool call from a JSON object like {"name", "arguments"|"parameters"} naming a tool."""
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):
        obj = {**obj["function"], "id": obj.get("id")}
    name = obj.get("name")
    if not isinstance(name, str) or name not in tool_names:
        return None
    raw = next((obj[k] for k in ("arguments", "parameters", "args") if k in obj), {})
    return {"name": name, "args": parse_arguments(raw), "id": obj.get("id") or _new_id()}


_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)
_TAGGED = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)
_FENCED = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)


def _json_candidates(text: str) -> list[Any]:
    """JSON values in text: whole, in <tool_call> tags, in code fences, or from the first {."""
    chunks = [text.strip(), *_TAGGED.findall(text), *_FENCED.findall(text)]
    if "{" in text:
        chunks.append(text[text.index("{") :])
    found = []
    decoder = json.JSONDecoder()
    for chunk in chunks:
        chunk = chunk.strip()
        try:
            found.append(decoder.raw_decode(chunk)[0])
        except ValueError:
            continue
    return found


def tool_calls_from_text(text: str, tool_names: set[str]) -> list[dict]:
    """Tool calls a model wrote as JSON text, not as structured tool_calls (llama.cpp, Ollama)."""
    if not text or "{" not in text or not tool_names:
        return []
    for value in _json_candidates(text):
        items = value if isinstance(value, list) else [value]
        calls = [c for c in (_call_from_json(item, tool_names) for item in items) if c]
        if calls:
            return calls
    return []


def _structured_calls(message: Any) -> list[dict]:
    """Tool calls from the completion message (including the legacy function_call)."""
    calls = []
    for call in getattr(message, "tool_calls", None) or []:
        fn = getattr(call, "function", None)
        if fn is None or not getattr(fn, "name", None):
            continue
        calls.append(
            {
                "name": fn.name,
                "args": parse_arguments(fn.arguments),
                "id": getattr(call, "id", None) or _new_id(),
            }
        )
    legacy = getattr(message, "function_call", None)
    if not calls and legacy is not None and getattr(legacy, "name", None):
        args = parse_arguments(legacy.arguments)
        calls.append({"name": legacy.name, "args": args, "id": _new_id()})
    return calls


def usage_of(completion: Any) -> dict | None:
    """LangChain usage metadata from the completion's usage, if reported."""
    usage = getattr(completion, "usage", None)
    if usage is None:
        return None
    inp = int(getattr(usage, "prompt_tokens", 0) or 0)
    outp = int(getattr(usage, "completion_tokens", 0) or 0)
    total = int(getattr(usage, "total_tokens", 0) or 0) or inp + outp
    return {"input_tokens": inp, "output_tokens": outp, "total_tokens": total}


def parse_completion(completion: Any, tool_names: set[str]) -> AIMessage:
    """The AIMessage for a chat completion: tool calls (structured or in text) or plain text."""
    choices = getattr(completion, "choices", None)
    message = getattr(choices[0], "message", None) if choices else None
    if message is None:
        raise InvalidResponse("endpoint returned an invalid response (no choices)")
    content = message.content if isinstance(message.content, str) else ""
    content = _THINK.sub("", content).strip()
    calls = _structured_calls(message)
    if not calls:
        calls = tool_calls_from_text(content, tool_names)
        if calls and content.strip().startswith(("{", "[", "<tool_call>", "```")):
            content = ""
    meta = {
        "model_name": getattr(completion, "model", None),
        "finish_reason": getattr(choices[0], "finish_reason", None),
    }
    return AIMessage(
        content=content or "",
        tool_calls=calls,
        usage_metadata=usage_of(completion),
        response_metadata={k: v for k, v in meta.items() if v is not None},
    )
