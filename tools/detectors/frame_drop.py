"""Frame-rate drops: every picture held for the same number of frames, over seconds, while
the footage moves (a stream falling to half, a third, a fifth of its rate and shown at the
old one again).

A freeze is one long hold and stutter irregular holds; a rate drop is a regular cadence:
in every run of k frames one changes and k-1 repeat it (after a lossy encode, nearly: their
difference falls to the encoder's residual). Read per frame over a 2-s window for k = 2..6,
the cadence is the margin by which the changing frame of each cycle exceeds the other frames
of its cycle (log of the difference ratio, median over the window's cycles). Clean camera
footage has none; codecs give some (B-frame quality pulses), and cartoons animated on twos
or at low rates have their own: so the cadence counts only where it rises above what the
footage around it usually shows (a cadence all through a video is its look), by a ratio
measured on clean real footage.
"""

from __future__ import annotations

import numpy as np

from tools.detectors.around import lasting_runs, longest_departure, usual_level
from tools.detectors.base import Context, Detector
from tools.detectors.calibration import CleanVideo, Quantity, declare, value
from tools.detectors.repeats import CLUSTER_GAP_S, FROZEN_DIFF
from tools.detectors.series import overlap_share
from tools.detectors.whole_video import WHOLE_VIDEO_PARTS
from tools.model import Event

# Frames each picture is held for: the rate falling to 1/2 .. 1/6 of the stream's ...
HOLDS = (2, 3, 4, 5, 6)
# ... of a stream at about this rate; a high-rate stream (50, 60 fps) holds a picture as many
# times longer for the same drop (6 fps shown at 50: 8-9 frames), see `holds`.
HOLDS_RATE = 25.0
# The cadence is read over this long a window (>= 3 cycles at every hold and rate).
WINDOW_S = 2.0
MIN_CYCLES = 3
# Differences under the change at which a frame counts as unchanged are all alike: the
# margin between two such frames is codec noise, not a held picture.
FLOOR = FROZEN_DIFF
# A drop holds its cadence above the limit for at least this long, and stretches of it this
# close are one drop (the still moments between motions show no cadence: nothing moves).
MIN_S = 1.0
GAP_S = 2.5
# Two stretches of one hold further apart than GAP_S are still one drop when the frames
# between them hardly change (STILL_SHARE of them within the calibrated cadence rise of the
# FLOOR, where no cadence can show: a launch pad standing still between two moves), up to
# this far apart.
STILL_JOIN_S = 8.0
STILL_SHARE = 0.75
# Windows handled at a time (bounds the memory of the sliding views on long videos).
CHUNK = 4096
SUBTYPE = "frame-rate drop"
# Repeated-frame events (frame drops, stutter) and jitter lying this much inside a rate
# drop are its pieces: its held frames read as holds, its jumps as jerks.
PIECE_SHARE = 0.5
PIECE_TYPES = ("frame_drop", "stutter", "jitter")


def holds(fps: float) -> tuple[int, ...]:
    """The holds read at this stream rate: HOLDS, reaching as many times further as the rate
    is a whole multiple of HOLDS_RATE (50 and 60 fps: up to 12 frames, a drop to ~4-5 fps)."""
    times = max(1, int(round(fps / HOLDS_RATE)))
    return tuple(range(HOLDS[0], HOLDS[-1] * times + 1))


def _window_scores(ld: np.ndarray, k: int, m: int) -> np.ndarray:
    """For each window of m cycles of k frames (starting at every frame): the median over
    its cycles of the margin by which the cycle's most changing frame exceeds its next, one
    new picture and k-1 copies wherever the new picture falls in the cycle: a rate converted
    by a factor that is no whole number (6 fps shown at 25 holds pictures for 4 and 5 frames)
    moves its new pictures across the cycles."""
    w = m * k
    n = len(ld) - w + 1
    out = np.empty(max(n, 0))
    for s in range(0, n, CHUNK):
        x = np.lib.stride_tricks.sliding_window_view(ld[s: s + CHUNK + w - 1], w)
        top2 = np.sort(x.reshape(-1, m, k), axis=2)[:, :, -2:]
        out[s: s + len(top2)] = np.median(top2[:, :, 1] - top2[:, :, 0], axis=1)
    return out


