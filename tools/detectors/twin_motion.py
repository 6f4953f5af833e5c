"""Shake the same picture shows wherever the video replays it: the footage's own motion.

The jitter detector judges a shot's shake against the footage around it (tools/detectors/
jitter.py). In a montage of clips, one hand-held clip (a coin pushed about on a table)
between tripod shots then stands out as camera shake every time the montage comes back to
it. The same picture shown elsewhere (`tools/detectors/twins.py`) says what that picture's
motion is: where, over most of a shake event, the shake level lies within its replays' own
spread of theirs (replays inside the event left out), the shake is the picture's, not a
defect, as `twin_events.contradicted` says of the sample measures. Shake added to one
stretch of a looped clip moves it far above its unshaken replays.

The samples' twins are found a sample at a time, within a fraction of a second of the
sample grid; a montage whose cycle is no whole number of sample steps (a 30-s cycle at
25 fps is 62.5 steps of 12 frames) puts every other replay between two samples, and a
moving hand-held picture changes too much in that time to match. So a shake event is also
looked for at frame resolution: the course of the mean luma and contrast over the event's
frames (seconds long, so far more distinctive than a sample's one-second signature) is
slid over the whole video, and where it recurs the shake level there is the reference.
"""

from __future__ import annotations

import warnings

import numpy as np

from tools.detectors.calibration import value
from tools.detectors.jitter import SHAKE_RISE_LONG, VISIBLE_PX, shake_levels
from tools.detectors.twins import COURSES, LEAST_SWING, MATCH, MIN_TWINS, reference
from tools.model import Event, Scene


def shake_at_samples(frames: dict[str, np.ndarray], samples: dict[str, np.ndarray],
                     level: np.ndarray) -> np.ndarray:
    """The log shake level (over the visible floor; `level` per frame, `shake_levels`) at
    each sample's frame; NaN unjudged."""
    ft = np.asarray(frames.get("t", np.zeros(0)), dtype=np.float64)
    st = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    if not len(ft) or not len(st):
        return np.full(len(st), np.nan)
    at = np.clip(np.searchsorted(ft, st), 0, len(ft) - 1)
    with np.errstate(invalid="ignore"):
        return np.log(level[at] + VISIBLE_PX)


def replayed_shake(e: Event, shake: np.ndarray, samples: dict[str, np.ndarray],
                   twins: np.ndarray) -> bool:
    """Whether a jitter event's shake is what its picture shows wherever it is replayed:
    over most of the event its level is no further above its twins' median than their own
    spread (twins inside the event left out)."""
    t = np.asarray(samples.get("t", np.zeros(0)), dtype=np.float64)
    if e.type != "jitter" or len(t) != len(shake) or twins.shape[1] == 0:
        return False
    inside = (t >= e.start_s) & (t < e.end_s)
    ref, spread = reference(shake, twins, inside)
    d = (shake - ref - spread)[inside]
    judged = np.isfinite(d)
    if judged.sum() < max(MIN_TWINS, 0.5 * inside.sum()):
        return False
    return bool(np.median(d[judged]) <= 0.0)


# The course compared is at most this long (the event's first seconds): ten seconds of a
# moving picture's luma course recur by chance nowhere, and the search stays cheap on a
# two-hour video.
COURSE_MAX_S = 10.0


