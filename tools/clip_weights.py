"""Finding CLIP weights on local disk (hub cache, URL cache, checkpoint file or folder), offline."""

from __future__ import annotations

import difflib
import hashlib
import importlib.util
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tools.clip_config import ClipConfig, ClipError, UnknownModel, WeightsUnavailable
from tools.clip_extra import extra_status

# open_clip's file names for weights on the hub and in 'local-dir:' folders, preferred first.
HUB_WEIGHT_NAMES = ("open_clip_model.safetensors", "open_clip_pytorch_model.bin")
HUB_CONFIG_NAME = "open_clip_config.json"
_URL_CACHE_DIR = os.path.expanduser("~/.cache/clip")  # open_clip's download folder for URLs
_CHECKPOINT_SUFFIXES = (".safetensors", ".bin", ".pth", ".pt", ".ckpt", ".npz")


@dataclass(frozen=True)
class Weights:
    """Where a config's weights are on disk and how open_clip must be asked to load them."""

    model: str
    path: str | None
    weights_id: str
    source: str
    quick_gelu: bool = False
    preprocess: dict[str, Any] = field(default_factory=dict)


def clip_status(cfg: ClipConfig, quick: bool = False) -> tuple[bool, str]:
    """(True, where the weights are) or (False, one-line reason). Reads local disk only.

    quick=True skips what needs open_clip imported (seconds): a pretrained tag then counts as
    available when a weights cache exists, and is checked in full when the model loads."""
    if (no_extra := extra_status()) is not None:
        return False, no_extra
    try:
        if quick and _tag_needs_import(cfg):
            name = _builtin_name(cfg)
            _require_some_cache(name, cfg)
            return True, f"{name}/{cfg.pretrained}: a weights cache exists (checked on loading)"
        weights = resolve_weights(cfg)
    except ClipError as exc:
        return False, str(exc)
    return True, f"{cfg.model} weights from {weights.source}"


def _tag_needs_import(cfg: ClipConfig) -> bool:
    """Whether checking cfg needs open_clip's tag registry, and open_clip is not yet imported."""
    return (
        ":" not in cfg.model
        and _checkpoint_path(cfg.pretrained) is None
        and "open_clip" not in sys.modules
    )


def resolve_weights(cfg: ClipConfig) -> Weights:
    """Find cfg's weights on local disk; raise UnknownModel or WeightsUnavailable otherwise."""
    if cfg.model.startswith("local-dir:"):
        return _resolve_local_dir(cfg.model)
    if cfg.model.startswith("hf-hub:"):
        return _resolve_hub_model(cfg.model, cfg.cache_dir)
    return _resolve_builtin(cfg)


def weights_identity(cfg: ClipConfig) -> str:
    """A short id of cfg's weights stored with an index (a tag, or a content hash of a file)."""
    if cfg.model.startswith("local-dir:"):
        ckpt = _find_checkpoint(Path(cfg.model.removeprefix("local-dir:")))
        return file_identity(ckpt) if ckpt else f"dir:{cfg.model}"
    if cfg.model.startswith("hf-hub:"):
        return f"hub:{cfg.model.removeprefix('hf-hub:')}"
    path = _checkpoint_path(cfg.pretrained)
    if path is not None and path.is_file():
        return file_identity(path)
    return f"tag:{cfg.pretrained.lower().replace('-', '_')}"


def _checkpoint_path(pretrained: str) -> Path | None:
    """`pretrained` as a file path when it looks like one (a separator or a checkpoint suffix);
    a bare word such as "openai" is a tag even if a file of that name happens to exist."""
    path = Path(pretrained).expanduser()
    if os.sep in pretrained or pretrained.startswith("~") or path.suffix in _CHECKPOINT_SUFFIXES:
        return path
    return None


def model_key(name: str) -> str:
    """open_clip's own spelling of a built-in model name ('/' becomes '-')."""
    return name if ":" in name else name.replace("/", "-")


_FILE_IDS: dict[tuple[str, int, int], str] = {}


