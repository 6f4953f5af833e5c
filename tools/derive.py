"""Scenes and events from an index's measured signals (no decoding): the detectors in order,
then the rules across them (freezes, damage, stretches across shots, footage held by design)
and the calibrated gates."""

from __future__ import annotations

import numpy as np

from tools.detectors import detect_events, gates
from tools.detectors.black import black_events, without_black
from tools.detectors.blur_grade import regraded
from tools.detectors.coder_softness import recoded
from tools.detectors.confirm import confirm
from tools.detectors.corruption import (
    corruption_events,
    damage_spans,
    explained_by_damage,
    without_damage_cuts,
)
from tools.detectors.exposure import darkened
from tools.detectors.frame_drop import SUBTYPE as RATE_DROP
from tools.detectors.freeze import freeze_events
from tools.detectors.interlace import (
    combed_field_pairs,
    explained_by_combing,
    interlace_events,
    without_field_pairs,
)
from tools.detectors.screen import without_design
from tools.detectors.stretches import merged, stretch_events
from tools.detectors.tint import named_tints
from tools.detectors.twin_events import judged_with_twins
from tools.model import Event, Scene
from tools.scenes import KEEP_STRUCTURE, ShotDetector

# A cut this far inside a frame-rate drop (s) is one of its jumps; at its edges it may be a
# real cut that the drop starts or ends at.
JOIN_MARGIN_S = 0.5


def derive(
    fps: float,
    frames: dict[str, np.ndarray],
    samples: dict[str, np.ndarray],
    raw_cuts: list[int],
    gated: bool = True,
    twins: bool = True,
) -> tuple[list[Scene], list[Event]]:
    """Scenes and events from measured signals and the shot detector's raw cuts (no decoding).

    The detectors' raw events pass the calibrated limits of clean real footage (see
    tools/detectors/confirm.py) and, unless `gated` is off (calibration itself), their
    type's clean-footage severity gate, and soft stretches with the coder's kinks become
    compression (tools/detectors/coder_softness.py) and the blur left is graded on one scale
    (tools/detectors/blur_grade.py); then they are cut to the video and de-duplicated.
    `twins` off leaves out the judgement against the same picture elsewhere (the
    calibration's gates are set without it: see bench/calibrate.py).
    """
    damage = corruption_events(frames, fps)
    cuts, corr = without_damage_cuts(frames, raw_cuts, damage, kept_structure(frames))
    shots = ShotDetector(fps)
    shots.cuts = cuts
    scenes = shots.scenes(frames["t"], corr, frames.get("diff"))
    events = _events(frames, samples, scenes, fps, damage, twins)
    joined = joined_across(scenes, [(e.start_s, e.end_s) for e in events
                                    if e.subtype == RATE_DROP], frames)
    if len(joined) < len(scenes):  # a rate drop's jumps are no cuts: judged again without
        scenes, events = joined, _events(frames, samples, joined, fps, damage, twins)
    # an interlaced stretch's own halved rate
    events = explained_by_combing(without_field_pairs(combed_field_pairs(events, samples,
                                                                         scenes)))
    if gated:  # (the gates' and limits' own calibration sees the blur detectors' events)
        events = darkened(regraded(recoded(gates.gated(events), samples, scenes), samples,
                                   scenes), samples, scenes)
    t = frames.get("t", np.zeros(0))
    duration = float(t[-1] + 1.0 / fps) if len(t) else None
    events = gates.deduplicated(events)
    if gated:  # (pieces are joined after the gates, which judged each piece: the gates'
        events = gates.joined_pieces(events)  # own calibration sees the pieces)
    events = without_design(gates.clipped(events, duration), frames, duration)
    return scenes, sorted(named_tints(events, samples), key=lambda e: (e.start_s, e.type))


def _events(frames: dict[str, np.ndarray], samples: dict[str, np.ndarray],
            scenes: list[Scene], fps: float, damage: list[Event],
            twins: bool = True) -> list[Event]:
    """The events of the detectors, freezes, stretches, interlacing and damage for these
    scenes (before the gates)."""
    events = detect_events(frames, samples, scenes, fps, damaged=damage_spans(damage))
    blacks = black_events(frames, fps)
    freezes = without_black(freeze_events(frames, fps), blacks)
    events = confirm([e for e in events if not _inside_any(e, freezes)]) + freezes
    events = merged(events, stretch_events(samples, frames, [c.start_s for c in scenes[1:]],
                                           events))
    if twins:
        events = judged_with_twins(events, samples, frames, fps, scenes)
    events = without_black(events + interlace_events(samples, scenes), blacks) + blacks
    return explained_by_damage(events, damage) + damage


