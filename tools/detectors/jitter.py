"""Jitter: camera shake, a global translation that reverses direction several times a second
with no net drift, well above the motion the same footage shows around it.

A pan drifts one way and hand-held footage sways slowly: both are followed by a local
quadratic fit of the picture's global displacement over HIGH_PASS_S; what the fit cannot
follow (back and forth faster than about once a second) is the shake. Its level is the RMS of
that residual over LEVEL_S; an event is where the level holds for MIN_S at a calibrated ratio
above the footage's usual level (hand-held clips shake a little all the time: that is their
look), beyond the floor of what can be seen at all.

A camera has mass: its motion is smooth from one frame to the next. A picture displaced at
random every frame (film-gate weave, a bad capture or stabiliser) is not any camera's look, so
it is judged on its own level, however long it lasts: where the frame-to-frame reversal
(second difference of the displacement) carries most of the shake (WHITE_SHARE), that level
is held against a calibrated absolute limit instead of the footage's usual one.
"""

from __future__ import annotations

import warnings

import numpy as np

from tools.detectors.around import longest_departure, usual_level
from tools.detectors.base import Context, Detector, scene_ids
from tools.detectors.calibration import CleanVideo, Quantity, declare, value
from tools.detectors.frame_drop import holds
from tools.detectors.repeats import frozen
from tools.detectors.series import merge_runs, overlap_share, runs
from tools.detectors.temporal import near_cut
from tools.model import Event

# Shake moves the whole picture as one: phase correlation finds it with a strong peak. Frames
# whose global-motion estimate has less confidence than this (content moving on its own: a
# bike race, a cartoon's smear frames) are not judged (their motion is interpolated from the
# frames around); a level window with more than BAD_SHARE of them is not judged at all.
MOTION_CONFIDENCE = 0.5
BAD_SHARE = 0.25
# Single-frame jumps (a missed cut, a loop point, a cartoon's jump) are not shake: a frame
# whose motion is SPIKE_RATIO times the median motion of the frames within SPIKE_AROUND_S of
# it is an isolated jump and takes the running median of SPIKE_FRAMES frames instead. Jitter
# that jumps every frame (a loose film gate, a bad capture) has neighbours as large: kept.
SPIKE_FRAMES = 3
SPIKE_RATIO = 4.0
SPIKE_AROUND_S = 0.5
# The slow motion a local quadratic fit over this long follows (pans, sway, zooms starting
# and stopping); the shake is what it cannot follow.
HIGH_PASS_S = 1.0
# The shake level: RMS of the residual displacement over this long a window.
LEVEL_S = 1.0
# Shake shows at all from this displacement (pixels of the 90-line analysis picture: 0.1 %
# of the picture height, ~1 px at 1080 lines); it is added to both sides of the ratio so that
# sub-pixel estimator noise on a still shot never makes a large ratio.
VISIBLE_PX = 0.1
# Shake is a condition that lasts: the level holds above the limit for this long (a jolt, a
# cartoon's bounce, an action shot's burst last about 2 s), and stretches this close join.
MIN_S = 3.0
GAP_S = 2.0
# A shaky stretch goes on while its rise stays above what clean footage holds for LONG_S
# (calibrated: jitter.shake_rise_long): clean footage keeps its level near its usual one over
# 10 s (a swing, a bounce are brief).
LONG_S = 10.0
# Shake added to footage with motion of its own (a hand-held camera) rises less than the 3-s
# limit but holds: a rise above what clean footage holds for LONG_S, held that long, is shake
# too when it steps up or down inside a shot: some shot holds >= MIN_S of it and >= MIN_S
# outside it, its level there at least the long-hold ratio above the rest of that shot. A
# shot merely shakier than the shots around it (a hand-held shot cut between still ones)
# changes level at its cuts only: against a usual level set by the still shots, its level
# alone is no different from shake added to it, and it is the footage, not a defect.
# The residual RMS (pixels of the analysis picture) that counts as severity 1.
FULL_PX = 2.0
# Displacement drawn afresh every frame has a second difference of RMS sqrt(6) times its own:
# scaled so, it equals the shake level (share 1); smooth motion (a hand-held camera at 25 fps)
# gives 0.1-0.3. Frames above this share are judged as random displacement (a 12-fps
# cartoon's 3-Hz bounce reaches 0.6-0.7 but only at levels far below the calibrated limit).
WHITE_SHARE = 0.6
# Jitter lying for at least this share inside noise of at least NOISY_SEVERITY (or inside
# flicker) is their doing (see noise_not_jitter).
NOISY_SEVERITY = 0.5
NOISY_SHARE = 0.5


