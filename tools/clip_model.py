"""CLIP model loading for frame retrieval: config -> open_clip model and tokenizer.

Weights are looked for on local disk before anything is loaded (Hugging Face hub cache, open_clip's
URL cache, or a checkpoint file), so a machine without them gets a one-line reason at once instead
of a network time-out. torch and open_clip are imported lazily: importing open_clip costs seconds.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from tools.clip_config import (
    ENABLE_HINT,
    ENV_BUDGET,
    ENV_CACHE_DIR,
    ENV_INTERVAL,
    ENV_MODEL,
    ENV_PRECISION,
    ENV_PRETRAINED,
    PRECISIONS,
    ClipConfig,
    ClipError,
    UnknownModel,
    WeightsUnavailable,
)
from tools.clip_encoder import ClipModel, auto_threads, image_precision
from tools.clip_weights import (
    HUB_CONFIG_NAME,
    HUB_WEIGHT_NAMES,
    Weights,
    clip_status,
    file_identity,
    hub_weight_names,
    model_key,
    resolve_weights,
    weights_identity,
)

__all__ = [
    "ENABLE_HINT", "ENV_BUDGET", "ENV_CACHE_DIR", "ENV_INTERVAL", "ENV_MODEL", "ENV_PRECISION",
    "ENV_PRETRAINED", "HUB_CONFIG_NAME", "HUB_WEIGHT_NAMES", "PRECISIONS", "ClipConfig",
    "ClipError", "ClipModel", "UnknownModel", "Weights", "WeightsUnavailable", "auto_threads",
    "clip_status", "file_identity", "hub_weight_names", "image_precision", "load_clip",
    "model_key", "resolve_weights", "weights_identity",
]


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
