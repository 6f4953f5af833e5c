"""Short test files in many codecs, containers and oddities, written with a full ffmpeg build."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

SYSTEM_FFMPEG = "/usr/bin/ffmpeg"
SECONDS = 3.0
FPS = 25
SIZE = "320x240"


@dataclass(frozen=True)
class Case:
    """One test file: its name, what it holds, and how ffmpeg encodes it."""

    name: str
    codec: str  # the encoder (a case is skipped when this ffmpeg lacks it)
    container: str  # file extension
    args: tuple[str, ...] = ()  # encoder options after -c:v
    size: str = SIZE
    audio: float = 0.0  # seconds of audio (0 = none)
    vf: str = ""  # a video filter (e.g. variable frame rate timestamps)
    out_args: tuple[str, ...] = field(default=())  # options before the output name
    expect_s: float = SECONDS  # the picture's duration
    rotate: int = 0  # display rotation (degrees counter-clockwise), set by a stream copy

    @property
    def label(self) -> str:
        return f"{self.codec}/{self.container}"


def _c(name: str, codec: str, container: str, *args: str, **kw) -> Case:
    return Case(name, codec, container, tuple(args), **kw)


_X264 = ("-preset", "ultrafast")
# Frames 0-39 at 25 fps, then 10 fps: timestamps that a constant rate cannot describe.
_VFR = "setpts='if(lt(N,40),N/25,1.6+(N-40)/10)/TB'"
_ODD = "721x405"
_ODD_VF = "scale=721:405"  # testsrc2 itself rounds a size down to even numbers
_VFR_S = 1.6 + (SECONDS * FPS - 40) / 10

CASES: tuple[Case, ...] = (
    _c("h264 mp4 + aac", "libx264", "mp4", *_X264, "-pix_fmt", "yuv420p", audio=SECONDS),
    _c("h264 mkv", "libx264", "mkv", *_X264, "-pix_fmt", "yuv420p"),
    _c("h264 mov", "libx264", "mov", *_X264, "-pix_fmt", "yuv420p"),
    _c("h264 ts", "libx264", "ts", *_X264, "-pix_fmt", "yuv420p", audio=SECONDS),
    _c("h264 m2ts", "libx264", "m2ts", *_X264, "-pix_fmt", "yuv420p"),
    _c("h264 avi", "libx264", "avi", *_X264, "-pix_fmt", "yuv420p"),
    _c("h264 b-frames avi", "libx264", "avi", "-preset", "veryfast", "-bf", "3",
       "-pix_fmt", "yuv420p"),
    _c("hevc mp4", "libx265", "mp4", "-preset", "ultrafast", "-tag:v", "hvc1",
       "-x265-params", "log-level=error"),
    _c("hevc mkv", "libx265", "mkv", "-preset", "ultrafast", "-x265-params", "log-level=error"),
    _c("hevc ts", "libx265", "ts", "-preset", "ultrafast", "-x265-params", "log-level=error"),
    _c("vp8 webm + vorbis", "libvpx", "webm", "-deadline", "realtime", "-b:v", "500k",
       audio=SECONDS),
    _c("vp9 webm + opus", "libvpx-vp9", "webm", "-deadline", "realtime", "-cpu-used", "8",
       "-b:v", "500k", audio=SECONDS),
    _c("vp9 mp4", "libvpx-vp9", "mp4", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "500k"),
    _c("av1 mp4 (libaom)", "libaom-av1", "mp4", "-cpu-used", "8", "-usage", "realtime",
       "-b:v", "300k"),
    _c("av1 webm (libsvtav1)", "libsvtav1", "webm", "-preset", "12"),
    _c("av1 mkv (librav1e)", "librav1e", "mkv", "-speed", "10"),
    _c("theora ogv + vorbis", "libtheora", "ogv", "-q:v", "6", audio=SECONDS),
    _c("theora mkv", "libtheora", "mkv", "-q:v", "6"),
    _c("mpeg-1 mpg + mp2", "mpeg1video", "mpg", "-b:v", "1M", audio=SECONDS),
    _c("mpeg-2 mpg + mp2", "mpeg2video", "mpg", "-b:v", "1M", audio=SECONDS),
    _c("mpeg-2 ts", "mpeg2video", "ts", "-b:v", "1M"),
    _c("mpeg-4 part 2 avi", "mpeg4", "avi", "-q:v", "5"),
    _c("mpeg-4 part 2 b-frames avi", "mpeg4", "avi", "-q:v", "5", "-bf", "2"),
    _c("mpeg-4 part 2 mp4", "mpeg4", "mp4", "-q:v", "5"),
    _c("mjpeg avi", "mjpeg", "avi", "-q:v", "5", "-pix_fmt", "yuvj420p"),
    _c("mjpeg mov", "mjpeg", "mov", "-q:v", "5", "-pix_fmt", "yuvj422p"),
    _c("prores 422 mov", "prores_ks", "mov", "-profile:v", "0", "-pix_fmt", "yuv422p10le"),
    _c("dnxhr lb mov", "dnxhd", "mov", "-profile:v", "dnxhr_lb", "-pix_fmt", "yuv422p"),
    _c("ffv1 mkv", "ffv1", "mkv"),
    _c("ffv1 avi", "ffv1", "avi"),
    _c("cinepak avi", "cinepak", "avi"),
    _c("cinepak mov", "cinepak", "mov"),
    _c("ms video 1 avi", "msvideo1", "avi", "-pix_fmt", "rgb555le"),
    _c("raw yuv420p avi", "rawvideo", "avi", "-pix_fmt", "yuv420p"),
    _c("raw bgr24 mov", "rawvideo", "mov", "-pix_fmt", "bgr24"),
    _c("rotation 90 mp4", "libx264", "mp4", *_X264, "-pix_fmt", "yuv420p", rotate=90),
    _c("rotation 270 mov", "libx264", "mov", *_X264, "-pix_fmt", "yuv420p", rotate=270),
    _c("rotation 180 mp4", "libx264", "mp4", *_X264, "-pix_fmt", "yuv420p", rotate=180),
    _c("vfr 25->10 fps mkv", "libx264", "mkv", *_X264, "-pix_fmt", "yuv420p", vf=_VFR,
       out_args=("-fps_mode", "vfr"), expect_s=_VFR_S),
    _c("vfr 25->10 fps mp4", "libx264", "mp4", *_X264, "-pix_fmt", "yuv420p", vf=_VFR,
       out_args=("-fps_mode", "vfr"), expect_s=_VFR_S),
    _c("odd size 721x405 vp9", "libvpx-vp9", "webm", "-deadline", "realtime", "-cpu-used", "8",
       size=_ODD, vf=_ODD_VF),
    _c("odd size 721x405 h264 4:4:4", "libx264", "mp4", *_X264, "-pix_fmt", "yuv444p",
       size=_ODD, vf=_ODD_VF),
    _c("odd size 721x405 ffv1", "ffv1", "mkv", size=_ODD, vf=_ODD_VF),
    _c("odd size 721x405 mpeg-4 avi", "mpeg4", "avi", "-q:v", "5", size=_ODD, vf=_ODD_VF),
    _c("10-bit h264 mp4", "libx264", "mp4", *_X264, "-pix_fmt", "yuv420p10le"),
    _c("10-bit hevc mkv", "libx265", "mkv", "-preset", "ultrafast", "-pix_fmt", "yuv420p10le",
       "-x265-params", "log-level=error"),
    _c("10-bit vp9 webm", "libvpx-vp9", "webm", "-deadline", "realtime", "-cpu-used", "8",
       "-pix_fmt", "yuv420p10le", "-profile:v", "2"),
    _c("10-bit av1 mkv (libaom)", "libaom-av1", "mkv", "-cpu-used", "8", "-usage", "realtime",
       "-pix_fmt", "yuv420p10le"),
    _c("4:2:2 10-bit hevc mov", "libx265", "mov", "-preset", "ultrafast",
       "-pix_fmt", "yuv422p10le", "-tag:v", "hvc1", "-x265-params", "log-level=error"),
    _c("4:2:2 h264 mkv", "libx264", "mkv", *_X264, "-pix_fmt", "yuv422p"),
    _c("4:4:4 h264 mp4", "libx264", "mp4", *_X264, "-pix_fmt", "yuv444p"),
    _c("4:4:4 hevc mp4", "libx265", "mp4", "-preset", "ultrafast", "-pix_fmt", "yuv444p",
       "-tag:v", "hvc1", "-x265-params", "log-level=error"),
    _c("no audio h264 mp4", "libx264", "mp4", *_X264, "-pix_fmt", "yuv420p"),
    _c("audio 6 s > picture 3 s mp4", "libx264", "mp4", *_X264, "-pix_fmt", "yuv420p",
       audio=2 * SECONDS),
    _c("audio 6 s > picture 3 s mkv", "libx264", "mkv", *_X264, "-pix_fmt", "yuv420p",
       audio=2 * SECONDS),
)

_AUDIO = {"webm": "libopus", "ogv": "libvorbis", "mpg": "mp2", "ts": "mp2"}


@lru_cache(maxsize=4)
def encoders(exe: str = SYSTEM_FFMPEG) -> frozenset[str]:
    """Names of the video and audio encoders an ffmpeg binary has."""
    if not shutil.which(exe):
        return frozenset()
    out = subprocess.run([exe, "-hide_banner", "-encoders"], capture_output=True, text=True,
                         timeout=60).stdout
    return frozenset(line.split()[1] for line in out.splitlines()
                     if len(line.split()) > 1 and line.startswith(" ") and line.split()[0][0]
                     in "VA")


def build(case: Case, directory: Path, exe: str = SYSTEM_FFMPEG) -> Path:
    """Write the case's file into `directory`; CalledProcessError with ffmpeg's message if not."""
    safe = "".join(ch if ch.isalnum() else "_" for ch in case.name).strip("_")
    out = directory / f"{safe}.{case.container}"
    cmd = [exe, "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-f", "lavfi",
           "-i", f"testsrc2=size={SIZE}:rate={FPS}:duration={SECONDS}"]
    if case.audio:
        cmd += ["-f", "lavfi", "-i", f"sine=frequency=440:duration={case.audio}"]
    if case.vf:
        cmd += ["-vf", case.vf]
    cmd += ["-c:v", case.codec, *case.args]
    if case.audio:
        cmd += ["-c:a", _AUDIO.get(case.container, "aac")]
    plain = out.with_name(f"{out.stem}.plain{out.suffix}") if case.rotate else out
    subprocess.run([*cmd, *case.out_args, str(plain)], check=True, capture_output=True,
                   text=True, timeout=300)
    if case.rotate:  # ffmpeg 5 cannot set it; -display_rotation (ffmpeg >= 6) on a stream copy
        subprocess.run([rotating_ffmpeg(), "-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                        "-display_rotation", str(case.rotate), "-i", str(plain), "-c", "copy",
                        str(out)], check=True, capture_output=True, text=True, timeout=120)
        plain.unlink()
    return out


def rotating_ffmpeg() -> str:
    """An ffmpeg with -display_rotation: the product's bundled one (version >= 6)."""
    from tools.ffmpeg import ffmpeg_exe

    return ffmpeg_exe()