def _course_correlation(x: np.ndarray, a: int, length: int) -> np.ndarray | None:
    """Correlation of x[a:a + length]'s course (mean and straight trend taken out) with the
    course at every start frame of x (NaN where that course hardly swings); None when the
    event's own course does not swing (a still picture says nothing)."""
    n = len(x)
    ramp = np.arange(length, dtype=np.float64) - (length - 1) / 2
    ramp /= np.sqrt((ramp ** 2).sum())
    c = x[a:a + length] - x[a:a + length].mean()
    c = c - (c @ ramp) * ramp
    if np.sqrt((c ** 2).mean()) <= LEAST_SWING:
        return None
    c /= np.sqrt((c ** 2).sum())
    size = 1 << int(np.ceil(np.log2(n + length)))
    spectrum = np.fft.rfft(x, size)
    corr = lambda k: np.fft.irfft(spectrum * np.conj(np.fft.rfft(k, size)),  # noqa: E731
                                  size)[: n - length + 1]
    num, along = corr(c), corr(ramp)
    s1 = np.convolve(x, np.ones(length), mode="valid")
    s2 = np.convolve(x * x, np.ones(length), mode="valid")
    energy = np.maximum(s2 - s1 ** 2 / length - along ** 2, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = num / np.sqrt(energy)
    return np.where(np.sqrt(energy / length) > LEAST_SWING, out, np.nan)


def course_replays(frames: dict[str, np.ndarray], a: int, b: int, fps: float) -> list[int]:
    """Frame offsets (start minus a) of the other stretches whose course of the COURSES
    over frames a .. b (at most COURSE_MAX_S of them) matches the event's (correlation >=
    MATCH, averaged over the series that swing), each at least the course's length away
    from the event and from each other."""
    length = min(b - a, max(3, int(round(COURSE_MAX_S * fps))))
    series = [np.asarray(frames[k], dtype=np.float64) for k in COURSES if k in frames]
    if not series or length < 3 or a + length > len(series[0]):
        return []
    found = [c for x in series if (c := _course_correlation(x, a, length)) is not None]
    if not found:
        return []
    score = np.mean(found, axis=0)
    candidates = np.flatnonzero(np.nan_to_num(score, nan=-1.0) >= MATCH)
    candidates = candidates[np.abs(candidates - a) >= length]
    taken: list[int] = []
    for o in candidates[np.argsort(-score[candidates], kind="stable")]:
        if all(abs(int(o) - p) >= length for p in taken):
            taken.append(int(o))
    return [o - a for o in sorted(taken)]


def replayed_course(e: Event, frames: dict[str, np.ndarray], level: np.ndarray,
                    fps: float) -> bool:
    """Whether a jitter event's shake is what its picture shows where the video replays it
    at frame resolution (`course_replays`): over the event's frames judged in it and in its
    replays, the median ratio of its level to the replays' median stays below the ratio
    clean footage holds for 10 s above its usual level (jitter.shake_rise_long)."""
    t = np.asarray(frames.get("t", np.zeros(0)), dtype=np.float64)
    if e.type != "jitter" or len(t) != len(level) or not len(t):
        return False
    a, b = int(np.searchsorted(t, e.start_s - 1e-6)), int(np.searchsorted(t, e.end_s - 1e-6))
    shifts = course_replays(frames, a, b, fps)
    if not shifts:
        return False
    own = np.arange(a, b)
    ref = np.full((len(shifts), len(own)), np.nan)
    for k, d in enumerate(shifts):
        at = own + d
        ok = (at >= 0) & (at < len(level))
        ref[k, ok] = level[at[ok]]
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        rise = np.log((level[own] + VISIBLE_PX) / (np.nanmedian(ref, axis=0) + VISIBLE_PX))
    judged = np.isfinite(rise)
    if judged.sum() < 0.5 * len(own):
        return False
    return bool(np.median(rise[judged]) < np.log(value(SHAKE_RISE_LONG.key)))


def shake_level(events: list[Event], frames: dict[str, np.ndarray], scenes: list[Scene],
                fps: float) -> np.ndarray | None:
    """The shake level per frame (`shake_levels`) where there are jitter events to judge
    with it, read once for both checks of them; else None."""
    if not any(e.type == "jitter" for e in events) or "t" not in frames:
        return None
    return shake_levels(frames, scenes, fps)[0]


def without_replayed_shake(events: list[Event], frames: dict[str, np.ndarray],
                           level: np.ndarray | None, fps: float) -> list[Event]:
    """The events but the jitter whose shake its picture shows where the video replays it
    (`replayed_course`; `level` from `shake_level`, None when there is no jitter)."""
    if level is None:
        return events
    return [e for e in events if not replayed_course(e, frames, level, fps)]
