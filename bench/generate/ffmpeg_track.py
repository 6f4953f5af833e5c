"""The ffmpeg distortion track: real clips degraded by ffmpeg in random windows, truth recorded.

    python -m bench.generate.ffmpeg_track --corpus ~/.cache/lvq-corpus --out DIR [--seed 16]

Content is the *evaluation* part of the corpus (`corpus.EVALUATION_SOURCES`): clips no
threshold was calibrated on, each looped to 3 minutes (a few videos are 30-minute
concatenations of them). Every video carries two windows of different distortions (or, for the
trend videos, one distortion at three levels), each made by `ffmpeg_distortions`, spliced back
into the untouched footage and the whole finished with a real encoder. Frozen pictures are
finished in H.264, VP9 and MPEG-2 at two qualities each; damaged stretches are H.264 in MPEG-TS
whose packets in the window went through ffmpeg's `noise` bitstream filter. Writes the videos
and `truth.jsonl` (one line a video, its windows with type, level and times) into DIR; videos
already made are kept, so an interrupted run resumes.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import subprocess
from dataclasses import asdict, dataclass
from fractions import Fraction
from pathlib import Path

from bench.generate.corpus import Clip, concatenated, corpus_clips, frame_rate
from bench.generate.ffmpeg_distortions import (
    DISTORTIONS,
    FINISH_CODECS,
    LEVELS,
    Distortion,
    codec_args,
    window_chain,
)
from tools.ffmpeg import ffmpeg_exe

MAX_WIDTH = 640  # the track's footage is scaled to at most this width (time, not realism)
GOP_S = 2.0  # keyframe interval of the finished encodes: damage spreads at most this far


@dataclass(frozen=True)
class Window:
    """One degraded stretch of a track video: what was done, how strongly, and when."""

    distortion: str
    type: str
    level: int
    start_s: float
    end_s: float


@dataclass(frozen=True)
class Spec:
    """One track video to make: its content, length, windows and finishing encoder."""

    name: str
    source: str
    duration_s: float
    windows: tuple[Window, ...]
    codec: str = "libx264"
    kind: str = "pair"


def track_ffmpeg(needs: tuple[str, ...] = ("libx264", "libvpx-vp9", "mpeg2video", "mjpeg",
                                           "ffv1")) -> str:
    """An ffmpeg with the encoders the track (or the videos asked for) needs: $LVQ_TRACK_FFMPEG,
    the one on PATH (Debian's has them all), else the bundled one if it has them."""
    candidates = [os.environ.get("LVQ_TRACK_FFMPEG"), shutil.which("ffmpeg"), ffmpeg_exe()]
    for exe in [c for c in candidates if c]:
        out = subprocess.run([exe, "-hide_banner", "-encoders"], capture_output=True, text=True)
        if all(f" {e} " in out.stdout for e in needs):
            return exe
    raise SystemExit(f"the ffmpeg track needs an ffmpeg with the encoders {', '.join(needs)} "
                     "(Debian: apt-get install ffmpeg; or set LVQ_TRACK_FFMPEG)")


def needed_encoders(specs: list[Spec]) -> tuple[str, ...]:
    """The encoders making these videos takes."""
    need = {"libx264", "ffv1"}
    for s in specs:
        need.add({"vp9": "libvpx-vp9", "mpeg2": "mpeg2video",
                  "mpeg2-q10": "mpeg2video"}.get(s.codec, "libx264"))
        for w in s.windows:
            d = DISTORTIONS[w.distortion]
            if d.kind == "codec":
                need.add(codec_args(d, w.level)[1])
    return tuple(sorted(need))


def _run(cmd: list[str]) -> None:
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        tail = (res.stderr.strip().splitlines() or ["?"])[-1]
        raise RuntimeError(f"ffmpeg failed ({tail}): {' '.join(cmd)}")


def _tmp(out: Path) -> Path:
    return out.with_name(f".{out.stem}.{os.getpid()}.tmp{out.suffix}")


def mezzanine(clip: Path, seconds: float, out: Path, exe: str) -> Path:
    """The clip looped to `seconds` at its own rate, at most MAX_WIDTH wide, near-lossless."""
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = _tmp(out)
    _run([exe, "-v", "error", "-y", "-stream_loop", "-1", "-i", str(clip), "-t", f"{seconds}",
          "-an", "-vf", f"scale='min({MAX_WIDTH},iw)':-2,scale=trunc(iw/2)*2:trunc(ih/2)*2,"
          "setsar=1,format=yuv420p", "-c:v", "libx264", "-preset", "veryfast", "-crf", "14",
          str(tmp)])
    os.replace(tmp, out)
    return out


def _probe(path: Path, exe: str) -> tuple[str, tuple[int, int]]:
    """(exact frame rate, e.g. "45000/1499", from ffprobe when there is one; width, height)."""
    from tools.video import probe_video

    info = probe_video(str(path))
    size = (int(info.width), int(info.height))
    probe = shutil.which(str(Path(exe).with_name("ffprobe"))) or shutil.which("ffprobe")
    if probe:
        out = subprocess.run([probe, "-v", "error", "-select_streams", "v:0", "-show_entries",
                              "stream=r_frame_rate", "-of", "csv=p=0", str(path)],
                             capture_output=True, text=True)
        if out.returncode == 0 and "/" in out.stdout:
            return out.stdout.strip().split(",")[0], size
    rate = Fraction(float(info.fps)).limit_denominator(1001)
    return f"{rate.numerator}/{rate.denominator}", size


def _value(rate: str) -> float:
    num, _, den = rate.partition("/")
    return float(num) / float(den or 1)


def _segment(exe: str, base: Path, w: Window, dist: Distortion, rate: str,
             size: tuple[int, int], out: Path) -> None:
    """The window's frames, degraded, as a file of its own (lossless unless a codec is the
    degradation) at the base's rate and size."""
    length = w.end_s - w.start_s
    cmd = [exe, "-v", "error", "-y", "-ss", f"{w.start_s:.4f}", "-i", str(base),
           "-t", f"{length:.4f}", "-an"]
    norm = f"scale={size[0]}:{size[1]},setsar=1,fps={rate}"
    if dist.kind == "filter":
        chain = window_chain(dist, w.level, _value(rate), size)
        cmd += ["-vf", f"{chain},{norm},format=yuv420p", "-c:v", "ffv1"]
    elif dist.kind == "codec":
        cmd += ["-vf", "format=yuv420p", *codec_args(dist, w.level)]
    elif dist.kind == "freeze":
        n = round(length * _value(rate))
        cmd += ["-vf", f"loop=loop={n}:size=1:start=0,trim=end_frame={n},format=yuv420p",
                "-c:v", "ffv1"]
    else:  # damage is done on the finished packets, the window's frames stay as they are
        cmd += ["-vf", "format=yuv420p", "-c:v", "ffv1"]
    _run(cmd + [str(out)])


def render(spec: Spec, base: Path, out_dir: Path, exe: str) -> Path:
    """Make one track video (kept if it exists): base footage with its windows spliced in."""
    ext, finish = FINISH_CODECS[spec.codec]
    damage = [w for w in spec.windows if DISTORTIONS[w.distortion].kind == "damage"]
    if damage:
        ext = ".ts"
    out = out_dir / f"{spec.name}{ext}"
    if out.is_file():
        return out
    rate, size = _probe(base, exe)
    work = out_dir / ".work" / spec.name
    work.mkdir(parents=True, exist_ok=True)
    wins = sorted(spec.windows, key=lambda w: w.start_s)
    inputs = [str(base)]
    for k, w in enumerate(wins):
        seg = work / f"w{k}.mkv"
        _segment(exe, base, w, DISTORTIONS[w.distortion], rate, size, seg)
        inputs.append(str(seg))
    n = len(wins)
    parts, cuts = [], [0.0] + [x for w in wins for x in (w.start_s, w.end_s)] + [None]
    graph = [f"[0:v]split={n + 1}" + "".join(f"[b{i}]" for i in range(n + 1))]
    for i in range(n + 1):
        a, b = cuts[2 * i], cuts[2 * i + 1]
        trim = f"start={a:.4f}" + (f":end={b:.4f}" if b is not None else "")
        graph.append(f"[b{i}]trim={trim},setpts=PTS-STARTPTS[p{i}]")
        parts.append(f"[p{i}]")
        if i < n:
            graph.append(f"[{i + 1}:v]setpts=PTS-STARTPTS,scale={size[0]}:{size[1]},setsar=1,"
                         f"fps={rate},format=yuv420p[m{i}]")
            parts.append(f"[m{i}]")
    graph.append("".join(parts) + f"concat=n={len(parts)}:v=1:a=0[v]")
    cmd = [exe, "-v", "error", "-y"]
    for src in inputs:
        cmd += ["-i", src]
    cmd += ["-filter_complex", ";".join(graph), "-map", "[v]", "-an",
            "-t", f"{spec.duration_s:.3f}"]
    tmp = _tmp(out)
    if damage:
        gop = max(1, round(GOP_S * _value(rate)))
        clean = work / "clean.ts"
        _run(cmd + ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20", "-g", str(gop),
                    "-keyint_min", str(gop), "-sc_threshold", "0", "-bf", "0",
                    "-f", "mpegts", str(clean)])
        amount = "+".join(f"between((pts-startpts)*tb\\,{w.start_s:.3f}\\,{w.end_s:.3f})*"
                          f"{DISTORTIONS[w.distortion].levels[w.level - 1]}" for w in damage)
        _run([exe, "-v", "error", "-y", "-i", str(clean), "-c", "copy",
              "-bsf:v", f"noise=amount='{amount}'", "-f", "mpegts", str(tmp)])
    else:
        _run(cmd + finish + [str(tmp)])
    os.replace(tmp, out)
    shutil.rmtree(work, ignore_errors=True)
    return out


