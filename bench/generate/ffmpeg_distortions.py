"""The ffmpeg distortion track's distortions: ffmpeg's own filters and encoders, three levels each.

Independent of `bench/distort.py` (the project's numpy generator): every degradation here is an
ffmpeg filter chain applied to one window of a real clip, or a real encoder run over it, so the
artefacts are those of ffmpeg's code, not of ours. Each entry names the event type a quality
analyzer should report for it; `window_chain` gets the clip's rate and size so that every
chain hands back frames at the rate and size it was given (the window is spliced back in).
"""

from __future__ import annotations

from dataclasses import dataclass, field

LEVELS = (1, 2, 3)


@dataclass(frozen=True)
class Distortion:
    """One ffmpeg degradation: its event type, a filter chain per level, and how it is applied.

    kind "filter": `levels[k]` is a filter chain run over the window's frames.
    kind "codec": `levels[k]` is a list of encoder arguments the window is re-encoded with.
    kind "freeze": the window shows its first frame; `levels` holds the window length in s.
    kind "damage": packets of the window are corrupted with the `noise` bitstream filter;
    `levels` holds its `amount` (lower is more damage).
    """

    name: str
    type: str
    kind: str
    levels: tuple[str, str, str]
    what: str
    temporal: bool = False  # changes frame timing (rate drops): frames are re-timed after
    extra: dict[str, str] = field(default_factory=dict)


def _d(name: str, type_: str, kind: str, levels: tuple[str, str, str], what: str,
       **kw) -> Distortion:
    return Distortion(name, type_, kind, levels, what, **kw)


DISTORTIONS: dict[str, Distortion] = {d.name: d for d in (
    _d("gblur", "blur", "filter", ("gblur=sigma=1.5", "gblur=sigma=3", "gblur=sigma=6"),
       "Gaussian blur"),
    _d("boxblur", "blur", "filter", ("boxblur=2:1", "boxblur=4:1", "boxblur=7:1"), "box blur"),
    _d("defocus", "blur", "filter", ("avgblur=sizeX=2", "avgblur=sizeX=4", "avgblur=sizeX=7"),
       "defocus (average blur)"),
    _d("downscale", "blur", "filter",
       ("scale=iw/2:-2,scale={w}:{h}", "scale=iw/3:-2,scale={w}:{h}",
        "scale=iw/5:-2,scale={w}:{h}"), "resolution loss (scaled down, then up)"),
    _d("noise-temporal", "noise", "filter",
       ("noise=alls=10:allf=t", "noise=alls=20:allf=t", "noise=alls=40:allf=t"),
       "temporal noise"),
    _d("noise-pixel", "noise", "filter",
       ("noise=alls=10:allf=u", "noise=alls=20:allf=u", "noise=alls=40:allf=u"),
       "per-pixel (fixed-pattern) noise"),
    _d("brighten", "exposure", "filter",
       ("eq=brightness=0.15", "eq=brightness=0.25", "eq=brightness=0.4"), "overexposure"),
    _d("darken", "exposure", "filter",
       ("eq=brightness=-0.15", "eq=brightness=-0.25", "eq=brightness=-0.4"), "underexposure"),
    _d("gamma", "exposure", "filter", ("eq=gamma=1.6", "eq=gamma=2.2", "eq=gamma=3.0"),
       "gamma lift (washed out)"),
    _d("contrast", "exposure", "filter",
       ("eq=contrast=0.6", "eq=contrast=0.45", "eq=contrast=0.3"), "low contrast"),
    _d("hue", "colour", "filter", ("hue=h=30", "hue=h=60", "hue=h=120"), "hue rotation"),
    _d("saturate", "colour", "filter",
       ("eq=saturation=1.8", "eq=saturation=2.4", "eq=saturation=3.0"), "oversaturation"),
    _d("desaturate", "colour", "filter",
       ("eq=saturation=0.4", "eq=saturation=0.2", "eq=saturation=0"), "washed-out colour"),
    _d("colorbalance", "colour", "filter",
       ("colorbalance=rs=0.2:gs=0.05:bs=-0.2:rm=0.2:bm=-0.2",
        "colorbalance=rs=0.35:gs=0.1:bs=-0.35:rm=0.35:bm=-0.35",
        "colorbalance=rs=0.5:gs=0.15:bs=-0.5:rm=0.5:bm=-0.5:rh=0.3:bh=-0.3"), "colour cast"),
    _d("unsharp", "sharpening", "filter",
       ("unsharp=5:5:1.5", "unsharp=7:7:2.5", "unsharp=9:9:4"), "over-sharpening (unsharp)"),
    _d("flicker", "flicker", "filter",
       ("eq=brightness='0.05*sin(2*PI*{hz}*t)':eval=frame",
        "eq=brightness='0.1*sin(2*PI*{hz}*t)':eval=frame",
        "eq=brightness='0.18*sin(2*PI*{hz}*t)':eval=frame"), "brightness flicker",
       extra={"hz": "4"}),
    _d("shake", "jitter", "filter",
       ("crop=iw-{a2}:ih-{a2}:'{a}+{a}*sin(2*PI*2.7*t)*cos(2*PI*1.1*t)':"
        "'{a}+{a}*cos(2*PI*3.3*t)*sin(2*PI*0.7*t)',scale={w}:{h}",) * 3,
       "camera shake (moving crop)", extra={"amp": "4,8,16"}),
    _d("framerate", "frame_drop", "filter",
       ("fps={rate2},fps={rate}", "fps={rate3},fps={rate}", "fps={rate5},fps={rate}"),
       "frame-rate drop (fps down, then back)", temporal=True),
    _d("interlace", "interlace", "filter",
       ("interlace=scan=tff:lowpass=off,fps={rate}",) * 3, "interlacing (fields merged)",
       temporal=True, extra={"scale": "1,1,1"}),
    _d("x264-qp", "compression", "codec",
       ("-c:v libx264 -qp 38", "-c:v libx264 -qp 44", "-c:v libx264 -qp 51"),
       "low-bitrate H.264 (high QP)"),
    _d("mpeg2", "compression", "codec",
       ("-c:v mpeg2video -q:v 14", "-c:v mpeg2video -q:v 22", "-c:v mpeg2video -q:v 31"),
       "low-quality MPEG-2"),
    _d("mjpeg", "compression", "codec",
       ("-c:v mjpeg -q:v 18 -pix_fmt yuvj420p", "-c:v mjpeg -q:v 25 -pix_fmt yuvj420p",
        "-c:v mjpeg -q:v 31 -pix_fmt yuvj420p"), "low-quality Motion JPEG"),
    _d("freeze", "freeze", "freeze", ("2", "4", "8"), "frozen picture (first frame held)"),
    _d("damage", "corruption", "damage", ("2000", "600", "200"),
       "packet damage (noise bitstream filter)"),
)}

