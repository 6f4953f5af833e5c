"""Over-sharpening: the halo beside strong edges rises (unsharp masking), told apart from
the other side of a blur step by sharpened.sharpened."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tools.detectors.base import MERGE_GAP_S, MIN_EVENT_S, REPORT_SEVERITY, Context, scene_ids
from tools.detectors.series import merge_runs, overlap_share, runs
from tools.detectors.sharpened import RISE_MIN_SAMPLES, sharpened, sharpened_grain
from tools.detectors.spatial_events import SpatialDetector, covering
from tools.detectors.spatial_spec import SpatialSpec
from tools.model import Event

# A smoothed picture has no halo: the better side of a step where detail fell is no
# reference, unless the worse side is over-sharpened rather than the better one blurred.
HALO = SpatialSpec(
    "sharpening", "halo", "halo", +1, np.log(1.8), np.log(4.0), offset=2.0,
    guard=("detail", -1, np.log(1.15)), guard_sharpened=True, hold=0.5,
    steps_baseline=True,
)
# Noise found before is judged against the footage this far around it (outside it, and not
# explained by anything): when that says the noise is over-sharpening's (sharpened_grain),
# it explains no halo, and the noise event lying mostly inside a sharpening one is dropped.
AROUND_S = 30.0
GRAIN_KINDS = ("noise",)
# Severity of a sharpening found this way, from its sharpness rise (log): 1.0 -> 0.2 .. 5.0 -> 1.
SHARPEN_RISE = (1.0, 5.0)
# Fewest samples of the video, and of an event's part and the rest of its scene, to judge.
JUDGE_MIN_VIDEO = 6
JUDGE_MIN_SAMPLES = 3
# A blur event stands for sharpening when at least this share of its judged samples (scene by
# scene) show their scene's other part over-sharpened.
SHARPENED_SHARE = 0.5


class SharpeningDetector(SpatialDetector):
    """Halo of over-sharpening (noise and coding raise it too, and a low-contrast or
    lifted-black stretch lowers it, so the footage beside it would read as sharpened)."""

    name = "sharpening"
    types = ("sharpening",)
    explained_by = ("temporal", "noise", "compression", "exposure")
    specs = (HALO,)

    def explaining(self, ctx: Context, kinds: tuple[str, ...]) -> np.ndarray:
        """What these kinds explain, less the noise that is over-sharpening's doing."""
        mask = ctx.explaining(kinds)
        grain = tuple(k for k in kinds if k.split(":")[0] in GRAIN_KINDS)
        if not grain:
            return mask
        t = ctx.sample_times
        rest = ctx.explaining(tuple(k for k in kinds if k not in grain))
        anything = ctx.explaining(tuple(ctx.explained))
        noisy = ctx.explaining(grain) & ~rest
        for a, b in merge_runs(runs(noisy), t, gap_s=MERGE_GAP_S):
            run = np.zeros(len(t), dtype=bool)
            run[a:b] = True
            around = ~run & ~anything & (t >= t[a] - AROUND_S) & (t <= t[b - 1] + AROUND_S)
            if sharpened_grain(ctx.samples, around, run & noisy):
                mask[a:b] = rest[a:b]
        return mask


def blur_or_sharpening(ctx: Context, events: list[Event]) -> list[Event]:
    """Judge every blur and sharpening event against the rest of its scenes (see
    sharpened.py): a "blur" whose scenes' other part is over-sharpened becomes sharpening of
    that part; a "sharpening" whose other part is blurred (and reported so) is dropped."""
    samples = ctx.samples
    t = samples.get("t", np.zeros(0))
    if len(t) < JUDGE_MIN_VIDEO or not any(e.type in ("blur", "sharpening") for e in events):
        return events
    sid = scene_ids(t, ctx.scenes)
    step = float(np.median(np.diff(t)))
    busy = np.zeros(len(t), dtype=bool)
    for e in events:  # sharpening amplifies grain: noise found there does not mask it
        if e.type not in ("noise", "blur", "sharpening"):
            busy |= (t >= e.start_s) & (t < e.end_s)
    blur = covering(t, [e for e in events if e.type == "blur"])
    out: list[Event] = []
    added: list[Event] = []
    instead_of = {id(e): _instead(e, samples, t, sid, busy, step) for e in events
                  if e.type == "blur" and not e.evidence.get("whole_video")}
    # A blur that stays blur makes the rest of its scenes their clean look: another blur
    # there is then no clean side of over-sharpened footage (a box blur wipes the grain,
    # which unsharp masking would multiply, and passes for the other side of sharpening).
    blurred = {k for e in events if id(e) in instead_of and instead_of[id(e)] is None
               for k in np.unique(sid[(t >= e.start_s) & (t < e.end_s)]).tolist()}
    for e in events:
        if e.type not in ("blur", "sharpening") or e.evidence.get("whole_video"):
            out.append(e)
            continue
        inside = (t >= e.start_s) & (t < e.end_s)
        other = np.isin(sid, np.unique(sid[inside])) & ~busy & ~inside
        if e.type == "blur":
            instead = instead_of[id(e)]
            if instead is None or blurred & set(np.unique(sid[inside]).tolist()):
                out.append(e)
            else:
                added.extend(instead)
            continue
        blurred_rest = any(x.type == "blur" and x.start_s < float(t[other].max(initial=-1)) + step
                           and x.end_s > float(t[other].min(initial=np.inf)) for x in events)
        if blurred_rest and sharpened(samples, _unblurred(other, inside, busy, blur), inside) \
                is None:
            continue
        out.append(e)
    for a in added:  # one sharpening seen from several sides is one event: their union
        same = [x for x in out if x.type == "sharpening" and x.start_s <= a.end_s
                and a.start_s <= x.end_s]
        for x in same:
            out.remove(x)
            a = replace(a, start_s=min(a.start_s, x.start_s), end_s=max(a.end_s, x.end_s),
                        severity=max(a.severity, x.severity))
        out.append(a)
    return out