def _sg_weights(width: int) -> np.ndarray:
    """Weights giving the centre value of a least-squares quadratic over `width` samples."""
    x = np.arange(width) - (width - 1) / 2
    return np.linalg.pinv(np.vander(x, 3, increasing=True))[0]


def _motion(frames: dict[str, np.ndarray], scenes: list,
            fps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Global motion per frame (n, 2), interpolated over unjudged frames (near cuts, low
    confidence), single-frame spikes removed; the mask of unjudged frames; the mask of held
    frames (a repeated picture has no motion of its own: the jump after it carries it)."""
    v = np.stack([np.asarray(frames["motion_x"], dtype=np.float64),
                  np.asarray(frames["motion_y"], dtype=np.float64)], axis=1)
    n = len(v)
    bad = near_cut(n, scenes) | ~np.isfinite(v).all(axis=1)
    if "motion_conf" in frames:
        bad |= np.nan_to_num(np.asarray(frames["motion_conf"], dtype=np.float64)) < \
            MOTION_CONFIDENCE
    held = np.zeros(n, dtype=bool)
    if "diff" in frames:
        held = frozen(np.asarray(frames["diff"], dtype=np.float64),
                      scene_ids(np.asarray(frames["t"], dtype=np.float64), scenes))
        longest = max(holds(fps))
        for a, b in runs(held):  # a short hold and the jump after it: a cadence, not motion
            if b - a < longest and b < n:
                bad[a: b + 1] = True
    good = np.flatnonzero(~bad)
    if len(good) < 2:
        return np.zeros((n, 2)), np.ones(n, dtype=bool), held
    for j in range(2):
        v[:, j] = np.interp(np.arange(n), good, v[good, j])
    return _despiked(v, fps), bad, held


def _despiked(v: np.ndarray, fps: float) -> np.ndarray:
    """The motion with isolated single-frame jumps replaced by a running median of
    SPIKE_FRAMES (see SPIKE_RATIO); sustained frame-to-frame jitter is left as it is."""
    half = SPIKE_FRAMES // 2
    padded = np.pad(v, ((half, half), (0, 0)), mode="edge")
    med = np.median(np.lib.stride_tricks.sliding_window_view(padded, SPIKE_FRAMES, axis=0),
                    axis=2)
    mag = np.hypot(v[:, 0], v[:, 1])
    k = max(1, int(round(SPIKE_AROUND_S * fps)))
    around = np.pad(mag, (k, k), mode="edge")
    win = np.lib.stride_tricks.sliding_window_view(around, 2 * k + 1)
    # the median of the neighbours (the frame itself among 2k+1 barely moves it)
    usual = np.median(win, axis=1)
    spike = mag > SPIKE_RATIO * (usual + VISIBLE_PX)
    return np.where(spike[:, None], med, v)


def _displacement(v: np.ndarray, held: np.ndarray) -> np.ndarray:
    """The summed motion of one shot, its held frames placed on the line between the frames
    that changed (a picture held k frames then jumping is a steady motion shown at 1/k of
    the rate, not a shake)."""
    x = np.cumsum(v, axis=0)
    moved = np.flatnonzero(~held)
    if 0 < len(moved) < len(x) and held.any():
        at = np.flatnonzero(held)
        for j in range(x.shape[1]):
            x[at, j] = np.interp(at, moved, x[moved, j])
    return x


def shake_levels(frames: dict[str, np.ndarray], scenes: list,
                 fps: float) -> tuple[np.ndarray, np.ndarray]:
    """Per frame, over LEVEL_S within each shot (analysis-picture pixels, NaN where not
    judged): the RMS of the global displacement a local quadratic over HIGH_PASS_S cannot
    follow (the shake level), and the RMS of the displacement's second difference over
    sqrt(6) (the level of displacement drawn afresh every frame)."""
    t = np.asarray(frames["t"], dtype=np.float64)
    n = len(t)
    v, bad, held = _motion(frames, scenes, fps)
    w = max(5, int(round(HIGH_PASS_S * fps)) | 1)
    weights = _sg_weights(w)[::-1]
    resid = np.full((n, 2), np.nan)
    jerk = np.full((n, 2), np.nan)
    sid = scene_ids(t, scenes)
    for s in np.unique(sid):
        idx = np.flatnonzero(sid == s)
        if len(idx) < 2 * w:
            continue
        x = _displacement(v[idx], held[idx])
        jerk[idx[1:-1]] = x[2:] - 2 * x[1:-1] + x[:-2]
        for j in range(2):
            r = x[:, j] - np.convolve(x[:, j], weights, mode="same")
            r[: w // 2] = np.nan
            r[len(r) - w // 2:] = np.nan
            resid[idx, j] = r
    # a second difference touching an unjudged frame is left out of the level
    bad_near = bad | np.r_[bad[1:], False] | np.r_[False, bad[:-1]]
    return (_windowed(resid, bad, bad, fps),
            _windowed(jerk / np.sqrt(6.0), bad_near, bad, fps))


def _windowed(x: np.ndarray, skip: np.ndarray, bad: np.ndarray, fps: float) -> np.ndarray:
    """The RMS of the 2-D per-frame values `x` (frames in `skip` left out) over LEVEL_S
    centred on each frame; NaN where more than BAD_SHARE of the window is unjudged (`bad`)."""
    energy = (x ** 2).sum(axis=1)
    energy[skip] = np.nan
    k = max(3, int(round(LEVEL_S * fps)))
    pad = lambda a: np.concatenate([np.full(k // 2, np.nan), a,  # noqa: E731
                                    np.full(k - k // 2 - 1, np.nan)])
    view = np.lib.stride_tricks.sliding_window_view(pad(energy), k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        level = np.sqrt(np.nanmean(view, axis=1))
    unjudged = np.lib.stride_tricks.sliding_window_view(pad(bad.astype(np.float64)), k)
    level[np.nanmean(unjudged, axis=1) > BAD_SHARE] = np.nan
    return level


def shake_level(frames: dict[str, np.ndarray], scenes: list, fps: float) -> np.ndarray:
    """Per frame, the shake level of `shake_levels` (NaN where not judged)."""
    return shake_levels(frames, scenes, fps)[0]


def random_level(level: np.ndarray, jerk: np.ndarray) -> np.ndarray:
    """Per frame, the level of random per-frame displacement: the second-difference level
    where it carries at least WHITE_SHARE of the shake (both over the visible floor), else 0;
    NaN where not judged."""
    share = jerk / (level + VISIBLE_PX)
    out = np.where(share >= WHITE_SHARE, jerk, 0.0)
    return np.where(np.isfinite(level) & np.isfinite(jerk), out, np.nan)


def _rise(level: np.ndarray, fps: float) -> np.ndarray:
    """The log ratio of a level to the footage's usual one (both over the visible floor;
    -inf where not judged)."""
    usual = usual_level(level, fps)
    rise = np.log((level + VISIBLE_PX) / (np.nan_to_num(usual, nan=0.0) + VISIBLE_PX))
    return np.where(np.isfinite(rise), rise, -np.inf)


def shake_rise(frames: dict[str, np.ndarray], scenes: list,
               fps: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per frame: the log ratio of the shake level to the footage's usual one, the level
    itself, the random-displacement level (`random_level`), and the log ratio of the
    second-difference level to its usual one (random jitter on top of a hand-held camera's
    sway: the sway keeps the share low but has little second difference of its own)."""
    level, jerk = shake_levels(frames, scenes, fps)
    return _rise(level, fps), level, random_level(level, jerk), _rise(jerk, fps)


