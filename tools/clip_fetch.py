"""Fetching CLIP weights the way the libraries do: huggingface_hub into its standard cache.

The repository and file names come from open_clip (a pretrained tag's `hf_hub` entry, or an
'hf-hub:org/repo' model's open_clip_config.json and weights); `hf_hub_download` writes each file
to a unique '.incomplete' name, checks its size and renames it into the cache (HF_HOME,
HF_HUB_CACHE), with its own progress bar. The endpoint is HF_ENDPOINT (a mirror) when set.
HF_HUB_OFFLINE=1 means nothing is fetched and no socket is opened. Downloaded LFS files are
checked against the sha256 the hub names them by; a file that fails is removed from the cache.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from tools.clip_config import ClipConfig, WeightsUnavailable
from tools.clip_weights import (
    HUB_CONFIG_NAME,
    HUB_WEIGHT_NAMES,
    Weights,
    _builtin_name,
    _checkpoint_path,
    _from_hub_cache,
    _hub_cache_dir,
    hub_weight_names,
    resolve_weights,
)

ENV_OFFLINE = "HF_HUB_OFFLINE"
ENV_ENDPOINT = "HF_ENDPOINT"
_SHA256 = re.compile(r"[0-9a-f]{64}")
_TRUE = {"1", "on", "yes", "true"}
_PROXY_VARS = ("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy")


@dataclass(frozen=True)
class HubSource:
    """Where a model's files are on the hub: the repo, its config file (hf-hub: models) and
    the weight file names open_clip accepts, preferred first."""

    repo: str
    weights: tuple[str, ...]
    config: str | None = None


@dataclass(frozen=True)
class Fetched:
    """The outcome of a fetch: local paths of the model's files, and what was downloaded."""

    repo: str
    paths: tuple[str, ...]
    downloaded: tuple[str, ...]
    bytes: int
    seconds: float


def offline() -> bool:
    """Whether fetching is off: HF_HUB_OFFLINE (or TRANSFORMERS_OFFLINE) now or at hub import."""
    env = os.environ.get(ENV_OFFLINE) or os.environ.get("TRANSFORMERS_OFFLINE") or ""
    if env.strip().lower() in _TRUE:
        return True
    try:
        from huggingface_hub import constants
    except ImportError:
        return True  # no hub client: nothing can be fetched
    return bool(constants.is_offline_mode())


def endpoint() -> str:
    """The hub endpoint files come from: HF_ENDPOINT as set now, else huggingface_hub's default."""
    if os.environ.get(ENV_ENDPOINT):
        return os.environ[ENV_ENDPOINT].rstrip("/")
    from huggingface_hub import constants

    return constants.ENDPOINT


def model_label(cfg: ClipConfig) -> str:
    """How a config's model is named to people: 'ViT-B-32/openai', 'hf-hub:org/repo', or the
    architecture with its checkpoint file."""
    if ":" in cfg.model:
        return cfg.model
    path = _checkpoint_path(cfg.pretrained)
    return f"{cfg.model} (file {path})" if path is not None else f"{cfg.model}/{cfg.pretrained}"


def hub_source(cfg: ClipConfig) -> HubSource | None:
    """The hub files holding cfg's weights; None when they are a local file or folder."""
    if cfg.model.startswith("hf-hub:"):
        repo = cfg.model.removeprefix("hf-hub:").strip("/")
        return HubSource(repo, HUB_WEIGHT_NAMES, HUB_CONFIG_NAME)
    if cfg.model.startswith("local-dir:") or _checkpoint_path(cfg.pretrained) is not None:
        return None
    name = _builtin_name(cfg)
    import open_clip

    tag_cfg = open_clip.get_pretrained_cfg(name, cfg.pretrained)
    if not tag_cfg.get("hf_hub"):
        return None  # an unknown tag: resolve_weights names the valid ones
    repo, names = hub_weight_names(tag_cfg["hf_hub"])
    return HubSource(repo, names)


def ensure_weights(cfg: ClipConfig, progress: bool = True) -> Weights:
    """cfg's weights on local disk, fetched from the hub first when missing and allowed."""
    try:
        return resolve_weights(cfg)
    except WeightsUnavailable as exc:
        missing = exc
    if hub_source(cfg) is None:
        raise missing
    if offline():
        raise WeightsUnavailable(f"{missing}; {ENV_OFFLINE} is set, so nothing was fetched")
    fetch(cfg, progress=progress)
    return resolve_weights(cfg)


