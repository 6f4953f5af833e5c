"""A scripted OpenAI-compatible chat server on 127.0.0.1: canned replies, recorded requests.

Serves ``POST /v1/chat/completions`` from a queue of replies (tool calls, text, HTTP errors,
malformed bodies, delays) and ``GET /v1/models``. Every request is recorded (path, headers,
JSON body) so a test can assert what the client sent::

    with ScriptedServer([rate_limited(), tool_call("overview", {})]) as srv:
        client = OpenAI(base_url=srv.url, api_key="none")
        ...
        assert len(srv.chat_requests) == 2
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DEFAULT_USAGE = {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}


@dataclass
class Reply:
    """One canned HTTP reply: status, body (dict -> JSON, bytes/str -> verbatim), headers, delay."""

    status: int = 200
    body: dict | bytes | str = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    drop: bool = False  # close the connection without answering


@dataclass
class Recorded:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]
    body: Any

    @property
    def messages(self) -> list[dict]:
        """The chat messages of a chat-completion request."""
        return (self.body or {}).get("messages", [])


Responder = Reply | Callable[[Recorded], Reply]
_ids = itertools.count(1)


# ----------------------------------------------------------------------------- reply builders


def completion(
    message: dict,
    *,
    finish_reason: str = "stop",
    usage: dict | None = None,
    model: str = "scripted-model",
) -> Reply:
    """A 200 chat completion with one choice carrying ``message``."""
    body = {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": DEFAULT_USAGE if usage is None else usage,
    }
    return Reply(body=body)


def text(content: str, **kw: Any) -> Reply:
    """The assistant answers in plain text (no tool call)."""
    return completion({"role": "assistant", "content": content}, **kw)


def tool_calls(calls: Iterable[tuple[str, dict | str]], **kw: Any) -> Reply:
    """The assistant calls tools; a ``str`` argument is sent verbatim (e.g. malformed JSON)."""
    items = [
        {
            "id": f"call_{next(_ids)}",
            "type": "function",
            "function": {
                "name": name,
                "arguments": args if isinstance(args, str) else json.dumps(args),
            },
        }
        for name, args in calls
    ]
    msg = {"role": "assistant", "content": None, "tool_calls": items}
    return completion(msg, finish_reason="tool_calls", **kw)


def tool_call(name: str, args: dict | str, **kw: Any) -> Reply:
    """The assistant calls one tool."""
    return tool_calls([(name, args)], **kw)


def error(status: int, message: str, *, headers: dict | None = None, delay_s: float = 0.0) -> Reply:
    """An OpenAI-style error body with the given HTTP status."""
    body = {"error": {"message": message, "type": "scripted_error", "code": str(status)}}
    return Reply(status=status, body=body, headers=dict(headers or {}), delay_s=delay_s)


def rate_limited(retry_after: float | None = 0.0) -> Reply:
    """A 429, with a Retry-After header unless ``retry_after`` is None."""
    headers = {} if retry_after is None else {"Retry-After": f"{retry_after:g}"}
    return error(429, "Rate limit reached (scripted)", headers=headers)


def garbage(body: str = "<html>not json</html>", content_type: str = "text/html") -> Reply:
    """A 200 whose body is not a chat completion."""
    return Reply(body=body, headers={"Content-Type": content_type})


def delayed(reply: Reply, seconds: float) -> Reply:
    """The same reply, sent after ``seconds`` (to provoke client timeouts)."""
    return Reply(reply.status, reply.body, dict(reply.headers), seconds, reply.drop)


def disconnect() -> Reply:
    """Close the connection without any HTTP answer (a crashed or restarting server)."""
    return Reply(drop=True)


# ----------------------------------------------------------------------------- the server


class ScriptedServer:
    """OpenAI-compatible HTTP server on 127.0.0.1 (port 0) answering from a script."""

    def __init__(
        self, script: Iterable[Responder] = (), models: Iterable[str] = ("scripted-model",)
    ) -> None:
        self.script: list[Responder] = list(script)
        self.models = list(models)
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Base URL for an OpenAI client, ending in /v1."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    @property
    def chat_requests(self) -> list[Recorded]:
        """Recorded chat-completion requests, in order."""
        return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def push(self, *replies: Responder) -> None:
        """Append replies to the script."""
        with self._lock:
            self.script.extend(replies)

    def start(self) -> ScriptedServer:
        """Serve in a daemon thread."""
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def next_reply(self, request: Recorded) -> Reply:
        """Record ``request`` and pop the next scripted reply (a 400 when the script is empty)."""
        with self._lock:
            self.requests.append(request)
            step = self.script.pop(0) if self.script else None
        if step is None:
            return error(400, "scripted server: script exhausted")
        return step(request) if callable(step) else step

    def models_reply(self, request: Recorded) -> Reply:
        """The ``GET /v1/models`` listing."""
        with self._lock:
            self.requests.append(request)
        data = [{"id": m, "object": "model", "created": 0, "owned_by": "test"} for m in self.models]
        return Reply(body={"object": "list", "data": data})


def _handler_for(server: ScriptedServer) -> type[BaseHTTPRequestHandler]:
    """A request-handler class bound to ``server``."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:  # keep test output quiet
            pass

        def _record(self, body: Any) -> Recorded:
            headers = {k.lower(): v for k, v in self.headers.items()}
            return Recorded(self.command, self.path, headers, body)

        def do_GET(self) -> None:  # noqa: N802
            if self.path.rstrip("/").endswith("/models"):
                self._send(server.models_reply(self._record(None)))
            else:
                self._send(error(404, f"no route {self.path}"))

        def do_POST(self) -> None:  # noqa: N802
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            try:
                body: Any = json.loads(raw or b"null")
            except ValueError:
                body = raw.decode("utf-8", "replace")
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(error(404, f"no route {self.path}"))
                return
            self._send(server.next_reply(self._record(body)))

        def _send(self, reply: Reply) -> None:
            if reply.delay_s:
                time.sleep(reply.delay_s)
            if reply.drop:
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)
                return
            if isinstance(reply.body, dict):
                data = json.dumps(reply.body).encode()
                ctype = "application/json"
            else:
                data = reply.body.encode() if isinstance(reply.body, str) else reply.body
                ctype = "text/plain"
            headers = {"Content-Type": ctype, **reply.headers}
            try:
                self.send_response(reply.status)
                for key, value in headers.items():
                    self.send_header(key, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # client gave up (timeout test)
                pass

    return Handler