WINDOW_S = (12.0, 35.0)  # shortest and longest filter / codec window (s)


def _window(rng: random.Random, dist: Distortion, level: int, lo: float, hi: float,
            rate: float, span: tuple[float, float] = WINDOW_S) -> Window:
    """A window of the distortion at a random place in [lo, hi], on the frame grid, `span`
    seconds long (filter and codec windows)."""
    if dist.kind == "freeze":
        length = float(dist.levels[level - 1])
    elif dist.kind == "damage":
        length = rng.uniform(4.0, 10.0)
    else:
        length = rng.uniform(*span)
    length = min(length, hi - lo)
    start = rng.uniform(lo, hi - length)
    snap = lambda x: round(round(x * rate) / rate, 4)  # noqa: E731 - tiny local helper
    return Window(dist.name, dist.type, level, snap(start), snap(start + length))


def _visible_end(w: Window) -> Window:
    """Damaged packets spoil the picture until the next keyframe: the truth says so."""
    if DISTORTIONS[w.distortion].kind != "damage":
        return w
    return Window(w.distortion, w.type, w.level, w.start_s,
                  round(math.ceil(w.end_s / GOP_S + 1e-6) * GOP_S, 4))


def plan(clips: list[Clip], seed: int, long_videos: int = 2,
         window_s: tuple[float, float] = WINDOW_S) -> list[Spec]:
    """Every distortion at every level once, two windows of different types a video; frozen
    pictures in each finishing codec; damage; trends; a few 30-minute videos. Filter and
    codec windows last `window_s` seconds (LongVQUBench's events span 5 to 20 s)."""
    rng = random.Random(seed)
    rates = {c.name: frame_rate(c.path) for c in clips}
    names = sorted(rates)
    pool = [(d, lv) for d in DISTORTIONS.values() if d.kind in ("filter", "codec")
            for lv in LEVELS]
    rng.shuffle(pool)
    specs: list[Spec] = []
    dur = 180.0

    def two(tag: str, first: tuple[Distortion, int], second: tuple[Distortion, int],
            source: str, duration: float = dur, kind: str = "pair") -> Spec:
        rate = rates.get(source, 25.0)
        half = duration / 2
        a = _window(rng, first[0], first[1], 8.0, half - 4.0, rate, window_s)
        b = _window(rng, second[0], second[1], half + 4.0, duration - 8.0, rate, window_s)
        return Spec(tag, source, duration, (a, b), kind=kind)

    while pool:
        first = pool.pop()
        k = next((i for i, p in enumerate(pool) if p[0].type != first[0].type), None)
        second = pool.pop(k) if k is not None else None
        src = rng.choice(names)
        tag = f"p{len(specs):02d}-{first[0].name}{first[1]}"
        if second is None:
            rate = rates[src]
            specs.append(Spec(tag, src, dur, (_window(rng, first[0], first[1], 8, dur - 8,
                                                      rate, window_s),)))
            continue
        pair = [first, second]
        rng.shuffle(pair)
        specs.append(two(f"{tag}-{second[0].name}{second[1]}", pair[0], pair[1], src))
    freeze, damage = DISTORTIONS["freeze"], DISTORTIONS["damage"]
    for codec in FINISH_CODECS:
        src = rng.choice(names)
        rate = rates[src]
        wins = tuple(_window(rng, freeze, lv, 10 + 55 * i, 60 + 55 * i, rate)
                     for i, lv in enumerate(LEVELS))
        specs.append(Spec(f"f-{codec}", src, dur, wins, codec, kind="freeze"))
    for lv in LEVELS:
        src = rng.choice(names)
        specs.append(two(f"d-damage{lv}", (damage, lv), (damage, 4 - lv), src, kind="damage"))
    trends = [("gblur", (1, 2, 3)), ("noise-temporal", (3, 2, 1)), ("x264-qp", (1, 2, 3)),
              ("contrast", (3, 2, 1))]
    for name, levels in trends:
        src = rng.choice(names)
        rate = rates[src]
        wins = tuple(_window(rng, DISTORTIONS[name], lv, 10 + 55 * i, 60 + 55 * i, rate,
                             window_s) for i, lv in enumerate(levels))
        specs.append(Spec(f"t-{name}-{''.join(map(str, levels))}", src, dur, wins,
                          kind="trend"))
    for i in range(long_videos):
        d1, d2 = rng.sample([d for d in DISTORTIONS.values() if d.kind == "filter"], 2)
        specs.append(two(f"l{i}-{d1.name}-{d2.name}", (d1, 2), (d2, 2), "concat",
                         duration=1800.0, kind="long"))
    return specs


