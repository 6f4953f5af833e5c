"""Questions about the file itself ("what is the frame rate of this video?"): answered from
the facts the overview reports (size, frame rate, codec, length), not from quality events."""

from __future__ import annotations

import os
import re
from typing import Any

from agent.brains.local.common import yes_no
from agent.brains.local.evidence import Evidence
from agent.context import RunContext
from agent.questions import Question
from agent.timefmt import hms

# Common names of codecs as the decoder reports them, and as people write them.
_CODECS = {"h264": ("h.264", "h264", "avc", "x264"), "hevc": ("h.265", "h265", "hevc", "x265"),
           "vp9": ("vp9",), "vp8": ("vp8",), "av1": ("av1",), "mpeg2video": ("mpeg-2", "mpeg2"),
           "mpeg4": ("mpeg-4", "mpeg4", "xvid", "divx"), "mjpeg": ("mjpeg", "motion jpeg"),
           "prores": ("prores",), "theora": ("theora",)}
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_SIZE = re.compile(r"(\d{3,4})\s*[x×]\s*(\d{3,4})|(\d{3,4})\s*p\b|\b(4k|uhd|full hd|hd)\b", re.I)
_NAMED_HEIGHT = {"4k": 2160, "uhd": 2160, "full hd": 1080, "hd": 720}


def _fits(option: str, video: dict[str, Any], asks: str) -> float:
    """How far an option's claim is from the video's fact (0 = exact, inf = says nothing)."""
    text = option.lower()
    if asks == "codec":
        names = _CODECS.get(str(video.get("codec", "")).lower(), (str(video.get("codec")),))
        return 0.0 if any(n in text for n in names) else float("inf")
    if asks == "size":
        m = _SIZE.search(text)
        if not m:
            return float("inf")
        if m.group(1):
            return abs(int(m.group(1)) - video["width"]) + abs(int(m.group(2)) - video["height"])
        h = int(m.group(3)) if m.group(3) else _NAMED_HEIGHT[m.group(4).lower()]
        return abs(h - min(video["width"], video["height"]))
    nums = [float(x) for x in _NUMBER.findall(text)]
    if not nums:
        return float("inf")
    want = video["fps"] if asks == "fps" else video["n_frames"] if asks == "frames" else \
        video["duration_s"] / (60.0 if re.search(r"\bmin", text) else 1.0)
    return min(abs(n - want) / max(want, 1e-6) for n in nums)


def _asks(text: str) -> str:
    """Which fact a question asks for (the first named), or "all"."""
    low = text.lower()
    for key, rx in (("fps", r"frame\s*-?rate|fps|frames per second"),
                    ("frames", r"how many frames"),
                    ("size", r"resolution|dimension|size|width|height|how (?:big|large|wide|tall)"),
                    ("codec", r"codec|format|container|encod"),
                    ("duration", r"duration|length|long|running time|runtime")):
        if re.search(rx, low):
            return key
    return "all"


# "Is the video HD?": the least picture height each class names (SD: below HD's)
_CLASSES = ((re.compile(r"\b(?:4k|uhd|ultra\s+hd|2160p)\b", re.I), 2160),
            (re.compile(r"\b(?:full\s+hd|1080p)\b", re.I), 1080),
            (re.compile(r"\b(?:hd|high\s+definition|720p)\b", re.I), 720))
_SD = re.compile(r"\b(?:sd|standard\s+definition)\b", re.I)


def _bitrate(path: str, seconds: float) -> str:
    """The file's average bit rate (size over duration, audio and container included)."""
    try:
        size = os.path.getsize(path)
    except OSError:
        return ""
    return f", averaging {size * 8 / max(seconds, 1e-6) / 1e6:.2f} Mbit/s over the file" \
        if seconds > 0 else ""


def _definition(q: Question, video: dict[str, Any]) -> bool | None:
    """Whether the picture is of the class a yes/no question names ("HD", "4K", "SD")."""
    lines = min(video["width"], video["height"])
    if _SD.search(q.text):
        return lines < 720
    return next((lines >= need for rx, need in _CLASSES if rx.search(q.text)), None)


def facts_answer(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The video's facts in one sentence; of options, the one nearest the fact asked."""
    video = ev.overview.get("video") or {}
    if not video:
        return {"answer": "The video's facts could not be read.", "choice": None,
                "confidence": 0.0}
    rate = "variable" if video.get("vfr") else "constant"
    text = (f"The video is {video['width']}x{video['height']} at {video['fps']:.3g} fps "
            f"({rate} frame rate), coded as {video['codec']}, {hms(video['duration_s'])} long "
            f"({video['n_frames']} frames{_bitrate(ctx.video, video['duration_s'])}). These "
            "are the file's facts, not a quality measurement.")
    if (holds := _definition(q, video)) is not None:
        return {"answer": ("Yes. " if holds else "No. ") + text,
                "choice": yes_no(q, holds), "segments": [], "confidence": 0.9}
    choice = None
    if q.options:
        asks = _asks(q.text)
        scored = [(_fits(o.text, video, asks), o.letter) for o in q.options] if asks != "all" \
            else []
        best = min(scored, default=(float("inf"), None))
        choice = best[1] if best[0] != float("inf") else None
    return {"answer": text, "choice": choice, "segments": [], "confidence": 0.9}
