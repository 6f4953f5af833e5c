"""CLIP model loading for frame retrieval: config -> open_clip model and tokenizer.

Weights are looked for on local disk before anything is loaded (Hugging Face hub cache, open_clip's
URL cache, or a checkpoint file), so a machine without them gets a one-line reason at once instead
of a network time-out. torch and open_clip are imported lazily: importing open_clip costs seconds.
"""

from __future__ import annotations

import difflib
import functools
import hashlib
import importlib.util
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ENV_MODEL = "LVQ_CLIP_MODEL"
ENV_PRETRAINED = "LVQ_CLIP_PRETRAINED"
ENV_INTERVAL = "LVQ_CLIP_INTERVAL"
ENV_BUDGET = "LVQ_CLIP_BUDGET"
ENV_CACHE_DIR = "LVQ_CLIP_CACHE_DIR"
ENV_PRECISION = "LVQ_CLIP_PRECISION"
PRECISIONS = ("auto", "fp32", "bf16")

ENABLE_HINT = (
    "to enable it, run `agent models pull` (or leave HF_HUB_OFFLINE unset: the weights are "
    f"fetched on first use), or set {ENV_PRETRAINED} to a checkpoint file (and {ENV_MODEL} to "
    "its architecture)"
)

# What the [clip] extra installs; retrieval is off, with this said, when any is missing.
CLIP_MODULES = ("torch", "open_clip", "faiss")
EXTRA_MISSING = "the [clip] extra is not installed (pip install 'lvq-agent[clip]')"


def missing_clip_modules() -> list[str]:
    """The [clip] extra's modules that are not installed here (looked up, never imported)."""
    missing = []
    for name in CLIP_MODULES:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # blocked, or a broken half-install
            found = False
        if not found:
            missing.append(name)
    return missing


def extra_status() -> str | None:
    """None when the [clip] extra is installed, else the one-line reason retrieval is off."""
    missing = missing_clip_modules()
    return f"{EXTRA_MISSING}: no {', '.join(missing)}" if missing else None


# open_clip's file names for weights on the hub and in 'local-dir:' folders, preferred first.
HUB_WEIGHT_NAMES = ("open_clip_model.safetensors", "open_clip_pytorch_model.bin")
HUB_CONFIG_NAME = "open_clip_config.json"
_URL_CACHE_DIR = os.path.expanduser("~/.cache/clip")  # open_clip's download folder for URLs
_CHECKPOINT_SUFFIXES = (".safetensors", ".bin", ".pth", ".pt", ".ckpt", ".npz")


class ClipError(ValueError):
    """Base of every CLIP retrieval error; messages are one line."""


class UnknownModel(ClipError):
    """The model name or pretrained tag is not one open_clip knows; the message lists choices."""


class WeightsUnavailable(ClipError):
    """The weights are not on this machine or could not be loaded."""