def build(corpus: Path | None, out: Path, seed: int = 16, long_videos: int = 2,
          only: str | None = None, part: str = "evaluation",
          window_s: tuple[float, float] = WINDOW_S) -> Path:
    """Make every planned video (resuming) and write truth.jsonl atomically; returns its path.
    `part` "calibration" makes the same kind of track on the calibration sources (for
    experiments that must not read the evaluation footage); every figure is read on
    "evaluation"."""
    clips = [c for c in corpus_clips(corpus, part=part, clean=True)
             if frame_rate(c.path) >= 10]
    if part == "calibration":  # 14 of its 21 clips are one cartoon's: two clips a source
        clips = [c for c in clips if sum(d.source == c.source for d in clips
                                         if d.name <= c.name) <= 2]
    by_name = {c.name: c for c in clips}
    specs = plan(clips, seed, long_videos, window_s)
    if only:
        specs = [s for s in specs if only in s.name]
    exe = track_ffmpeg(needed_encoders(specs))
    out.mkdir(parents=True, exist_ok=True)
    lines = []
    for i, spec in enumerate(specs):
        if spec.source == "concat":
            base = concatenated([c.path for c in clips], spec.duration_s,
                                out / ".base" / f"concat-{spec.duration_s:.0f}.mp4",
                                size=(MAX_WIDTH, 360))
        else:
            base = mezzanine(by_name[spec.source].path, spec.duration_s,
                             out / ".base" / f"{spec.source}-{spec.duration_s:.0f}.mp4", exe)
        print(f"[{i + 1}/{len(specs)}] {spec.name}", flush=True)
        video = render(spec, base, out, exe)
        wins = [asdict(_visible_end(w)) for w in spec.windows]
        lines.append(json.dumps({"video": video.name, "source": spec.source,
                                 "duration_s": spec.duration_s, "codec": spec.codec
                                 if video.suffix != ".ts" else "libx264-ts",
                                 "kind": spec.kind, "windows": wins}))
    truth = out / "truth.jsonl"
    tmp = _tmp(truth)
    tmp.write_text("\n".join(lines) + "\n")
    os.replace(tmp, truth)
    return truth


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--long", type=int, default=2, help="30-minute videos to make")
    ap.add_argument("--only", default=None, help="make only the videos whose name has this")
    ap.add_argument("--part", choices=("evaluation", "calibration"), default="evaluation",
                    help="which side of the corpus's source split the content comes from")
    ap.add_argument("--window-s", default=f"{WINDOW_S[0]:g},{WINDOW_S[1]:g}", metavar="MIN,MAX",
                    help="length range of filter and codec windows in seconds")
    args = ap.parse_args(argv)
    try:
        lo, hi = (float(x) for x in args.window_s.split(","))
    except ValueError:
        ap.error(f"--window-s wants MIN,MAX in seconds, got {args.window_s!r}")
    if not 0 < lo <= hi <= 60:
        ap.error(f"--window-s wants 0 < MIN <= MAX <= 60, got {args.window_s!r}")
    print(build(args.corpus, args.out, args.seed, args.long, args.only, args.part, (lo, hi)))


if __name__ == "__main__":
    main()