# Output encodes a track video is finished with: the frozen picture is tried in each.
FINISH_CODECS: dict[str, tuple[str, list[str]]] = {
    "libx264": (".mp4", ["-c:v", "libx264", "-preset", "veryfast", "-crf", "20"]),
    "libx264-crf28": (".mp4", ["-c:v", "libx264", "-preset", "veryfast", "-crf", "28"]),
    "vp9": (".webm", ["-c:v", "libvpx-vp9", "-crf", "34", "-b:v", "0", "-deadline", "realtime",
                      "-cpu-used", "8", "-row-mt", "1"]),
    "mpeg2": (".mpg", ["-c:v", "mpeg2video", "-q:v", "4", "-f", "mpeg"]),
    "mpeg2-q10": (".mpg", ["-c:v", "mpeg2video", "-q:v", "10", "-f", "mpeg"]),
}


def window_chain(dist: Distortion, level: int, rate: float, size: tuple[int, int]) -> str:
    """The filter chain for one level, filled in with the clip's rate and size."""
    w, h = size
    a = int(dist.extra.get("amp", "0,0,0").split(",")[level - 1])
    values = {"w": w, "h": h, "rate": f"{rate:.6g}", "rate2": f"{rate / 2:.6g}",
              "rate3": f"{rate / 3:.6g}", "rate5": f"{rate / 5:.6g}",
              "hz": dist.extra.get("hz", "4"), "a": a, "a2": 2 * a}
    chain = dist.levels[level - 1]
    for k, v in values.items():
        chain = chain.replace("{" + k + "}", str(v))
    return chain


def codec_args(dist: Distortion, level: int) -> list[str]:
    """Encoder arguments for a "codec" distortion's level."""
    return dist.levels[level - 1].split()