def cadence(diff: np.ndarray, fps: float) -> tuple[np.ndarray, np.ndarray]:
    """Per frame, the strongest hold cadence around it (log ratio of the changing frame's
    difference to the held ones', median over the cycles of a WINDOW_S window; <= 0 when no
    frame of a cycle stands out) and the cycle length k that scores it (0 where not judged;
    cycles shorter than the hold score too, so an event reads its hold from the spacing of
    its new pictures, `mean_hold`)."""
    d = np.nan_to_num(np.asarray(diff, dtype=np.float64), nan=FLOOR)
    ld = np.log(np.maximum(d, FLOOR))
    n = len(ld)
    best = np.full(n, -np.inf)
    hold = np.zeros(n, dtype=np.int64)
    for k in holds(fps):
        m = max(MIN_CYCLES, int(round(WINDOW_S * fps / k)))
        if n < m * k:
            continue
        s = _window_scores(ld, k, m)
        full = np.full(n, -np.inf)
        full[(m * k) // 2: (m * k) // 2 + len(s)] = s
        up = full > best
        best[up], hold[up] = full[up], k
    return best, hold


def cadence_rise(frames: dict[str, np.ndarray], fps: float) -> tuple[np.ndarray, np.ndarray]:
    """Per frame, how far the cadence stands above the footage's usual one (log ratio), and
    its hold k."""
    score, hold = cadence(frames["diff"], fps)
    finite = np.where(np.isfinite(score), score, np.nan)
    rise = finite - usual_level(finite, fps)
    return np.where(np.isfinite(rise), rise, -np.inf), hold


def _clean_rise(video: CleanVideo) -> list[float]:
    """The cadence ratio a clean video holds above its usual one for MIN_S at most."""
    if len(video.frames.get("diff", [])) < 3:
        return []
    rise, _ = cadence_rise(video.frames, video.fps)
    return [float(np.exp(v)) for v in longest_departure(rise, video.fps, MIN_S)]


CADENCE_RISE = declare(Quantity(
    key="frame_rate.cadence_rise", measure=_clean_rise, direction=+1, default=4.0,
    doc="highest ratio by which a clean video's hold cadence (changing frame / held frames) "
        "stays above its usual one for 1 s"))


def rate_drop_events(frames: dict[str, np.ndarray], fps: float) -> list[Event]:
    """Stretches holding a regular cadence above the calibrated rise, as frame_drop events."""
    t = np.asarray(frames.get("t", []), dtype=np.float64)
    if len(t) < 3 or "diff" not in frames:
        return []
    rise, hold = cadence_rise(frames, fps)
    limit = float(np.log(value(CADENCE_RISE.key)))
    active = rise >= limit
    events = []
    for a, b in joined_over_still(lasting_runs(active, t, fps, MIN_S, GAP_S), hold,
                                  frames["diff"], t, float(np.exp(limit))):
        on = np.flatnonzero(active[a:b]) + a
        held = mean_hold(frames["diff"], on)
        if held is None:
            continue  # holds of every length: stutter, not a rate
        k = int(round(held))
        ratio = float(np.exp(np.median(rise[on])))
        events.append(Event(
            type="frame_drop", subtype=SUBTYPE,
            start_s=round(float(t[a]), 2), end_s=round(float(t[b - 1] + 1.0 / fps), 2),
            severity=round(1.0 - 1.0 / held, 3), score=round(ratio, 2),
            evidence={"hold_frames": k, "effective_fps": round(fps / held, 2),
                      "cadence_rise": round(ratio, 2), "limit": round(float(np.exp(limit)), 2),
                      "frames": int(b - a)},
        ))
    return events


# A rate holds each picture for the same number of frames, or for the two whole numbers
# either side of a ratio that is none (4 and 5 for 25 fps from 6): at least this share of
# the spacings between new pictures are those (stills inside a drop, where nothing moves and
# no new picture shows, are left out: spacings over twice the mean).
REGULAR_SHARE = 0.75


def mean_hold(diff: np.ndarray, on: np.ndarray) -> float | None:
    """The mean number of frames each picture is held over the frames `on` (new pictures are
    the frames whose log difference lies above the midpoint of the stretch's 10th and 90th
    percentiles), or None when the spacings are not regular (REGULAR_SHARE)."""
    ld = np.log(np.maximum(np.nan_to_num(np.asarray(diff, np.float64)[on], nan=FLOOR), FLOOR))
    if len(ld) < 2 * MIN_CYCLES:
        return None
    lo, hi = np.percentile(ld, [10, 90])
    new = on[ld > (lo + hi) / 2]
    gaps = np.diff(new)
    if len(gaps) < MIN_CYCLES or np.mean(gaps == 1) > 1.0 - REGULAR_SHARE:
        return None  # frames changing one after another: no held pictures
    gaps = gaps[gaps > 1]  # (a cut or a coder's follow-up frame beside a new picture)
    gaps = gaps[gaps <= 2 * np.median(gaps)]
    mean = float(gaps.mean())
    regular = np.isin(gaps, (np.floor(mean), np.ceil(mean))).mean()
    return mean if regular >= REGULAR_SHARE else None


def joined_over_still(found: list[tuple[int, int]], hold: np.ndarray, diff: np.ndarray,
                      t: np.ndarray, rise: float) -> list[tuple[int, int]]:
    """Runs (frame ranges) of one hold joined across gaps up to STILL_JOIN_S whose frames
    mostly change by less than `rise` times the FLOOR (STILL_SHARE of them): nothing moves
    there enough to show the cadence, and the drop goes on through it."""
    d = np.asarray(diff, dtype=np.float64)
    out: list[tuple[int, int]] = []
    for a, b in found:
        if out:
            pa, pb = out[-1]
            gap = d[pb:a]  # NaN (unmeasured) counts as moving: NaN <= x is False
            if (t[a] - t[pb - 1] <= STILL_JOIN_S and len(gap)
                    and np.median(hold[pa:pb]) == np.median(hold[a:b])
                    and np.mean(gap <= FLOOR * rise) >= STILL_SHARE):
                out[-1] = (pa, b)
                continue
        out.append((a, b))
    return out


# A cadence the footage keeps coming back to is its look, not a drop: cartoons animated on
# twos in some shots and on ones in others, a low-rate source doubled up (12.5 to 25 fps)
# whose still and moving shots alternate. Regular holds (rate drops of one hold k, and
# clusters of single repeated frames, one every other frame or more, or one in every k like
# clockwork) found in all but one of the video's WHOLE_VIDEO_PARTS equal parts are such a
# look; a drop is a departure in one stretch. Only videos of LOOK_MIN_S or more: in a short
# one a single drop fills the parts.
LOOK_MIN_S = 60.0
LOOK_REGULAR_SHARE = 0.3  # repeated frames in a cluster at least this share of its frames
# A source converted to the stream's rate by repeating frames (20 fps shown at 25: one frame
# in 5 twice) repeats them like clockwork: in the index's conversions (a 20-fps clip at 25 or
# 30 fps in montages of rounds 4-7) 0.78-1.0 of the gaps between repeats lie within a frame
# of their median, where a stream's stutter and the generator's drops give 0.0-0.67.
LOOK_CADENCE_REGULAR = 0.75


def _regular(e: Event) -> tuple[str, int] | None:
    """The cadence of a regular frame_drop event: ("hold", k) for a rate drop's hold k or a
    cluster of single repeats at least every other frame (k = 2), ("every", k) for single
    repeats one in every k frames like clockwork; else None."""
    if e.type != "frame_drop":
        return None
    if e.subtype == SUBTYPE:
        k = int(e.evidence.get("hold_frames", 0))
        return ("hold", k) if k else None
    ev = e.evidence
    if ev.get("median_hold_frames") != 1.0:
        return None
    if ev.get("share_repeated", 0) >= LOOK_REGULAR_SHARE:
        return ("hold", 2)
    period = _clockwork(e)
    return None if period is None else ("every", int(round(period)))


def _clockwork(e: Event) -> float | None:
    """The period (frames) of a frame_drop cluster of single repeats that come like clockwork
    (LOOK_CADENCE_REGULAR), else None."""
    ev = e.evidence
    if (e.type != "frame_drop" or e.subtype == SUBTYPE or ev.get("median_hold_frames") != 1.0
            or ev.get("cadence_regular", 0) < LOOK_CADENCE_REGULAR):
        return None
    return float(ev.get("cadence_frames", 0))


def _whole_shots(e: Event, scenes: list, fps: float) -> bool:
    """Whether a clockwork cadence of single repeats (however dense) fills the shots it
    covers (each at least half inside it) from the first one's first frame to the last one's
    last, within two of its periods and a frame (where the cut falls): a clip of another
    frame rate converted on its way into the video (a montage's 20-fps clip at 25 or 30 fps),
    not a drop inside a shot. It may reach past them by as far as repeats are grouped
    (CLUSTER_GAP_S): the neighbouring clip's own conversion, joined to its cluster across
    the cut."""
    period = _clockwork(e)
    if period is None:
        return False
    reach = (2 * period + 2) / fps
    covered = [sc for sc in scenes if min(e.end_s, sc.end_s) - max(e.start_s, sc.start_s)
               >= 0.5 * (sc.end_s - sc.start_s)]
    if not covered:
        return False
    first, last = covered[0].start_s, covered[-1].end_s
    spill = CLUSTER_GAP_S + reach
    return (first - spill <= e.start_s <= first + reach
            and last - reach <= e.end_s <= last + spill)


def cadence_look(ctx: Context, events: list[Event]) -> list[Event]:
    """Drop the regular-cadence frame_drop events of a cadence found in all but one of the
    video's equal parts (the footage's own cadence, see LOOK_MIN_S), and the clockwork
    cadences that fill whole shots (a clip's own rate converted, `_whole_shots`)."""
    events = [e for e in events if not _whole_shots(e, ctx.scenes, ctx.fps)]
    t = ctx.frames.get("t", np.zeros(0)) if ctx.has_frames else np.zeros(0)
    if len(t) < 2 or t[-1] - t[0] < LOOK_MIN_S:
        return events
    edges = np.linspace(t[0], t[-1], WHOLE_VIDEO_PARTS + 1)
    parts: dict[tuple[str, int], set[int]] = {}
    for e in events:
        k = _regular(e)
        if k is not None:
            parts.setdefault(k, set()).update(
                i for i in range(WHOLE_VIDEO_PARTS)
                if e.end_s > edges[i] and e.start_s < edges[i + 1])
    look = {k for k, seen in parts.items() if len(seen) >= WHOLE_VIDEO_PARTS - 1}
    if not look:
        return events
    # a doubled-up look also shows where fewer of its frames move: single repeats there too
    single = ("hold", 2) in look
    return [e for e in events if _regular(e) not in look and not (
        single and e.type == "frame_drop" and e.subtype != SUBTYPE
        and e.evidence.get("median_hold_frames") == 1.0)]


def pieces_of_rate_drops(ctx: Context, events: list[Event]) -> list[Event]:
    """Drop the repeated-frame and jitter events lying mostly inside a frame-rate drop: its
    held frames are what the repeats detector saw, its jumps what jitter saw."""
    drops = [(e.start_s, e.end_s) for e in events if e.subtype == SUBTYPE]
    if not drops:
        return events
    return [e for e in events if e.subtype == SUBTYPE or e.type not in PIECE_TYPES
            or overlap_share(e.start_s, e.end_s, drops) < PIECE_SHARE]


class FrameRateDetector(Detector):
    """Frame-rate drops: a regular cadence of held frames over seconds."""

    name = "frame_rate"
    types = ("frame_drop",)

    def detect(self, ctx: Context) -> list[Event]:
        """Frame-rate-drop events (none without per-frame signals)."""
        if not ctx.has_frames:
            return []
        return rate_drop_events(ctx.frames, ctx.fps)