def file_identity(path: Path) -> str:
    """Content id of a checkpoint: sha256 of its size, first and last MiB (cheap when large)."""
    path = Path(path).resolve()
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if key not in _FILE_IDS:
        digest = hashlib.sha256(str(stat.st_size).encode())
        with open(path, "rb") as fh:
            digest.update(fh.read(1 << 20))
            fh.seek(max(0, stat.st_size - (1 << 20)))
            digest.update(fh.read(1 << 20))
        _FILE_IDS[key] = f"file:{digest.hexdigest()[:16]}"
    return _FILE_IDS[key]


def _builtin_name(cfg: ClipConfig) -> str:
    """cfg.model as an open_clip architecture name; UnknownModel listing close ones if not."""
    name = model_key(cfg.model)
    names = _builtin_model_names()
    if name not in names:
        near = difflib.get_close_matches(name, names, n=8, cutoff=0.5)
        raise UnknownModel(
            f"unknown CLIP model {cfg.model!r}; close matches: {', '.join(near) or 'none'} "
            "(all names: open_clip.list_models())"
        )
    return name


def _resolve_builtin(cfg: ClipConfig) -> Weights:
    name = _builtin_name(cfg)
    path = _checkpoint_path(cfg.pretrained)
    if path is not None:
        if not path.is_file():
            raise WeightsUnavailable(f"CLIP checkpoint file not found: {path}")
        return Weights(name, str(path.resolve()), file_identity(path), f"file {path}")
    if "open_clip" not in sys.modules:  # importing it costs seconds: first see if any cache exists
        _require_some_cache(name, cfg)
    import open_clip

    tag_cfg = open_clip.get_pretrained_cfg(name, cfg.pretrained)
    if not tag_cfg:
        tags = open_clip.list_pretrained_tags_by_model(name)
        raise UnknownModel(
            f"unknown pretrained tag {cfg.pretrained!r} for {name}; valid tags: "
            f"{', '.join(tags) or 'none'}; or give a checkpoint file path"
        )
    found, looked = _cached_tag_file(tag_cfg, cfg.cache_dir)
    if found is None:
        raise WeightsUnavailable(
            f"no local weights for {name}/{cfg.pretrained} (looked in {'; '.join(looked)})"
        )
    return Weights(
        model=name,
        path=found,
        weights_id=weights_identity(cfg),
        source=f"cache file {found}",
        quick_gelu=bool(tag_cfg.get("quick_gelu", False)),
        preprocess=_tag_preprocess(tag_cfg),
    )


def _builtin_model_names() -> list[str]:
    """open_clip's architecture names, read from its config folder unless it is imported."""
    if "open_clip" in sys.modules:
        return sys.modules["open_clip"].list_models()
    spec = importlib.util.find_spec("open_clip")
    if spec is None or spec.origin is None:
        raise WeightsUnavailable("open_clip is not installed (pip install open_clip_torch)")
    return sorted(p.stem for p in (Path(spec.origin).parent / "model_configs").glob("*.json"))


def _require_some_cache(name: str, cfg: ClipConfig) -> None:
    """Raise WeightsUnavailable when no folder exists where a tag's weights could be cached."""
    hub, url_dir = _hub_cache_dir(cfg.cache_dir), cfg.cache_dir or _URL_CACHE_DIR
    if not os.path.isdir(hub) and not os.path.isdir(url_dir):
        raise WeightsUnavailable(
            f"no local weights for {name}/{cfg.pretrained} (no Hugging Face cache at {hub}, "
            f"no {url_dir})"
        )


def _tag_preprocess(tag_cfg: Mapping[str, Any]) -> dict[str, Any]:
    """The image-preprocessing overrides a pretrained tag implies, as create_model kwargs."""
    keys = {
        "mean": "image_mean",
        "std": "image_std",
        "interpolation": "image_interpolation",
        "resize_mode": "image_resize_mode",
    }
    return {kw: tag_cfg[k] for k, kw in keys.items() if k in tag_cfg}


def _hub_cache_dir(cache_dir: str | None) -> str:
    if cache_dir:
        return cache_dir
    from huggingface_hub import constants

    return str(constants.HF_HUB_CACHE)