def fetch(cfg: ClipConfig, progress: bool = True, force: bool = False) -> Fetched:
    """Download cfg's files into the hub cache (only the missing ones unless `force`)."""
    src = hub_source(cfg)
    if src is None:
        raise WeightsUnavailable(f"{model_label(cfg)} is a local file, not on the hub")
    if offline():
        raise WeightsUnavailable(
            f"{model_label(cfg)} not fetched from {src.repo}: {ENV_OFFLINE} is set"
        )
    start = time.perf_counter()
    paths: list[str] = []
    downloaded: list[str] = []
    groups = ([[src.config]] if src.config else []) + [list(src.weights)]
    if force or any(_from_hub_cache(src.repo, names, cfg.cache_dir) is None for names in groups):
        _require_reachable(cfg)
    try:
        for names in groups:
            path, fresh = _fetch_one(src.repo, names, cfg.cache_dir, progress, force)
            paths.append(path)
            if fresh:
                downloaded.append(path)
    except WeightsUnavailable:
        raise
    except Exception as exc:  # noqa: BLE001 - any hub or network failure is one clear line
        raise WeightsUnavailable(
            f"could not fetch {model_label(cfg)} from {endpoint()} ({src.repo}): {_first_line(exc)}"
            f" (set {ENV_ENDPOINT} for a mirror, or {ENV_OFFLINE}=1 to stop trying)"
        ) from exc
    size = sum(os.path.getsize(p) for p in downloaded)
    return Fetched(src.repo, tuple(paths), tuple(downloaded), size, time.perf_counter() - start)


def _require_reachable(cfg: ClipConfig, timeout_s: float = 3.0) -> None:
    """Fail at once when the endpoint's host cannot be reached (no network, unknown name), where
    the hub client would retry for half a minute. Behind a proxy the client is left to try."""
    if any(os.environ.get(k) for k in _PROXY_VARS):
        return
    url = urlsplit(endpoint())
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        socket.create_connection((url.hostname or "", port), timeout=timeout_s).close()
    except OSError as exc:
        raise WeightsUnavailable(
            f"could not fetch {model_label(cfg)}: cannot reach {endpoint()} ({exc}); set "
            f"{ENV_ENDPOINT} for a mirror, or {ENV_OFFLINE}=1 to stop trying"
        ) from exc


def _fetch_one(
    repo: str, names: list[str], cache_dir: str | None, progress: bool, force: bool
) -> tuple[str, bool]:
    """(path, downloaded now) of the first of `names` the repo has; cached ones are not asked
    for again. A name the hub does not have moves on to the next one, any other error stops."""
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import RemoteEntryNotFoundError
    from huggingface_hub.utils.tqdm import silent_tqdm

    if not force:
        hit = _from_hub_cache(repo, names, cache_dir)
        if hit is not None:
            return hit, False
    for name in names:
        try:
            path = hf_hub_download(
                repo,
                name,
                cache_dir=cache_dir,
                force_download=force,
                endpoint=endpoint(),
                tqdm_class=None if progress else silent_tqdm,
                library_name="open_clip",
            )
        except RemoteEntryNotFoundError:
            continue
        verify_download(path)
        return path, True
    raise WeightsUnavailable(f"{repo} at {endpoint()} has none of {', '.join(names)}")


def verify_download(path: str) -> None:
    """Check a cached file against the sha256 its blob is named by (LFS files); remove the file
    from the cache and raise WeightsUnavailable when it does not match."""
    blob = os.path.realpath(path)
    want = os.path.basename(blob)
    if not _SHA256.fullmatch(want):
        return  # a small git file, named by its git hash: the size check is what there is
    digest = hashlib.sha256()
    with open(blob, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != want:
        discard([path])
        raise WeightsUnavailable(
            f"downloaded {os.path.basename(path)} does not match its sha256 {want[:12]}...: removed"
        )


def discard(paths: list[str] | tuple[str, ...]) -> None:
    """Remove cached files (the snapshot entry and the blob it points to) so none is loaded."""
    for path in paths:
        blob = os.path.realpath(path)
        for p in {path, blob}:
            try:
                os.remove(p)
            except FileNotFoundError:
                pass


def hub_cache_root(cfg: ClipConfig) -> Path:
    """The hub cache folder cfg's models go to (LVQ_CLIP_CACHE_DIR, HF_HUB_CACHE or HF_HOME)."""
    return Path(_hub_cache_dir(cfg.cache_dir))


def _first_line(exc: BaseException) -> str:
    """The first line of an error, with its cause's (the hub wraps network errors)."""
    text = str(exc).strip()
    line = (text.splitlines()[0] if text else type(exc).__name__)[:200]
    cause = exc.__cause__
    if cause is not None and str(cause).strip():
        line += f" [{type(cause).__name__}: {str(cause).strip().splitlines()[0][:150]}]"
    return line