@dataclass(frozen=True)
class ClipConfig:
    """Which CLIP model to use and how densely to sample frames for it.

    `pretrained` is an open_clip tag ("openai") or a checkpoint file path. `time_budget` caps the
    embedding cost as a fraction of the rest of the index pass (the interval widens to stay under
    it); None keeps the interval fixed. `precision` of the image tower: "auto" is bfloat16 on CPUs
    with native bf16 matrix units (4x faster here, cosine 0.9999 to fp32), else "fp32". `threads`
    is torch's CPU thread count; None picks the idle cores at each call (and at most half of the
    cores while indexing, as decoding keeps the others busy).
    """

    model: str = "ViT-B-32"
    pretrained: str = "openai"
    interval_s: float = 2.0
    batch_size: int = 16
    time_budget: float | None = 0.25
    cache_dir: str | None = None
    precision: str = "auto"
    threads: int | None = None

    def __post_init__(self) -> None:
        if not self.model:
            raise ClipError("CLIP model name is empty")
        if not self.interval_s > 0:
            raise ClipError(f"CLIP interval_s must be > 0, got {self.interval_s}")
        if self.batch_size < 1:
            raise ClipError(f"CLIP batch_size must be >= 1, got {self.batch_size}")
        if self.precision not in PRECISIONS:
            raise ClipError(f"CLIP precision must be one of {', '.join(PRECISIONS)}")
        if self.time_budget is not None and not self.time_budget > 0:
            raise ClipError(f"CLIP time_budget must be > 0 or None, got {self.time_budget}")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> ClipConfig:
        """Defaults, then LVQ_CLIP_* variables, then `overrides` (e.g. CLI flags; None = unset)."""
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        if env.get(ENV_MODEL):
            values["model"] = env[ENV_MODEL]
        if env.get(ENV_PRETRAINED):
            values["pretrained"] = env[ENV_PRETRAINED]
        if env.get(ENV_INTERVAL):
            values["interval_s"] = _env_float(ENV_INTERVAL, env[ENV_INTERVAL])
        if env.get(ENV_BUDGET):
            raw = env[ENV_BUDGET].strip().lower()
            values["time_budget"] = (
                None if raw in ("0", "off", "none") else _env_float(ENV_BUDGET, raw)
            )
        if env.get(ENV_CACHE_DIR):
            values["cache_dir"] = env[ENV_CACHE_DIR]
        if env.get(ENV_PRECISION):
            values["precision"] = env[ENV_PRECISION].strip().lower()
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def _env_float(name: str, raw: str) -> float:
    try:
        return float(raw)
    except ValueError:
        raise ClipError(f"{name} must be a number, got {raw!r}") from None


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


def load_clip(
    cfg: ClipConfig, weights: Weights | None = None, threads: int | None = None
) -> ClipModel:
    """Load cfg's model through open_clip.create_model_and_transforms from local files only.

    `threads` (default cfg.threads) is the torch CPU thread count the model computes with."""
    weights = weights or resolve_weights(cfg)
    import open_clip

    try:
        with _hub_offline():
            net, _, reference = open_clip.create_model_and_transforms(
                weights.model,
                pretrained=weights.path,
                force_quick_gelu=weights.quick_gelu,
                cache_dir=cfg.cache_dir,
                **weights.preprocess,
            )
            tokenizer = open_clip.get_tokenizer(weights.model, cache_dir=cfg.cache_dir)
    except Exception as exc:  # a corrupt or mismatched checkpoint must not stop the index
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise WeightsUnavailable(
            f"could not load {cfg.model} weights from {weights.source}: {first[:300]}"
        ) from exc
    name = model_key(cfg.model)
    threads = threads or cfg.threads
    return ClipModel(net, tokenizer, name, weights.weights_id, reference, cfg.precision, threads)


@functools.cache
def _torch_default_threads() -> int:
    import torch

    return torch.get_num_threads()


def auto_threads() -> int:
    """torch threads for one computation: torch's default, fewer while other processes keep
    cores busy (oversubscribed OpenMP threads spin: 2 threads ran 18x slower than 1 at load 25
    on this 2-core machine, and 2x faster when it was idle)."""
    cores = _torch_default_threads()
    try:
        busy = int(os.getloadavg()[0])
    except OSError:
        busy = 0
    return max(1, min(cores, (os.cpu_count() or cores) - busy))


def image_precision(precision: str) -> str:
    """ "fp32" or "bf16" for the image tower; "auto" picks bf16 only where the CPU has native
    bfloat16 matrix instructions (AMX or AVX512-BF16), elsewhere bf16 is slower than fp32."""
    if precision != "auto":
        return precision
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return "fp32"
    return "bf16" if ("amx_bf16" in flags or "avx512_bf16" in flags) else "fp32"


