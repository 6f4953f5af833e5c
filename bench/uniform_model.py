"""The uniform track with a model brain: the sampled frames in one request, or their numbers.

A model that accepts images gets the appendix-B.2 prompt and the n frames as images. One that
does not is refused (VisionRequired) unless the measured-numbers variant is asked for: the
same prompt with, instead of the frames, a table of each frame's measurements
(prompts/uniform_numbers.md). Every prediction says what was sent: images or numbers, how
many frames, their pixel size.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from agent.brains.base import accepts_images
from agent.brains.errors import VisionRequired
from bench.scoring import fill_prompt, load_prompt
from bench.tracks import MAX_FPS, Prediction, Samples, sent_record, uniform_prompt

NUMBERS_ENV = "LVQ_UNIFORM_NUMBERS"


@dataclass(frozen=True)
class ImagesRequired:
    """The run context of a uniform request: images on, and no silent text-only fallback."""

    vision: bool = True
    images_required: bool = True


def require_images(brain: Any) -> None:
    """Refuse, in one line, a brain whose model does not accept images."""
    if accepts_images(brain):
        return
    model = getattr(brain, "model", getattr(brain, "name", "?"))
    where = getattr(brain, "endpoint", "its endpoint")
    raise VisionRequired(
        f"model {model} at {where} does not accept images; the uniform track needs a vision "
        f"model (pass --uniform-numbers, or set {NUMBERS_ENV}=1, for the measured-numbers "
        "variant)")


def data_url(frame: np.ndarray) -> str:
    """A frame (BGR) as a JPEG data URL."""
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:  # pragma: no cover - encoding a decoded frame does not fail
        raise ValueError("could not encode a frame as JPEG")
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii")


def _ask(brain: Any, content: list[dict[str, Any]] | str) -> tuple[str, dict[str, int] | None]:
    """One request without tools: the reply text and its token counts."""
    from langchain_core.messages import HumanMessage

    reply = brain.step([HumanMessage(content=content)], [], ImagesRequired())
    raw = reply.content if isinstance(reply.content, str) else " ".join(
        str(p.get("text", "")) if isinstance(p, dict) else str(p) for p in reply.content)
    usage = getattr(reply, "usage_metadata", None)
    tokens = {k: int(usage.get(k, 0)) for k in ("input_tokens", "output_tokens",
                                                 "total_tokens")} if usage else None
    return raw.strip(), tokens


def uniform_model(frames: np.ndarray, times: np.ndarray, duration_s: float, question: str,
                  options: Sequence[str], brain: Any) -> Prediction:
    """One request to a model brain: the prompt and the frames as images, no tools."""
    require_images(brain)
    t0 = time.perf_counter()
    text = uniform_prompt(question, options, duration_s, len(frames))
    content: list[dict[str, Any]] = [{"type": "text", "text": text}]
    content += [{"type": "image_url", "image_url": {"url": data_url(f)}} for f in frames]
    raw, tokens = _ask(brain, content)
    size = (frames[0].shape[1], frames[0].shape[0]) if len(frames) else None
    return Prediction(response=raw, choice=None, frames=[round(float(t), 3) for t in times],
                      steps=1, tokens=tokens, latency_s=round(time.perf_counter() - t0, 3),
                      sent=sent_record("images", len(frames), size))


def numbers_table(samples: Samples) -> str:
    """The measurements as a text table: time_s, then one column per signal."""
    keys = sorted(samples.signals)
    lines = ["time_s " + " ".join(keys)]
    for i, t in enumerate(samples.times):
        cells = [f"{float(samples.signals[k][i]):.4g}" for k in keys]
        lines.append(f"{float(t):.1f} " + " ".join(cells))
    return "\n".join(lines)


def numbers_prompt(samples: Samples, question: str, options: Sequence[str]) -> str:
    """The B.2 prompt with the frames replaced by their measurements."""
    n = len(samples.times)
    size = f"{samples.size[0]}x{samples.size[1]}" if samples.size else "native"
    intro = fill_prompt(load_prompt("uniform_numbers.md"), duration_s=f"{samples.duration_s:.0f}",
                        fps=f"{MAX_FPS:g}", num_frames=n, size=size,
                        table=numbers_table(samples))
    b2 = uniform_prompt(question, options, samples.duration_s, n)
    return intro.strip() + "\n\n" + b2[b2.index("Question:"):]


def uniform_numbers(samples: Samples, question: str, options: Sequence[str],
                    brain: Any) -> Prediction:
    """One request to a model brain: the prompt and the sampled frames' measurements as text."""
    t0 = time.perf_counter()
    raw, tokens = _ask(brain, numbers_prompt(samples, question, options))
    return Prediction(response=raw, choice=None,
                      frames=[round(float(t), 3) for t in samples.times], steps=1,
                      tokens=tokens, latency_s=round(time.perf_counter() - t0, 3),
                      sent=sent_record("numbers", len(samples.times), samples.size))
