"""Provenance of a benchmark run, stored in its summary JSON (as lmms-eval's results JSON does):
versions, git commit, prompt hashes, brain settings, host, wall time and the command line.

Secrets never enter it: the endpoint is kept as its host only, and the value of any key-like
flag on the command line is masked (and known key values are scrubbed).
"""

from __future__ import annotations

import hashlib
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from importlib import metadata, resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

if TYPE_CHECKING:
    from bench.runner import RunConfig

PROVENANCE_VERSION = 1
MASK = "***"
_SECRET_FLAG = re.compile(r"^--?[\w-]*(key|token|secret|password|passwd|auth)[\w-]*$",
                          re.IGNORECASE)
# Settings that make two runs' numbers comparable; a difference draws a warning in compare.
SHARED_SETTINGS: tuple[str, ...] = ("package_version", "git_commit", "analyzer_version",
                                    "events_version", "prompts", "judge_model", "open_scoring")
TRACK_SETTINGS: dict[str, tuple[str, ...]] = {
    "uniform": ("frames", "sends"), "agent": ("max_steps",)}
BRAIN_SETTINGS: tuple[str, ...] = ("model", "base_url_host")


def mask_argv(argv: Sequence[str]) -> list[str]:
    """The command line with the value of every --api-key-like flag replaced by ***."""
    from agent.brains.redact import scrub

    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append(MASK)
            hide_next = False
            continue
        flag, eq, _ = arg.partition("=")
        if _SECRET_FLAG.match(flag):
            if eq:
                out.append(f"{flag}={MASK}")
            else:
                out.append(arg)
                hide_next = True
            continue
        out.append(scrub(arg))
    return out


def url_host(url: str | None) -> str | None:
    """The host (and port) of an endpoint URL, nothing else: no scheme, path, user or query."""
    if not url:
        return None
    parsed = urlparse(url if "//" in url else f"//{url}")
    host = parsed.hostname
    if not host:
        return None
    return f"{host}:{parsed.port}" if parsed.port else host


def git_commit(where: Path | None = None) -> str | None:
    """The checkout's commit (with "-dirty" when files changed), None outside git or on error."""
    cwd = where or Path(__file__).resolve().parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True,
                              text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=cwd, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return f"{head}-dirty" if head and dirty else head or None


def prompt_hashes() -> dict[str, str]:
    """sha256 of every file in prompts/, by file name."""
    out: dict[str, str] = {}
    for entry in sorted(resources.files("prompts").iterdir(), key=lambda e: e.name):
        if entry.is_file() and not entry.name.startswith(("_", ".")):
            out[entry.name] = hashlib.sha256(entry.read_bytes()).hexdigest()
    return out


def file_sha256(path: str | os.PathLike[str]) -> str | None:
    """sha256 of a file's bytes (None when unreadable)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def package_version() -> str:
    """The installed lvq-agent version, else the one pyproject.toml names."""
    try:
        return metadata.version("lvq-agent")
    except metadata.PackageNotFoundError:
        text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
        m = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
        return m.group(1) if m else "unknown"


def _brain_settings(cfg: RunConfig) -> dict[str, Any]:
    if cfg.brain != "openai":
        return {"model": cfg.model, "base_url_host": None, "timeout_s": None}
    from agent.brains import settings
    from agent.brains.openai_brain import DEFAULT_BASE_URL
    from tools.errors import LvqError

    env = os.environ
    url = (cfg.base_url or env.get("LVQ_OPENAI_BASE_URL") or env.get("OPENAI_BASE_URL")
           or DEFAULT_BASE_URL)
    try:
        timeout: float | None = settings.timeout_s()
    except LvqError:
        timeout = None
    return {"model": cfg.model or env.get("LVQ_OPENAI_MODEL"), "base_url_host": url_host(url),
            "timeout_s": timeout}


def collect(cfg: RunConfig, *, wall_s: float, items_path: str | os.PathLike[str] | None = None,
            argv: Sequence[str] | None = None) -> dict[str, Any]:
    """The provenance block of a run's summary JSON."""
    import tools

    return {
        "v": PROVENANCE_VERSION,
        "package": "lvq-agent", "package_version": package_version(),
        "analyzer_version": tools.ANALYZER_VERSION, "events_version": tools.EVENTS_VERSION,
        "git_commit": git_commit(),
        "prompts": prompt_hashes(),
        "track": cfg.track, "brain": cfg.brain, **_brain_settings(cfg),
        "max_steps": cfg.max_steps if cfg.track == "agent" else None,
        "frames": cfg.frames if cfg.track == "uniform" else None,
        "sends": cfg.sends, "judge_model": cfg.judge_model, "open_scoring": cfg.open_scoring,
        "items_file": str(items_path) if items_path else None,
        "items_sha256": file_sha256(items_path) if items_path else None,
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "host": {"cpu": platform.processor() or platform.machine(), "cpu_count": os.cpu_count(),
                 "platform": platform.platform(), "python": platform.python_version()},
        "wall_s": round(wall_s, 2),
        "command": mask_argv(sys.argv if argv is None else argv),
    }


def setting_differences(a: dict[str, Any] | None, b: dict[str, Any] | None) -> list[str]:
    """Settings two runs' provenance blocks disagree on ("frames: 32 vs 16"), where they
    apply to both (track-specific ones when both runs are on that track)."""
    if not a or not b:
        return []
    keys = list(SHARED_SETTINGS)
    if a.get("track") == b.get("track"):
        keys += TRACK_SETTINGS.get(a.get("track") or "", ())
        if a.get("brain") == b.get("brain"):
            keys += BRAIN_SETTINGS
    out = []
    for k in keys:
        x, y = a.get(k), b.get(k)
        if x != y:
            if isinstance(x, dict) and isinstance(y, dict):
                names = sorted(n for n in set(x) | set(y) if x.get(n) != y.get(n))
                out.append(f"{k}: {', '.join(names)} differ")
            else:
                out.append(f"{k}: {x} vs {y}")
    return out
