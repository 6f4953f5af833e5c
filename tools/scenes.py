"""Shot boundaries with PySceneDetect's AdaptiveDetector, fed frame by frame from our one pass.

The adaptive detector compares each frame's content change with its neighbours' average, so a
sustained flicker or fast motion (high change on every frame) does not read as a cut, while a
cut (one isolated jump) does.
"""

from __future__ import annotations

import numpy as np
from scenedetect import FrameTimecode
from scenedetect.detectors import AdaptiveDetector

from tools.model import Scene

# Frames whose normalised pixels correlate above this with their predecessor show the same shot.
KEEP_STRUCTURE = 0.5
# A frame correlating below BREAK_CORR with its predecessor breaks the structure; when its
# neighbours all correlate above KEEP_AROUND with theirs, that break is a cut whatever the
# frame differences around it (flicker makes every difference large).
BREAK_CORR = 0.3
KEEP_AROUND = 0.8


class ShotDetector:
    """Collects cut frames while frames stream by; `scenes()` turns them into Scene records."""

    WINDOW = 2  # frames judged on each side: a cut is reported when the frame 2 after it is fed

    def __init__(self, fps: float, min_scene_s: float = 0.6, threshold: float = 3.0) -> None:
        self.fps = fps
        self._det = AdaptiveDetector(
            adaptive_threshold=threshold,
            min_scene_len=max(2, int(round(min_scene_s * fps))),
            window_width=self.WINDOW,
            min_content_val=15.0,
        )
        self.cuts: list[int] = []

    def feed(self, index: int, frame_bgr: np.ndarray) -> list[int]:
        """Process one frame (small BGR); returns cut frame numbers found so far by this call."""
        found = self._det.process_frame(FrameTimecode(index, fps=self.fps), frame_bgr)
        new = [int(tc.frame_num) for tc in found]
        self.cuts.extend(new)
        return new

    def scenes(
        self, times: np.ndarray, corr: np.ndarray | None = None, diff: np.ndarray | None = None
    ) -> list[Scene]:
        """Scenes covering all frames, given each frame's presentation time.

        With `corr` (per-frame structural correlation with the previous frame), a reported cut
        across which the picture keeps its structure is dropped: that is a change of tone (a
        brightness, contrast or colour shift starting), not a change of shot.
        """
        n = len(times)
        step = float(np.median(np.diff(times))) if n > 1 else 1.0 / self.fps
        cuts = sorted(c for c in set(self.cuts) if 0 < c < n)
        if corr is not None and len(corr) == n:
            cuts = [c for c in cuts if float(np.min(corr[max(1, c - 1) : c + 2])) < KEEP_STRUCTURE]
            if diff is not None and len(diff) == n:
                cuts = self._merge(cuts, structural_breaks(corr, diff), n)
        bounds = [0, *cuts, n]
        return [
            Scene(
                start_s=round(float(times[a]), 4),
                end_s=round(float(times[b - 1] + step), 4),
                start_frame=a,
                end_frame=b - 1,
            )
            for a, b in zip(bounds[:-1], bounds[1:], strict=True)
            if b > a
        ]

    def _merge(self, cuts: list[int], extra: np.ndarray, n: int) -> list[int]:
        """Add structural breaks the content detector missed, keeping scenes >= min length."""
        min_len = max(2, int(round(0.6 * self.fps)))
        out = sorted(set(cuts))
        for c in extra.tolist():
            if all(abs(c - k) >= min_len for k in out) and min_len <= c <= n - min_len:
                out.append(int(c))
                out.sort()
        return out


def structural_breaks(corr: np.ndarray, diff: np.ndarray, window: int = 5) -> np.ndarray:
    """Frames where the picture's structure breaks at once: near-zero correlation with the
    previous frame, and either a frame difference far above the neighbours' or neighbours that
    all keep their structure (a cut inside flicker, whose every frame differs in tone)."""
    d = np.nan_to_num(diff.astype(np.float64), nan=0.0)
    n = len(d)
    if n < 2 * window + 1:
        return np.zeros(0, dtype=int)

    def around(x: np.ndarray) -> np.ndarray:
        view = np.lib.stride_tricks.sliding_window_view(np.pad(x, window, mode="edge"),
                                                        2 * window + 1)
        return np.median(np.delete(view, window, axis=1), axis=1)

    c = np.nan_to_num(corr.astype(np.float64), nan=1.0)
    hits = (c < BREAK_CORR) & ((d > 3.0 * around(d) + 2.0) | (around(c) > KEEP_AROUND))
    return np.flatnonzero(hits)
