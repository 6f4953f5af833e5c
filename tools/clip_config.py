"""Which CLIP model to use and how to sample frames for it (LVQ_CLIP_* settings), and its errors."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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