def _unblurred(other: np.ndarray, inside: np.ndarray, busy: np.ndarray,
               blur: np.ndarray) -> np.ndarray:
    """What a sharpening beside a reported blur is judged against: the rest of its scenes
    outside the blur, or, where the blur fills that rest (a blur ending a little after a cut),
    all the footage outside blur and other events; the blurred part is no reference, against
    it the clean footage just after a blur ends reads as over-sharpened."""
    clean = other & ~blur
    if clean.sum() >= RISE_MIN_SAMPLES:
        return clean
    return ~blur & ~busy & ~inside


def noise_of_sharpening(ctx: Context, events: list[Event]) -> list[Event]:
    """Noise events lying mostly inside a sharpening event are its doing (unsharp masking
    multiplies the grain and clips overshoot to isolated black and white pixels); the
    sharpening detector runs after noise, so its explanation is applied here."""
    sharp = [(e.start_s, e.end_s) for e in events if e.type == "sharpening"]
    return [e for e in events if e.type != "noise" or not sharp
            or overlap_share(e.start_s, e.end_s, sharp) < 0.5]


def _instead(e: Event, samples: dict[str, np.ndarray], t: np.ndarray, sid: np.ndarray,
             busy: np.ndarray, step: float) -> list[Event] | None:
    """The sharpening events a blur event stands for, or None (see _sharpened_instead)."""
    inside = (t >= e.start_s) & (t < e.end_s)
    other = np.isin(sid, np.unique(sid[inside])) & ~busy & ~inside
    return _sharpened_instead(e, samples, t, sid, inside, other, step)


def _sharpened_instead(e: Event, samples: dict[str, np.ndarray], t: np.ndarray,
                       sid: np.ndarray, inside: np.ndarray, other: np.ndarray,
                       step: float) -> list[Event] | None:
    """The sharpening events a blur event stands for (its scenes' other parts, where most of
    its judged samples show them over-sharpened), or None when it is a blur."""
    # Scene by scene: another scene's content says nothing about this one's blur.
    judged, sharp, rises = 0, np.zeros(len(t), dtype=bool), []
    for k in np.unique(sid[inside]):
        a_k, o_k = inside & (sid == k), other & (sid == k)
        if a_k.sum() < JUDGE_MIN_SAMPLES or o_k.sum() < JUDGE_MIN_SAMPLES:
            continue
        judged += int(a_k.sum())
        rise = sharpened(samples, a_k, o_k)
        if rise is not None:
            sharp |= o_k
            rises.append((rise, int(a_k.sum())))
    if not rises or sum(n for _, n in rises) < SHARPENED_SHARE * judged:
        return None
    rise = max(r for r, _ in rises)
    lo, hi = SHARPEN_RISE
    sev = float(np.clip(0.2 + 0.8 * (rise - lo) / (hi - lo), REPORT_SEVERITY, 1.0))
    out = []
    for a, b in runs(sharp):
        if t[b - 1] - t[a] + step < MIN_EVENT_S:
            continue
        out.append(Event(
            type="sharpening", subtype="halo", start_s=round(float(t[a]), 2),
            end_s=round(float(t[b - 1] + step), 2), severity=round(sev, 3),
            score=round(rise / np.log(2.0), 2),
            evidence={"signal": "sharpness", "rise_log": round(rise, 3),
                      "instead_of": f"blur {e.start_s:.1f}-{e.end_s:.1f}"},
        ))
    return out
