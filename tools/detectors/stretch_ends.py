"""Where a stretch's ends lie: at a shot cut, inside a shot where the picture changes, or
around a run of whole shots (tools/detectors/stretches.py judges each stretch by them)."""

from __future__ import annotations

import numpy as np

CUT_NEAR_S = 0.5  # a stretch end this close to a shot cut (one sample) is the cut
# An end inside a shot must be a change of the picture there: the stretch's part of the shot
# differs from the rest of the shot by at least this share of the limit. Otherwise the shot as
# a whole looks different and the end only marks a moment inside it (a montage clip soft
# throughout, with a blink of focus 8 s in).
INSHOT_SHARE = 0.5
# ... and the rest must hold this much of the shot: its first or last 2 s (4 samples, about
# a GOP of the usual encoders) are too few to say the picture changed. Encoders code a
# shot's first frames apart (the key frame at a cut): the same second of a clean clip read
# sharpness 716 in one loop of a montage and 1,551-2,515 in another.
INSHOT_LEAST_S = 2.0
# Footage cut every few seconds (a looped short clip, a montage) leaves no shot in which a
# stretch's end can be seen to change the picture: a stretch of whole shots (at least
# SHOTS_LEAST cuts inside it, each end at a cut or in a shot too short to judge) is judged
# against its own calibrated limit, `stretch.<measure>_shots`, measured on clean footage
# with only such stretches counted (a run of unrelated shots that merely looks different
# is what a montage is made of, so that limit is set by the clean montages).
SHOTS_LEAST = 2


def at_cut(x: float, cuts: np.ndarray) -> bool:
    """Whether a time lies at one of the cuts (within CUT_NEAR_S)."""
    return bool(len(cuts)) and float(np.min(np.abs(cuts - x))) <= CUT_NEAR_S


def changes_in_shot(t: np.ndarray, x: np.ndarray, at: float, start: float, end: float,
                     cuts: np.ndarray, direction: int, least: float, step: float) -> bool:
    """Whether the stretch [start, end) differs from the rest of the shot holding `at` (one
    of its ends) by `least` in the degraded direction; False when the rest is too short to
    judge (the end is then the shot's cut)."""
    lo = float(cuts[cuts <= at].max()) if (cuts <= at).any() else -np.inf
    hi = float(cuts[cuts > at].min()) if (cuts > at).any() else np.inf
    shot = (t >= lo) & (t < hi) & np.isfinite(x)
    inside = shot & (t >= start) & (t < end)
    rest = shot & ~((t >= start) & (t < end))
    if rest.sum() * step < INSHOT_LEAST_S or not inside.any():
        return False
    return bool(direction * (np.median(x[inside]) - np.median(x[rest])) >= least)


def whole_shots(t: np.ndarray, x: np.ndarray, start: float, end: float, cuts: np.ndarray,
                 direction: int, least: float, step: float, in_shot: bool) -> bool:
    """Whether [start, end) is a run of whole shots: SHOTS_LEAST cuts or more inside it, and
    each end at a cut or in a shot too short to tell whether the picture changed there (with
    `in_shot`; a shot long enough to judge must show the change, as for any stretch)."""
    inner = cuts[(cuts > start + CUT_NEAR_S) & (cuts < end - CUT_NEAR_S)]
    if len(inner) < SHOTS_LEAST:
        return False
    if not in_shot:
        return True
    for at in (start, end - 1e-6):
        if at_cut(at, cuts):
            continue
        lo = float(cuts[cuts <= at].max()) if (cuts <= at).any() else -np.inf
        hi = float(cuts[cuts > at].min()) if (cuts > at).any() else np.inf
        shot = (t >= lo) & (t < hi) & np.isfinite(x)
        rest = shot & ~((t >= start) & (t < end))
        if rest.sum() * step >= INSHOT_LEAST_S and not changes_in_shot(
                t, x, at, start, end, cuts, direction, least, step):
            return False
    return True