def _from_hub_cache(repo: str, names: Sequence[str], cache_dir: str | None) -> str | None:
    """Path of the first of `names` cached for `repo`, or None. Never touches the network."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return None
    for name in names:
        hit = try_to_load_from_cache(repo, name, cache_dir=cache_dir)
        if isinstance(hit, str) and os.path.isfile(hit):
            return hit
    return None


def hub_weight_names(hf_hub: str) -> tuple[str, tuple[str, ...]]:
    """A tag's 'org/repo/[file]' hub entry -> (repo, weight file names open_clip tries, in order):
    the safetensors twin of a .bin/.pth file first, as open_clip's download_pretrained_from_hf."""
    repo, filename = os.path.split(hf_hub)
    if not filename:
        return repo, HUB_WEIGHT_NAMES
    stem, ext = os.path.splitext(filename)
    return repo, (stem + ".safetensors", filename) if ext in (".bin", ".pth") else (filename,)


def _cached_tag_file(tag_cfg: Mapping[str, Any], cache_dir: str | None) -> tuple[str | None, list]:
    """Find a tag's weights where open_clip would have downloaded them: (path or None, places)."""
    looked: list[str] = []
    if tag_cfg.get("file"):
        if os.path.isfile(tag_cfg["file"]):
            return tag_cfg["file"], looked
        looked.append(f"file {tag_cfg['file']}")
    hub = tag_cfg.get("hf_hub", "")
    if hub:
        repo, names = hub_weight_names(hub)
        hit = _from_hub_cache(repo, names, cache_dir)
        if hit:
            return hit, looked
        looked.append(f"Hugging Face cache {_hub_cache_dir(cache_dir)} for {repo}")
    url = tag_cfg.get("url", "")
    if url:
        url_dir = cache_dir or _URL_CACHE_DIR
        target = os.path.join(url_dir, os.path.basename(url))
        if os.path.isfile(target):
            return target, looked
        looked.append(f"{url_dir} for {os.path.basename(url)}")
    return None, looked


def _find_checkpoint(directory: Path) -> Path | None:
    """The checkpoint open_clip's 'local-dir:' loader would pick in `directory` (or None)."""
    preferred = (
        "open_clip_model.safetensors",
        "open_clip_pytorch_model.safetensors",
        "open_clip_pytorch_model.bin",
        "open_clip_pytorch_model.pth",
        "model.safetensors",
        "pytorch_model.bin",
        "pytorch_model.pth",
        "model.pth",
    )
    for name in preferred:
        if (directory / name).is_file():
            return directory / name
    found = sorted(p for ext in ("safetensors", "bin", "pth") for p in directory.glob(f"*.{ext}"))
    return found[0] if found else None


def _resolve_local_dir(model: str) -> Weights:
    directory = Path(model.removeprefix("local-dir:")).expanduser()
    if not (directory / "open_clip_config.json").is_file():
        raise WeightsUnavailable(f"no open_clip_config.json in CLIP model folder {directory}")
    ckpt = _find_checkpoint(directory)
    if ckpt is None:
        raise WeightsUnavailable(f"no checkpoint (*.safetensors/*.bin/*.pth) in {directory}")
    return Weights(f"local-dir:{directory}", None, file_identity(ckpt), f"folder {directory}")


def _resolve_hub_model(model: str, cache_dir: str | None) -> Weights:
    """A cached hub model becomes a 'local-dir:' of its snapshot, so loading needs no network."""
    repo = model.removeprefix("hf-hub:")
    config = _from_hub_cache(repo, [HUB_CONFIG_NAME], cache_dir)
    weights = _from_hub_cache(repo, HUB_WEIGHT_NAMES, cache_dir)
    if config is None or weights is None:
        raise WeightsUnavailable(
            f"{repo} is not in the Hugging Face cache {_hub_cache_dir(cache_dir)}"
        )
    snapshot = os.path.dirname(config)
    return Weights(f"local-dir:{snapshot}", None, f"hub:{repo}", f"Hugging Face cache {snapshot}")
