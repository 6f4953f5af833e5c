"""A loaded CLIP model as numpy encoders: frames and texts in, L2-normalised float32 rows out."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np


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
