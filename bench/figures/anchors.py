"""ffmpeg's own detectors as the anchor to beat: freezedetect run on the same items."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tools.ffmpeg import ffmpeg_exe

_START = re.compile(r"freeze_start: ([\d.]+)")
_END = re.compile(r"freeze_end: ([\d.]+)")


def freezedetect(video: Path, noise_db: float = -60.0,
                 min_s: float = 2.0) -> list[tuple[float, float]]:
    """Frozen spans ffmpeg's `freezedetect` reports (its defaults: -60 dB, 2 s)."""
    cmd = [ffmpeg_exe(), "-hide_banner", "-nostats", "-i", str(video), "-map", "0:v:0",
           "-vf", f"freezedetect=n={noise_db}dB:d={min_s}", "-f", "null", "-"]
    log = subprocess.run(cmd, capture_output=True, text=True, check=False).stderr
    starts = [float(x) for x in _START.findall(log)]
    ends = [float(x) for x in _END.findall(log)]
    if len(ends) < len(starts):  # frozen to the end of the file
        ends.append(float("inf"))
    return list(zip(starts, ends, strict=False))


_VALUE = {"blurdetect": re.compile(r"lavfi\.blur=([\d.]+)"),
          "blockdetect": re.compile(r"lavfi\.block=([\d.]+)")}
_PTS = re.compile(r"pts_time:([\d.]+)")


def metric_series(video: Path, name: str) -> tuple[list[float], list[float]]:
    """(times, values) of ffmpeg's per-frame `blurdetect` or `blockdetect` metric."""
    cmd = [ffmpeg_exe(), "-hide_banner", "-nostats", "-i", str(video), "-map", "0:v:0",
           "-vf", f"{name},metadata=mode=print", "-f", "null", "-"]
    log = subprocess.run(cmd, capture_output=True, text=True, check=False).stderr
    times: list[float] = []
    values: list[float] = []
    t = None
    for line in log.splitlines():
        m = _PTS.search(line)
        if m:
            t = float(m.group(1))
        v = _VALUE[name].search(line)
        if v and t is not None:
            times.append(t)
            values.append(float(v.group(1)))
    return times, values


def outlier_spans(times: list[float], values: list[float], min_s: float = 1.0,
                  gap_s: float = 1.0) -> list[tuple[float, float]]:
    """Spans where a metric (smoothed over 1 s) stands above the video's median by 3 robust
    sigmas: the plainest rule to turn an anchor's per-frame metric into events."""
    import numpy as np

    if len(values) < 3:
        return []
    t, v = np.asarray(times), np.asarray(values)
    k = max(1, int(round(1.0 / max(float(np.median(np.diff(t))), 1e-3))))
    smooth = np.array([np.median(v[max(0, i - k // 2): i + k // 2 + 1]) for i in range(len(v))])
    med = float(np.median(smooth))
    sigma = 1.4826 * float(np.median(np.abs(smooth - med))) or 1e-9
    high = smooth > med + 3 * sigma
    spans: list[list[float]] = []
    for i in np.flatnonzero(high):
        if spans and t[i] - spans[-1][1] <= gap_s:
            spans[-1][1] = float(t[i])
        else:
            spans.append([float(t[i]), float(t[i])])
    return [(a, b) for a, b in spans if b - a >= min_s]
