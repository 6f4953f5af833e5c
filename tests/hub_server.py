"""A Hugging Face hub look-alike on 127.0.0.1 for download tests: the file endpoints only.

Serves ``HEAD``/``GET /{org}/{repo}/resolve/{revision}/{filename}`` as the hub does for
``huggingface_hub.hf_hub_download``: ``X-Repo-Commit``, ``ETag`` (the sha256 of LFS-sized files,
a git-style sha1 of small ones), ``Content-Length``, byte ranges, and 404s with
``X-Error-Code: RepoNotFound`` / ``EntryNotFound``. Every request is recorded; a file can be set
to break mid-download (half its bytes, then the connection closes; a resumed request gets a 500)
or to be served corrupted (same size, other bytes)::

    with HubServer({"lvq/tiny": {"a.json": b"{}"}}) as hub:
        os.environ["HF_ENDPOINT"] = hub.url
        ...
        assert hub.count("GET") == 1
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LFS_MIN_BYTES = 1024  # files at least this big get a sha256 ETag, as LFS files do on the hub
_PATH = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>[^?]+)")


@dataclass(frozen=True)
class Request:
    """One request the server answered: method, path and the Range header (if any)."""

    method: str
    path: str
    range: str | None


class HubServer:
    """Hub file endpoints over `repos` ({'org/name': {filename: bytes}}) on a free port."""

    def __init__(self, repos: dict[str, dict[str, bytes]]) -> None:
        self.repos = repos
        self.requests: list[Request] = []
        self.breaks: dict[str, str] = {}  # filename -> "cut" or "corrupt"
        self.commit = hashlib.sha1(repr(sorted(repos)).encode()).hexdigest()
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def count(self, method: str | None = None) -> int:
        """Requests answered so far (of one method, or all)."""
        with self._lock:
            return sum(1 for r in self.requests if method in (None, r.method))

    def __enter__(self) -> HubServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @staticmethod
    def etag(data: bytes) -> str:
        """The ETag the hub gives a file: sha256 for LFS files, git blob sha1 for small ones."""
        if len(data) >= LFS_MIN_BYTES:
            return hashlib.sha256(data).hexdigest()
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output quiet
                pass

            def do_HEAD(self) -> None:  # noqa: N802 - http.server's naming
                self._answer(body=False)

            def do_GET(self) -> None:  # noqa: N802
                self._answer(body=True)

            def _answer(self, body: bool) -> None:
                with hub._lock:
                    hub.requests.append(Request(self.command, self.path, self.headers["Range"]))
                match = _PATH.match(self.path)
                if not match or match["repo"] not in hub.repos:
                    return self._error(404, "RepoNotFound", commit=False)
                files = hub.repos[match["repo"]]
                name = match["file"]
                if name not in files:
                    return self._error(404, "EntryNotFound")
                data = files[name]
                mode = hub.breaks.get(name)
                if body and mode == "cut" and self.headers["Range"]:
                    return self._error(500, "")
                start = 0
                if body and self.headers["Range"]:
                    start = int(self.headers["Range"].removeprefix("bytes=").split("-")[0])
                self.send_response(206 if start else 200)
                self.send_header("X-Repo-Commit", hub.commit)
                self.send_header("ETag", f'"{hub.etag(data)}"')
                self.send_header("Accept-Ranges", "bytes")
                self.send_header("Content-Length", str(len(data) - start))
                if start:
                    self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
                self.end_headers()
                if not body:
                    return
                if mode == "corrupt":
                    data = bytes(b ^ 0xFF for b in data[:64]) + data[64:]
                if mode == "cut":
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(data[start:])

            def _error(self, status: int, code: str, commit: bool = True) -> None:
                self.send_response(status)
                if code:
                    self.send_header("X-Error-Code", code)
                if commit:
                    self.send_header("X-Repo-Commit", hub.commit)
                self.send_header("Content-Length", "0")
                self.end_headers()

        return Handler