def bridged(rise: np.ndarray, fps: float) -> np.ndarray:
    """`rise` with brief (<= GAP_S) unjudged stretches (-inf: the edges of a shot, a cut the
    shake itself made) taking the lower of the values on either side, so a held level is not
    broken by them; longer ones stay unjudged."""
    out = rise.copy()
    for a, b in runs(np.isneginf(rise)):
        if (b - a) / fps <= GAP_S and a > 0 and b < len(rise):
            out[a:b] = min(rise[a - 1], rise[b])
    return out


def joined_on(found: list[tuple[int, int]], rise: np.ndarray, fps: float,
              low: float) -> list[tuple[int, int]]:
    """Shaky stretches (frame runs, in order) joined where the bridged rise between two of
    them stays at `low` (log) throughout: shake on footage of its own motion wavers about the
    3-s limit (a few seconds just under it split one shaken window in two), and never falls
    to the level clean footage holds for LONG_S. No stretch is made or lengthened outward."""
    if len(found) < 2:
        return found
    held = bridged(rise, fps) >= low
    out = [found[0]]
    for a, b in found[1:]:
        if held[out[-1][1]: a].all():
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def _clean_shake(video: CleanVideo) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`shake_rise` of a clean video, computed once for the three quantities that read it."""
    return video.once("jitter.shake_rise",
                      lambda: shake_rise(video.frames, video.scenes, video.fps))


def _clean_rise(video: CleanVideo) -> list[float]:
    """The shake ratio a clean video holds above its usual level for MIN_S at most."""
    if len(video.frames.get("motion_x", [])) < 3:
        return []
    rise, _, _, _ = _clean_shake(video)
    # a ratio below 1 is no departure at all (footage whose level is mostly unjudged, as a
    # cartoon's): it counts as 1, not as a lower tail that would widen the fit upwards
    return [max(1.0, float(np.exp(v))) for v in longest_departure(rise, video.fps, MIN_S)]


def _clean_random(video: CleanVideo) -> list[float]:
    """The random-displacement level a clean video holds for MIN_S at most (0 when none)."""
    if len(video.frames.get("motion_x", [])) < 3:
        return []
    _, _, rnd, _ = _clean_shake(video)
    held = longest_departure(np.where(np.isfinite(rnd), rnd, -np.inf), video.fps, MIN_S)
    return [max(0.0, v) for v in held]


SHAKE_RISE = declare(Quantity(
    key="jitter.shake_rise", measure=_clean_rise, direction=+1, default=6.0,
    doc="highest ratio by which a clean video's shake level (high-passed global displacement) "
        "stays above its usual one for 3 s"))


def _clean_long_rise(video: CleanVideo) -> list[float]:
    """The shake ratio a clean video holds above its usual level for LONG_S at most (brief
    unjudged stretches bridged)."""
    if len(video.frames.get("motion_x", [])) < 3:
        return []
    rise, _, _, _ = _clean_shake(video)
    return [max(1.0, float(np.exp(v))) for v in longest_departure(
        bridged(rise, video.fps), video.fps, LONG_S)]


SHAKE_RISE_LONG = declare(Quantity(
    key="jitter.shake_rise_long", measure=_clean_long_rise, direction=+1, default=3.0,
    doc="highest ratio by which a clean video's shake level stays above its usual one for "
        "10 s (brief unjudged stretches bridged)"))


def _clean_jerk_rise(video: CleanVideo) -> list[float]:
    """The second-difference ratio a clean video holds above its usual level for MIN_S."""
    if len(video.frames.get("motion_x", [])) < 3:
        return []
    _, _, _, jrise = _clean_shake(video)
    return [max(1.0, float(np.exp(v))) for v in longest_departure(jrise, video.fps, MIN_S)]


JERK_RISE = declare(Quantity(
    key="jitter.jerk_rise", measure=_clean_jerk_rise, direction=+1, default=6.0,
    doc="highest ratio by which a clean video's second-difference level (frame-to-frame "
        "reversal of the global displacement) stays above its usual one for 3 s"))
RANDOM_LEVEL = declare(Quantity(
    key="jitter.random_px", measure=_clean_random, direction=+1, default=0.5,
    offset=VISIBLE_PX,
    doc="highest level (analysis-picture pixels) of random per-frame displacement (second "
        "difference carrying most of the shake) that a clean video holds for 3 s"))


def sustained(rise: np.ndarray, level: np.ndarray, t: np.ndarray, fps: float,
              scenes: list, low: float) -> np.ndarray:
    """Frames of stretches whose bridged rise holds at `low` (log) for LONG_S and whose level
    steps by that much inside a shot (see above)."""
    out = np.zeros(len(rise), dtype=bool)
    shot = scene_ids(t, scenes)
    judged = np.isfinite(level)
    need = MIN_S * fps
    for a, b in runs(bridged(rise, fps) >= low):
        if (b - a) / fps < LONG_S:
            continue
        inside = np.zeros(len(t), dtype=bool)
        inside[a:b] = True
        for s in np.unique(shot[a:b]):
            own, rest = judged & (shot == s) & inside, judged & (shot == s) & ~inside
            if own.sum() < need or rest.sum() < need:
                continue
            ratio = (np.median(level[own]) + VISIBLE_PX) / (np.median(level[rest]) + VISIBLE_PX)
            if np.log(ratio) >= low:
                out[a:b] = True
                break
    return out


def shaky_stretches(active: np.ndarray, unjudged: np.ndarray, t: np.ndarray,
                    fps: float) -> list[tuple[int, int]]:
    """Runs of shaky frames across brief stretches (<= GAP_S) that could not be judged (the
    edges of each shot, a cut), holding >= MIN_S of shaky frames, joined across gaps up to
    GAP_S: footage that cuts every few seconds is still one shaky stretch."""
    brief = np.zeros(len(active), dtype=bool)
    for a, b in runs(unjudged):
        brief[a:b] = (b - a) / fps <= GAP_S
    found = []
    for a, b in runs(active | brief):
        on = np.flatnonzero(active[a:b])
        if len(on) and len(on) / fps >= MIN_S:
            found.append((a + int(on[0]), a + int(on[-1]) + 1))
    return merge_runs(found, t, gap_s=GAP_S)


def jitter_events(frames: dict[str, np.ndarray], scenes: list, fps: float) -> list[Event]:
    """Camera shake: stretches whose shake level holds above the calibrated rise."""
    t = np.asarray(frames.get("t", []), dtype=np.float64)
    if len(t) < 7 or "motion_x" not in frames:
        return []
    rise, level, rnd, jrise = shake_rise(frames, scenes, fps)
    limit = float(np.log(value(SHAKE_RISE.key)))
    random_px = value(RANDOM_LEVEL.key)
    long_low = float(np.log(value(SHAKE_RISE_LONG.key)))
    shaky = (rise >= limit) | sustained(rise, level, t, fps, scenes, long_low)
    # random displacement: judged on its own level, or as a rise of the frame-to-frame
    # reversal where the camera's own sway is no shake (it would be camera shake then)
    random = (np.nan_to_num(rnd, nan=0.0) >= random_px) | (
        (jrise >= float(np.log(value(JERK_RISE.key)))) & ~shaky)
    active = shaky | random
    events = []
    found = shaky_stretches(active, np.isneginf(rise) & ~np.isfinite(rnd), t, fps)
    for a, b in joined_on(found, rise, fps, long_low):
        on = np.flatnonzero(active[a:b]) + a
        px = float(np.nanmedian(level[on]))
        ratio = float(np.exp(np.median(rise[on])))
        per_frame = float(np.mean(random[on])) >= 0.5
        events.append(Event(
            type="jitter", subtype="frame jitter" if per_frame else "camera shake",
            start_s=round(float(t[a]), 2), end_s=round(float(t[b - 1] + 1.0 / fps), 2),
            severity=round(float(np.clip(0.2 + 0.8 * px / FULL_PX, 0, 1)), 3),
            score=round(px, 3),
            evidence={"shake_px": round(px, 3), "shake_rise": round(ratio, 2),
                      "limit": round(float(np.exp(limit)), 2), "frames": int(b - a),
                      "random_px": round(float(np.nanmedian(rnd[on])), 3),
                      "random_limit": round(random_px, 3)},
        ))
    return events


def noise_not_jitter(ctx: Context, events: list[Event]) -> list[Event]:
    """Drop jitter found mostly inside strong noise or flicker: grain, impulses and brightness
    swings break the global-motion estimate into random jerks, so there the shake is their
    doing, not the camera's."""
    noisy = [(e.start_s, e.end_s) for e in events
             if (e.type == "noise" and e.severity >= NOISY_SEVERITY) or e.type == "flicker"]
    return [e for e in events
            if e.type != "jitter" or overlap_share(e.start_s, e.end_s, noisy) < NOISY_SHARE]


class JitterDetector(Detector):
    """Camera shake: global motion oscillating well above the footage's own."""

    name = "jitter"
    types = ("jitter",)

    def detect(self, ctx: Context) -> list[Event]:
        """Jitter events (none without per-frame signals)."""
        if not ctx.has_frames:
            return []
        return jitter_events(ctx.frames, ctx.scenes, ctx.fps)
