"""Events that reach across cuts: whole scenes that sit as far off as the run beside them
join it (a degradation spanning a cut, or covering whole shots between two of its ends)."""

from __future__ import annotations

import numpy as np

from tools.detectors.series import runs
from tools.detectors.spatial_spec import SpatialSpec, deviation, signed

# Passes over the runs (a bridged scene can reach the next cut).
BRIDGE_ROUNDS = 4
# A scene joins a run when it sits at least this share of the run's deviation off the run's
# baseline, but less than BRIDGE_FAR x it (plus the threshold): wildly further is content.
BRIDGE_NEAR = 0.6
BRIDGE_FAR = 3.0
# Two-sided signals: the scene's level lies within this share of the run's deviation of the
# run's own level (it moved the same way).
BRIDGE_SAME_WAY = 0.5
# Whole scenes between two runs that end and start at cuts join them up to this long a gap.
SANDWICH_MAX_S = 30.0


def bridge_scenes(flag, x, sid, refs, dev, spec: SpatialSpec,
                  thr: float) -> tuple[np.ndarray, np.ndarray]:
    """Extend a run that reaches a cut over the next scene when that whole scene is at least
    as far from the run's own scene baseline as the run is (a degradation spanning the cut),
    and that scene has no baseline of its own (too short) or is the first or last one.
    Bridged samples get their deviation measured against that baseline."""
    flag, dev = flag.copy(), dev.copy()
    n = len(flag)
    n_scenes = int(sid.max()) + 1 if n else 0
    for _ in range(BRIDGE_ROUNDS):
        changed = False
        for a, b in runs(flag):
            for edge, nxt in ((b - 1, b), (a, a - 1)):
                if not (0 <= nxt < n) or sid[nxt] == sid[edge] or flag[nxt]:
                    continue
                if np.isfinite(refs[sid[nxt]]) and 0 < sid[nxt] < n_scenes - 1:
                    continue  # judged on its own baseline; whole middle scenes: sandwich
                base = refs[sid[edge]]
                other = sid == sid[nxt]
                other_level = np.nanmedian(x[other]) if np.isfinite(x[other]).any() else np.nan
                run_dev = np.nanmedian(dev[a:b])
                if not (np.isfinite(other_level) and np.isfinite(base) and np.isfinite(run_dev)):
                    continue
                if run_dev < thr:
                    continue  # only a clear degradation is followed across a cut
                other_dev = deviation(np.array([other_level]), base, spec)[0]
                # as far off as the run, but not wildly further (that is other content)
                far = max(thr, BRIDGE_NEAR * run_dev) < other_dev < BRIDGE_FAR * run_dev + thr
                if spec.direction == 0:
                    # Two-sided signals (hue, saturation) must also move the same way.
                    run_level = np.nanmedian(x[a:b])
                    far = far and abs(float(signed(other_level - run_level, spec))) < max(
                        thr, BRIDGE_SAME_WAY * run_dev
                    )
                if far:
                    flag[other] = True
                    dev[other] = deviation(x[other], base, spec)
                    changed = True
        if not changed:
            break
    return flag, dev


def sandwich(flag, dev, x, sid, refs, t, spec: SpatialSpec, thr: float,
             max_gap_s: float = SANDWICH_MAX_S) -> tuple[np.ndarray, np.ndarray]:
    """Join a run that ends at a cut with a later run that starts at a cut when only whole
    scenes lie between them and those scenes sit as far from the first run's baseline as a
    degradation would: one degradation covering them entirely (whose level a scene-relative
    baseline cannot see) is far likelier than two stopping at cuts by chance."""
    flag, dev = flag.copy(), dev.copy()
    found = runs(flag)
    for (_, b0), (a1, _) in zip(found[:-1], found[1:], strict=True):
        ends_at_cut = b0 < len(sid) and sid[b0] != sid[b0 - 1]
        starts_at_cut = a1 > 0 and sid[a1] != sid[a1 - 1]
        if not (ends_at_cut and starts_at_cut and t[a1] - t[b0 - 1] <= max_gap_s):
            continue
        base = refs[sid[b0 - 1]]
        between = deviation(x[b0:a1], base, spec)
        if np.isfinite(base) and np.nanmedian(between) >= thr:
            flag[b0:a1] = True
            dev[b0:a1] = between
    return flag, dev
