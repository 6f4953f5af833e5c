"""Truly blurred copies of the calibration loops, for the limits that tell a blur from
something that looks like one (tools/detectors/coder_softness.py): each loop with ffmpeg's
`gblur` over one window, the mildest blur the blur detector finds, then coded as the loops
are. Their signals and events go to the quantities as CleanVideo.shared["blurred"]."""

from __future__ import annotations

from pathlib import Path

from bench.generate.corpus import encoded
from tools.derive import derive
from tools.detectors.calibration import CleanVideo
from tools.index import get_index

SIGMA = 1.5  # gblur's sigma: the mildest the blur detector finds on every calibration clip
WINDOW = (0.34, 0.51)  # the blurred window, as shares of the loop's length


def blurred(loop: Path, out: Path, duration_s: float) -> Path:
    """`loop` with a Gaussian blur over WINDOW, H.264 CRF 20, written atomically; an existing
    file is reused."""
    a, b = (round(w * duration_s, 2) for w in WINDOW)
    graph = (f"split[a][b];[b]gblur=sigma={SIGMA}[bb];"
             f"[a][bb]overlay=enable='between(t,{a},{b})',format=yuv420p")
    return encoded(out, ["-i", str(loop), "-an", "-vf", graph,
                         "-c:v", "libx264", "-preset", "veryfast", "-crf", "20"])


def hand_blurred(video: CleanVideo, loop: Path, work: Path) -> None:
    """Index the blurred copy of a calibration loop and hand its (scenes, events, samples)
    to the quantities through the clean video's shared store."""
    copy = blurred(loop, work / "blurred" / loop.name, len(video.frames["t"]) / video.fps)
    idx = get_index(copy, cache_dir=work / "cache", progress=False, clip=False)
    scenes, events = derive(idx.info.fps, idx.frames, idx.samples,
                            list(idx.meta.get("raw_cuts", [])), gated=False)
    video.shared["blurred"] = [(scenes, events, idx.samples)]
