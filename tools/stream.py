"""One decoding pass at native frame rate, delivering each frame at the resolutions it is needed.

ffmpeg decodes the file once and splits the picture: every frame goes out small and in colour
(temporal signals, shot detection), every k-th frame goes out at native size in grey (spatial
signals), and optionally every m-th frame at 224 px height in colour (CLIP). Each output is a
raw pipe; the native and CLIP pipes are consumed by their own threads, so measuring overlaps
decoding. Measured here: this costs ~1.15x a bare decode, where decord at 320x180 costs ~1.5x.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from tools.errors import VideoError
from tools.ffmpeg import ffmpeg_exe
from tools.model import VideoInfo

BLOCK = 32  # frames handed over at a time (and measured together)


@dataclass(frozen=True)
class StreamPlan:
    """Sizes and rates of the three outputs of the decoding pass."""

    lo_size: tuple[int, int]  # (w, h) of the every-frame colour image
    hi_every: int  # native grey frame every k frames
    mid_size: tuple[int, int] | None = None  # (w, h) of the CLIP frame, None = no CLIP output
    mid_every: int = 0


def plan_for(
    info: VideoInfo, spatial_fps: float = 2.0, lo_height: int = 90, mid_fps: float | None = None
) -> StreamPlan:
    """Choose output sizes and sampling steps for a video (even sizes, aspect kept)."""
    aspect = info.width / max(1, info.height)
    lo_h = min(lo_height, info.height - info.height % 2)
    lo_w = max(2, int(round(lo_h * aspect / 2)) * 2)
    hi_every = max(1, int(round(info.fps / spatial_fps)))
    mid_size = None
    mid_every = 0
    if mid_fps:
        mid_h = min(224, info.height - info.height % 2)
        mid_size = (max(2, int(round(mid_h * aspect / 2)) * 2), mid_h)
        mid_every = max(1, int(round(info.fps / mid_fps)))
    return StreamPlan((lo_w, lo_h), hi_every, mid_size, mid_every)


# What a decoder logs about a damaged stream (H.264/HEVC "error while decoding MB", MPEG-2
# "ac-tex damaged", "concealing N errors", invalid data, corrupt slices...).
_DAMAGE_WORDS = (b"error while decoding", b"concealing", b"damaged", b"corrupt", b"invalid data",
                 b"decode_slice_header error", b"no frame!", b"missing picture", b"illegal")


def _is_decode_error(line: bytes) -> bool:
    low = line.lower()
    return any(w in low for w in _DAMAGE_WORDS)


_PIX_FMT = re.compile(rb"Video: [^,]+, ([a-z0-9_]+)")


def _pix_fmt(path: str) -> str:
    """The pixel format the video's decoder delivers (ffmpeg's own description of the file)."""
    res = subprocess.run([ffmpeg_exe(), "-hide_banner", "-nostdin", "-i", path],
                         capture_output=True, timeout=60)
    m = _PIX_FMT.search(res.stderr)
    return m.group(1).decode() if m else "yuv420p"


def _every(step: int, start: int) -> str:
    """ffmpeg select expression for the frames on the video's every-`step` grid when the
    decoder's first frame is frame `start` (its n counts from 0 there)."""
    if start % step == 0:
        return f"not(mod(n\\,{step}))"
    return f"not(mod(n+{start % step}\\,{step}))"


def _first(step: int, start: int) -> int:
    """The first frame index >= start on the every-`step` grid."""
    return start + (-start) % step


# A decoder that delivers no frame for this long (s) has stalled (a hung network mount, a
# pathological stream) and is killed: ten blocks' worth of video, at least a minute; and no
# pass may take longer than this many seconds plus this many per second of video.
STALL_MIN_S = 60.0
STALL_BLOCKS = 10
PASS_BASE_S = 120.0
PASS_PER_S = 20.0


def stall_limit_s(fps: float, chunk: int = BLOCK) -> float:
    """How long the decoder may deliver nothing before it counts as stalled."""
    return max(STALL_MIN_S, STALL_BLOCKS * chunk / max(fps, 1e-3))


def _watchdog(proc: subprocess.Popen, waiting: list, limits: tuple[float, float],
              why: list[str]) -> None:
    """Kill `proc` when it has kept the reader waiting longer than limits[0] s at a stretch
    (waiting[0]: when the current wait began, None while the frames are being measured) or
    the pass has run past limits[1] s."""
    stall_s, pass_s = limits
    began = time.monotonic()
    while proc.poll() is None:
        now = time.monotonic()
        since = waiting[0]
        if since is not None and now - since > stall_s:
            why.append(f"no frame for {stall_s:.0f} s")
        elif now - began > pass_s:
            why.append(f"the pass ran past {pass_s:.0f} s")
        if why:
            proc.kill()
            return
        time.sleep(0.5)


