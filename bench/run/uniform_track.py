"""The uniform track: n frames sampled uniformly over the video (at most 1 FPS), one pass.

A model brain gets the frames and the appendix-B.2 prompt (prompts/uniform_mcq.md,
uniform_open.md) in one request (bench.uniform_model); the ``local`` brain may use only the
measurements of those n frames (bench.run.uniform_rules): it cannot see what happens between
its samples, which is the point of the comparison.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from bench.items import option_letters, render_options
from bench.run.samples import Samples, measure
from bench.run.tracks import DEFAULT_FRAMES, MAX_FPS, MAX_SIDE, Prediction, sent_record
from bench.run.uniform_rules import rules_answer
from bench.scoring import fill_prompt, load_prompt


def sample_times(duration_s: float, n: int = DEFAULT_FRAMES,
                 max_fps: float = MAX_FPS) -> list[float]:
    """n frame times spread uniformly over the video (bin centres), at most max_fps per second."""
    if duration_s <= 0:
        return [0.0]
    k = max(1, min(int(n), int(np.floor(duration_s * max_fps)) or 1))
    return [round((i + 0.5) * duration_s / k, 3) for i in range(k)]


def decode_size(width: int, height: int, max_side: int = MAX_SIDE) -> tuple[int, int] | None:
    """Reduced (even) decode size keeping the aspect, or None when the video is small enough."""
    s = max_side / max(width, height)
    if s >= 1:
        return None
    return max(2, int(round(width * s / 2)) * 2), max(2, int(round(height * s / 2)) * 2)


def uniform_frames(video: str | Path, n: int = DEFAULT_FRAMES, max_fps: float = MAX_FPS,
                   max_side: int = MAX_SIDE) -> tuple[np.ndarray, np.ndarray, float]:
    """The uniformly sampled frames (BGR), their times, and the video duration."""
    from tools.video import frames_at, probe_video

    info = probe_video(video)
    times = sample_times(info.duration_s, n, max_fps)
    frames, stamps = frames_at(info.path, times, decode_size(info.width, info.height, max_side))
    return frames, np.asarray(stamps, dtype=np.float64), float(info.duration_s)


def measure_samples(video: str | Path, n: int = DEFAULT_FRAMES, max_fps: float = MAX_FPS,
                    max_side: int = MAX_SIDE) -> Samples:
    """Spatial and colour measurements of the n uniformly sampled frames, and nothing else."""
    frames, times, duration = uniform_frames(video, n, max_fps, max_side)
    return measure(frames, times, duration)


def uniform_local(samples: Samples, question: str,
                  options: Sequence[str]) -> Prediction:
    """Answer from the sampled frames' measurements with simple rules (no model)."""
    t0 = time.perf_counter()
    ans = rules_answer(samples, question, options)
    return Prediction(response=ans.text, choice=ans.choice, segments=ans.segments,
                      frames=[round(float(t), 3) for t in samples.times], steps=1,
                      latency_s=round(time.perf_counter() - t0, 4),
                      sent=sent_record("numbers", len(samples.times), samples.size))


def uniform_prompt(question: str, options: Sequence[str], duration_s: float,
                   n_frames: int) -> str:
    """The appendix-B.2 prompt (MCQ or open) filled for one question."""
    common = {"duration_s": f"{duration_s:.0f}", "fps": f"{MAX_FPS:g}", "num_frames": n_frames,
              "question": question.strip()}
    if options:
        return fill_prompt(load_prompt("uniform_mcq.md"), **common,
                           choices=render_options(options),
                           letters=", ".join(option_letters(len(options))))
    return fill_prompt(load_prompt("uniform_open.md"), **common)