def joined_across(scenes: list[Scene], spans: list[tuple[float, float]],
                  frames: dict[str, np.ndarray] | None = None) -> list[Scene]:
    """The scenes with those split inside one of the `spans` joined again: a stream falling
    to a fifth of its rate jumps between held pictures, and the shot detector reads cuts
    there (three of them in a 20-s drop of a one-shot clip, whose end runs were then judged
    as shots of their own and read "too bright" all through). With `frames`, a cut that
    stands out from the drop's own jumps (`cut_among_jumps`) stays: footage of short shots
    keeps its cuts through a drop (each shot judged on its own baseline)."""
    if not spans or len(scenes) < 2:
        return scenes
    corr = kept_structure(frames) if frames is not None else None
    out = [scenes[0]]
    for sc in scenes[1:]:
        if any(a + JOIN_MARGIN_S < sc.start_s < b - JOIN_MARGIN_S for a, b in spans) and not (
                corr is not None and cut_among_jumps(frames, corr, sc.start_frame)):
            last = out[-1]
            out[-1] = Scene(start_s=last.start_s, end_s=sc.end_s,
                            start_frame=last.start_frame, end_frame=sc.end_frame)
        else:
            out.append(sc)
    return out


# A cut inside a rate drop changes the picture far more than the drop's own jumps do: its
# frame difference is CUT_OVER_JUMPS times the JUMP_PERCENTILE-th of the differences within
# JUMP_AROUND_S of it (the jumps, at a third or a fifth of the rate, are more than a tenth of
# those frames), and it keeps little of the previous picture's structure.
CUT_OVER_JUMPS = 4.0
JUMP_PERCENTILE = 90.0
JUMP_AROUND_S = 2.0


def cut_among_jumps(frames: dict[str, np.ndarray], corr: np.ndarray, k: int) -> bool:
    """Whether frame `k`, read as a cut inside a rate drop, is a change of shot (`corr`: the
    frames' `kept_structure`)."""
    diff, t = frames.get("diff"), frames.get("t")
    if diff is None or t is None or not 0 < k < len(diff):
        return False
    tt = np.asarray(t, dtype=np.float64)
    # the frames within JUMP_AROUND_S of it, but for it and its neighbours
    lo = int(np.searchsorted(tt, tt[k] - JUMP_AROUND_S, side="left"))
    hi = int(np.searchsorted(tt, tt[k] + JUMP_AROUND_S, side="right"))
    d = np.nan_to_num(np.asarray(diff[lo:hi], dtype=np.float64), nan=0.0)
    near = d[np.abs(np.arange(lo, hi) - k) > 1]
    if len(near) < 5:
        return False
    jumps = float(np.percentile(near, JUMP_PERCENTILE))
    return bool(float(np.nan_to_num(diff[k], nan=0.0)) > CUT_OVER_JUMPS * max(jumps, 0.5)
                and float(np.min(corr[max(1, k - 1): k + 2])) < KEEP_STRUCTURE)


def kept_structure(frames: dict[str, np.ndarray]) -> np.ndarray | None:
    """Per frame, how much of the previous frame's structure it keeps: the fine correlation,
    or the coarse one where higher (heavy grain or blur starting breaks only the fine)."""
    corr, coarse = frames.get("corr"), frames.get("coarse_corr")
    if corr is None or coarse is None or len(coarse) != len(corr):
        return corr
    return np.fmax(np.asarray(corr, dtype=np.float64), np.asarray(coarse, dtype=np.float64))


# Event types measured on the picture itself: a held picture measures unlike the moving
# footage around it (no motion blur; the coder refines it frame after frame: an MPEG-2 freeze
# of a coin on a table read as blocking against the moving shot), which is the freeze.
HELD_PICTURE_TYPES = ("stutter", "frame_drop", "blur", "noise", "compression", "sharpening")


def _inside_any(e: Event, freezes: list[Event]) -> bool:
    """A repeated-frames event, or a measure of the held picture's detail, lying mostly
    inside a frozen picture is that freeze."""
    if e.type not in HELD_PICTURE_TYPES:
        return False
    span = max(e.end_s - e.start_s, 1e-6)
    return any(min(e.end_s, f.end_s) - max(e.start_s, f.start_s) >= 0.5 * span for f in freezes)