def _read_exact(fh, size: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < size:
        chunk = fh.read(size - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def _pump(fd: int, shape: tuple[int, ...], first: int, every: int, sink, errors: list) -> None:
    """Read fixed-size frames from a pipe and hand (frame index, array) to `sink`; the pipe's
    j-th frame is frame `first + j * every` of the video."""
    size = int(np.prod(shape))
    try:
        with os.fdopen(fd, "rb", buffering=size * 2) as fh:
            j = 0
            while True:
                raw = _read_exact(fh, size)
                if raw is None:
                    return
                sink(first + j * every, np.frombuffer(raw, np.uint8).reshape(shape))
                j += 1
    except BaseException as exc:  # noqa: BLE001 - re-raised in the main thread
        errors.append(exc)


def decode(
    info: VideoInfo,
    plan: StreamPlan,
    on_hi: Callable[[int, np.ndarray], None],
    on_mid: Callable[[int, np.ndarray], None] | None = None,
    chunk: int = BLOCK,
    decode_errors: list[int] | None = None,
    start: int = 0,
    seek_s: float | None = None,
    on_end: Callable[[], None] | None = None,
) -> Iterator[tuple[int, np.ndarray]]:
    """Yield (first frame index, BGR chunk (N,h,w,3)) of every frame, in blocks of `chunk`
    frames from a multiple of `chunk`; native grey frames go to
    `on_hi` and CLIP frames to `on_mid`, both called from reader threads. Each error line the
    decoder logs is appended to `decode_errors` as the frame index reached when it came (a
    damaged stretch of the stream, placed to within a chunk or so).

    `start` > 0 resumes: the decoder seeks to `seek_s` (just before frame `start`'s time) and
    the first frame it delivers is counted as frame `start`; the native and CLIP frames keep
    the whole video's sampling grid. The caller checks that the seek landed where it should.
    `on_end` is called once the last frame has been yielded, before the reader threads are
    awaited (a CLIP sink waiting on the caller's progress must be released then).
    """
    lw, lh = plan.lo_size
    # After a seek, ffmpeg can hand the split outputs' scalers another pixel format than a
    # pass from the start does (seen: frames 4 grey levels off): pin the decoder's own.
    pin = f"format={_pix_fmt(info.path)}," if start > 0 else ""
    graph = [f"[0:v]{pin}split={3 if plan.mid_size else 2}[a][b]{'[c]' if plan.mid_size else ''}"]
    graph.append(f"[a]scale={lw}:{lh}:flags=area,format=bgr24[lo]")
    graph.append(f"[b]select='{_every(plan.hi_every, start)}',format=gray[hi]")
    if plan.mid_size:
        mw, mh = plan.mid_size
        graph.append(
            f"[c]select='{_every(plan.mid_every, start)}',scale={mw}:{mh}:flags=area,"
            "format=bgr24[mid]"
        )
    r_lo, w_lo = os.pipe()
    r_hi, w_hi = os.pipe()
    fds = [w_lo, w_hi]
    cmd = [ffmpeg_exe(), "-hide_banner", "-nostdin", "-loglevel", "error", "-threads", "2"]
    if start > 0 and seek_s is not None:
        cmd += ["-ss", f"{max(0.0, seek_s):.6f}"]
    cmd += ["-i", info.path, "-an", "-sn", "-filter_complex", ";".join(graph)]
    cmd += ["-map", "[lo]", "-fps_mode", "passthrough", "-f", "rawvideo", f"pipe:{w_lo}"]
    cmd += ["-map", "[hi]", "-fps_mode", "passthrough", "-f", "rawvideo", f"pipe:{w_hi}"]
    r_mid = w_mid = None
    if plan.mid_size:
        r_mid, w_mid = os.pipe()
        fds.append(w_mid)
        cmd += ["-map", "[mid]", "-fps_mode", "passthrough", "-f", "rawvideo", f"pipe:{w_mid}"]
    proc = subprocess.Popen(cmd, pass_fds=fds, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for fd in fds:
        os.close(fd)
    errors: list[BaseException] = []
    stderr_lines: list[bytes] = []
    delivered = [start]

    def _log() -> None:
        for line in proc.stderr:
            stderr_lines.append(line)
            if decode_errors is not None and _is_decode_error(line):
                decode_errors.append(delivered[0])

    threads = [
        threading.Thread(target=_log, daemon=True),
        threading.Thread(
            target=_pump,
            args=(r_hi, (info.height, info.width), _first(plan.hi_every, start), plan.hi_every,
                  on_hi, errors),
            daemon=True,
        ),
    ]
    if r_mid is not None:
        mw, mh = plan.mid_size
        sink = on_mid or (lambda _i, _f: None)
        threads.append(
            threading.Thread(
                target=_pump,
                args=(r_mid, (mh, mw, 3), _first(plan.mid_every, start), plan.mid_every, sink,
                      errors),
                daemon=True,
            )
        )
    waiting: list[float | None] = [time.monotonic()]
    stalled: list[str] = []
    limits = (stall_limit_s(info.fps, chunk), PASS_BASE_S + PASS_PER_S * info.duration_s)
    threads.append(threading.Thread(target=_watchdog, args=(proc, waiting, limits, stalled),
                                    daemon=True))
    for th in threads:
        th.start()
    frame_bytes = lw * lh * 3
    done = start
    try:
        with os.fdopen(r_lo, "rb", buffering=frame_bytes * chunk) as fh:
            while True:
                # Blocks fall on the whole video's grid of `chunk` frames, resumed or not:
                # temporal signals are measured per block, and must not depend on where a
                # run started.
                waiting[0] = time.monotonic()
                raw = fh.read(frame_bytes * (chunk - done % chunk))
                waiting[0] = None
                if stalled:
                    raise VideoError(f"ffmpeg stalled decoding {info.path}: {stalled[0]}; "
                                     "it was stopped")
                if not raw:
                    break
                whole = len(raw) - len(raw) % frame_bytes
                if whole < len(raw):
                    rest = _read_exact(fh, frame_bytes - len(raw) % frame_bytes)
                    if rest is not None:
                        raw, whole = raw + rest, len(raw) + len(rest)
                arr = np.frombuffer(raw[:whole], np.uint8).reshape(-1, lh, lw, 3)
                yield done, arr
                done += len(arr)
                delivered[0] = done
                if errors:
                    raise errors[0]
        if on_end is not None:
            on_end()
        proc.wait()
        for th in threads:
            th.join()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if errors:
        raise errors[0]
    if done == start:
        msg = b"".join(stderr_lines).decode(errors="replace").strip().splitlines()
        last = msg[-1] if msg else "no output"
        raise VideoError(f"no frame could be decoded from {info.path} ({info.codec}): {last}")