@contextmanager
def _hub_offline() -> Iterator[None]:
    """HF_HUB_OFFLINE=1 while loading: the weights are local, and anything else the loader
    wants from the hub (a tokenizer, a config) must come from the cache or fail at once."""
    try:
        import huggingface_hub.constants as hub_constants
    except ImportError:  # no hub client: nothing can reach the hub
        hub_constants = None
    saved_env = os.environ.get("HF_HUB_OFFLINE")
    saved_flag = getattr(hub_constants, "HF_HUB_OFFLINE", None)
    os.environ["HF_HUB_OFFLINE"] = "1"
    if hub_constants is not None:  # read once at import; the env var alone comes too late
        hub_constants.HF_HUB_OFFLINE = True
    try:
        yield
    finally:
        if hub_constants is not None:
            hub_constants.HF_HUB_OFFLINE = saved_flag
        if saved_env is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = saved_env


class ClipModel:
    """A loaded open_clip model with numpy in/out encoders (L2-normalised float32 rows).

    Frames are prepared with OpenCV (resize, centre crop) instead of open_clip's PIL transform:
    the same geometry and normalisation without a PIL image per frame.
    """

    def __init__(
        self,
        net: Any,
        tokenizer: Any,
        name: str,
        weights_id: str,
        reference: Any = None,
        precision: str = "auto",
        threads: int | None = None,
    ) -> None:
        import open_clip
        import torch

        _torch_default_threads()  # remember torch's own default before anyone changes it
        self.threads = threads
        self.net = net.eval()
        self.precision = image_precision(precision)
        self.image_dtype = torch.bfloat16 if self.precision == "bf16" else torch.float32
        self.net.visual.to(self.image_dtype)
        self.tokenizer = tokenizer
        self.name = name
        self.weights_id = weights_id
        self.reference_transform = reference
        pp = open_clip.get_model_preprocess_cfg(net)
        size = pp.get("size", 224)
        self.size: tuple[int, int] = (size, size) if isinstance(size, int) else tuple(size)
        self.resize_mode: str = pp.get("resize_mode", "shortest")
        self.mean = np.asarray(pp.get("mean", (0.48145466, 0.4578275, 0.40821073)), np.float32)
        self.std = np.asarray(pp.get("std", (0.26862954, 0.26130258, 0.27577711)), np.float32)
        bilinear = pp.get("interpolation") == "bilinear"
        self.upscale = cv2.INTER_LINEAR if bilinear else cv2.INTER_CUBIC
        self.fill = int(pp.get("fill_color", 0))
        self.dim = int(self.encode_prepared(np.zeros((1, *self.size, 3), np.uint8)).shape[1])
        self.trim_text = self._causal_argmax_text()

    def prepare(self, frame_bgr: np.ndarray) -> np.ndarray:
        """BGR uint8 frame -> RGB uint8 model input (H, W, 3), as open_clip's eval transform."""
        th, tw = self.size
        h, w = frame_bgr.shape[:2]
        if self.resize_mode == "squash":
            img = self._resize(frame_bgr, tw, th)
        elif self.resize_mode == "longest":
            scale = min(th / h, tw / w)
            img = self._pad(self._resize(frame_bgr, round(w * scale), round(h * scale)))
        else:  # shortest: torchvision Resize(int) keeps the ratio, floors the long side
            if th == tw:
                short = min(h, w)
                nw, nh = (th, int(th * h / w)) if w == short else (int(th * w / h), th)
            else:
                scale = max(th / h, tw / w)
                nw, nh = max(tw, round(w * scale)), max(th, round(h * scale))
            img = self._crop(self._resize(frame_bgr, nw, nh))
        return cv2.cvtColor(img, cv2.COLOR_BGR2RGB)

    def _resize(self, img: np.ndarray, w: int, h: int) -> np.ndarray:
        if (img.shape[1], img.shape[0]) == (w, h):
            return img
        shrink = w < img.shape[1] or h < img.shape[0]
        return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA if shrink else self.upscale)

    def _crop(self, img: np.ndarray) -> np.ndarray:
        th, tw = self.size
        top = int(round((img.shape[0] - th) / 2.0))
        left = int(round((img.shape[1] - tw) / 2.0))
        return img[top : top + th, left : left + tw]

    def _pad(self, img: np.ndarray) -> np.ndarray:
        th, tw = self.size
        out = np.full((th, tw, 3), self.fill, np.uint8)
        top, left = (th - img.shape[0]) // 2, (tw - img.shape[1]) // 2
        out[top : top + img.shape[0], left : left + img.shape[1]] = img[:th, :tw]
        return out

    def normalise(self, batch_rgb: np.ndarray) -> Any:
        """(n, H, W, 3) uint8 RGB -> (n, 3, H, W) float32 tensor with the model's mean/std."""
        import torch

        x = torch.from_numpy(np.ascontiguousarray(batch_rgb)).permute(0, 3, 1, 2).float()
        x = x.div_(255.0).sub_(torch.from_numpy(self.mean)[:, None, None])
        return x.div_(torch.from_numpy(self.std)[:, None, None])

    def encode_prepared(self, batch_rgb: np.ndarray) -> np.ndarray:
        """Embed prepared frames (n, H, W, 3) uint8 RGB -> (n, dim) L2-normalised float32."""
        import torch

        self._use_threads()
        with torch.inference_mode():
            out = self.net.encode_image(self.normalise(batch_rgb).to(self.image_dtype))
            out = torch.nn.functional.normalize(out.float(), dim=-1)
        return out.numpy()

    def _use_threads(self) -> None:
        """Set torch's thread count for this call: it is per calling thread under OpenMP, and
        the index builder embeds on a reader thread."""
        import torch

        n = self.threads or auto_threads()
        if torch.get_num_threads() != n:
            torch.set_num_threads(n)

    def encode_images(self, frames_bgr: Sequence[np.ndarray]) -> np.ndarray:
        """Embed BGR uint8 frames of any size -> (n, dim) L2-normalised float32."""
        return self.encode_prepared(np.stack([self.prepare(f) for f in frames_bgr]))

    def encode_text(self, texts: Sequence[str]) -> np.ndarray:
        """Embed texts with the text tower -> (n, dim) L2-normalised float32."""
        import torch

        tokens = self.tokenizer(list(texts))
        self._use_threads()
        with torch.inference_mode():
            if self.trim_text:
                out = self._encode_text_prefix(tokens)
            else:
                out = self.net.encode_text(tokens, normalize=True)
        return out.float().numpy()

    def _causal_argmax_text(self) -> bool:
        """Whether the text tower is open_clip's CLIP one: causal mask, pooled at the EOT token."""
        import torch
        from open_clip.model import CLIP

        mask = getattr(self.net, "attn_mask", None)
        if not isinstance(self.net, CLIP) or self.net.text_pool_type != "argmax" or mask is None:
            return False
        above = torch.ones(mask.shape, dtype=torch.bool).triu(1)
        return bool(torch.equal(torch.isinf(mask), above))

    def _encode_text_prefix(self, tokens: Any) -> Any:
        """CLIP.encode_text over the tokens up to the last EOT only: with a causal mask and EOT
        pooling the padding after it cannot change the result, and a short query costs far less."""
        import torch
        from open_clip.transformer import text_global_pool

        net = self.net
        n = int(tokens.argmax(dim=-1).max()) + 1
        tokens = tokens[:, :n]
        cast = net.transformer.get_cast_dtype()
        x = net.token_embedding(tokens).to(cast) + net.positional_embedding[:n].to(cast)
        x = net.ln_final(net.transformer(x, attn_mask=net.attn_mask[:n, :n]))
        x = text_global_pool(x, tokens, "argmax")
        proj = net.text_projection
        x = proj(x) if isinstance(proj, torch.nn.Linear) else x @ proj
        return torch.nn.functional.normalize(x, dim=-1)
