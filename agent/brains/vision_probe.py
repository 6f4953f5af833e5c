"""Whether a model accepts images: asked once of the endpoint, remembered per endpoint + model.

The probe sends an 8x8 PNG with a one-line question. A 200 answer means images are accepted;
a 400/415/422, or an error that speaks of images, vision or multimodal input, means they are
not. Other failures (unreachable, 401, 404) are the endpoint's problem and are not
remembered. Verdicts live in ``vision.json`` under the user cache directory, written atomically.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import re
import struct
import tempfile
import time
import zlib
from functools import cache
from pathlib import Path
from typing import Any

from tools.cache import default_cache_dir

log = logging.getLogger(__name__)

CACHE_FILE = "vision.json"
PROBE_QUESTION = "What colour is this image? Answer with one word."
REJECT_STATUSES = frozenset({400, 415, 422})
SPEAKS_OF_IMAGES = re.compile(r"image|vision|multi-?modal|mmproj", re.IGNORECASE)


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC."""
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


@cache
def tiny_png(side: int = 8, rgb: tuple[int, int, int] = (220, 30, 30)) -> str:
    """A data URL of a side x side PNG filled with one colour (red by default)."""
    row = b"\x00" + bytes(rgb) * side  # filter byte 0, then RGB pixels
    png = (b"\x89PNG\r\n\x1a\n"
           + _chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
           + _chunk(b"IDAT", zlib.compress(row * side))
           + _chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def probe_messages() -> list[dict[str, Any]]:
    """The probe request's messages: one user turn with the question and the tiny image."""
    parts = [{"type": "text", "text": PROBE_QUESTION},
             {"type": "image_url", "image_url": {"url": tiny_png()}}]
    return [{"role": "user", "content": parts}]


def rejects_images(status: int | None, message: str) -> bool:
    """Whether an error answer to the probe means "no images" (not "endpoint broken")."""
    if status in REJECT_STATUSES:
        return True
    return status is not None and bool(SPEAKS_OF_IMAGES.search(message or ""))


# ---------------------------------------------------------------- the verdict cache


def cache_path() -> Path:
    """$LVQ_VISION_CACHE, else vision.json in the user cache directory (tools.cache)."""
    env = os.environ.get("LVQ_VISION_CACHE", "").strip()
    return Path(env).expanduser() if env else default_cache_dir() / CACHE_FILE


def cache_key(endpoint: str, model: str) -> str:
    """The cache entry name: the endpoint as shown (no credentials) and the model."""
    return f"{endpoint.rstrip('/')} {model}"


def _read(path: Path) -> dict[str, Any]:
    """The cache file's entries ({} when missing or unreadable)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def cached(endpoint: str, model: str, path: Path | None = None) -> bool | None:
    """The remembered verdict for this endpoint and model, or None when never asked."""
    entry = _read(path or cache_path()).get(cache_key(endpoint, model))
    value = entry.get("accepts_images") if isinstance(entry, dict) else None
    return value if isinstance(value, bool) else None


def remember(endpoint: str, model: str, accepts: bool, said: str = "",
             path: Path | None = None) -> None:
    """Store a verdict (read, merge, write to a temporary file, rename); failures only logged."""
    path = path or cache_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        entries = _read(path)
        entries[cache_key(endpoint, model)] = {
            "accepts_images": accepts, "said": said[:200],
            "checked": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        fd, tmp = tempfile.mkstemp(prefix=".vision.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entries, fh, indent=1, sort_keys=True)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        log.warning("could not remember the vision verdict in %s: %s", path, exc)
