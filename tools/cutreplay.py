"""Shot cuts from stored per-frame content scores, so a resumed build finds the same cuts.

The shot detector (tools.scenes.ShotDetector, PySceneDetect's AdaptiveDetector) scores each
frame against the one before it, then judges each score against its neighbours'. The scores
are kept with the index build's chunks; replaying them through the same detector, configured
exactly as ShotDetector configures it, gives the cuts an uninterrupted pass finds.
"""

from __future__ import annotations

import copy

import numpy as np
from scenedetect import FrameTimecode
from scenedetect.detectors import AdaptiveDetector

from tools.scenes import ShotDetector


class _ScoreReplay(AdaptiveDetector):
    """An AdaptiveDetector fed stored frame scores in place of pictures."""

    def _calculate_frame_score(self, timecode: FrameTimecode, frame_img) -> float:
        return float(frame_img)


def frame_score(shots: ShotDetector) -> float:
    """The content score the live detector gave the frame it was last fed."""
    return float(getattr(shots._det, "_frame_score", None) or 0.0)


def _fed(det: _ScoreReplay, fps: float, scores: np.ndarray) -> list[int]:
    """The cut frame numbers a replaying detector reports while fed `scores` from frame 0."""
    cuts: list[int] = []
    for i, s in enumerate(np.asarray(scores, dtype=np.float64).tolist()):
        cuts.extend(int(tc.frame_num) for tc in det.process_frame(FrameTimecode(i, fps=fps), s))
    return cuts


def replay_cuts(fps: float, scores: np.ndarray) -> list[int]:
    """Cut frame numbers of a whole video from its per-frame content scores."""
    live = ShotDetector(fps)._det
    det = _ScoreReplay.__new__(_ScoreReplay)
    det.__dict__.update(copy.deepcopy(live.__dict__))
    return _fed(det, fps, scores)


def resume_detector(fps: float, scores: np.ndarray, last_small: np.ndarray) -> ShotDetector:
    """A live detector as an unbroken pass's after frames scored `scores`, the last `last_small`."""
    shots = ShotDetector(fps)
    det = shots._det
    det.__class__ = _ScoreReplay
    try:
        shots.cuts.extend(_fed(det, fps, scores))
    finally:
        det.__class__ = AdaptiveDetector
    # the next frame's score is against this picture (the first call only stores it)
    AdaptiveDetector._calculate_frame_score(det, FrameTimecode(len(scores) - 1, fps=fps),
                                            last_small)
    return shots
