"""The uniform track's local brain: answer from the sampled frames' measurements alone.

A frame-only observer: each sampled frame is measured (sharpness, noise, blockiness, tone,
colour...) and compared with the video's typical frame (the median of the samples). A frame
departs when its deviation is at least the index detectors' smallest reportable step and
stands out from the spread of the other samples. Runs of departing samples are its events;
questions are read with the same parser the agent uses and answered from those events.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.run.samples import Samples

Z_GATE = 2.5  # a deviation must also exceed this many robust SDs of the samples' spread


def _series(sig: dict[str, np.ndarray], spec: Any) -> np.ndarray:
    if spec.signal == "hue":
        return np.degrees(np.arctan2(sig["hue_y"], sig["hue_x"]))
    x = sig[spec.signal]
    if not spec.log:
        return x
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(np.maximum(x, 0) + spec.offset)


def _deviations(x: np.ndarray, spec: Any) -> np.ndarray:
    """Deviation of each sample from the samples' typical value, worse-is-positive."""
    if spec.signal == "hue":
        ang = np.radians(x[np.isfinite(x)])
        ref = np.degrees(np.arctan2(np.median(np.sin(ang)), np.median(np.cos(ang)))) \
            if len(ang) else 0.0
        return np.abs((x - ref + 180.0) % 360.0 - 180.0)
    if not np.isfinite(x).any():  # no sample measured (a frame the signal cannot read)
        return np.full(len(x), np.nan)
    d = x - np.nanmedian(x)
    return np.abs(d) if spec.direction == 0 else spec.direction * d


def sample_evidence(s: Samples) -> tuple[list[dict[str, Any]], dict[str, np.ndarray]]:
    """(events from runs of departing samples, per-type raw score of every sample)."""
    from tools.detectors import EXPLAINS, SPATIAL_SPECS

    n = len(s.times)
    flags: dict[str, np.ndarray] = {}
    sev: dict[str, np.ndarray] = {}
    sub: dict[str, list[str]] = {}
    raw: dict[str, np.ndarray] = {}
    for spec in SPATIAL_SPECS:
        if spec.pairs_only or (spec.signal != "hue" and spec.signal not in s.signals):
            continue  # pairs_only specs read steps between neighbouring samples: none here
        d = np.nan_to_num(_deviations(_series(s.signals, spec), spec), nan=0.0)
        spread = 1.4826 * float(np.median(np.abs(d))) if n else 0.0
        flag = (d >= spec.min_delta) & (d >= Z_GATE * spread)
        sv = np.where(flag, np.clip(d / spec.full_delta, 0.2, 1.0), 0.0)
        t = spec.type
        raw[t] = np.maximum(raw.get(t, np.zeros(n)), np.maximum(d, 0.0) / spec.min_delta)
        better = sv > sev.get(t, np.zeros(n))
        sub.setdefault(t, [""] * n)
        for i in np.flatnonzero(better):
            sub[t][i] = spec.subtype
        sev[t] = np.maximum(sev.get(t, np.zeros(n)), sv)
        flags[t] = flags.get(t, np.zeros(n, bool)) | flag
    for t in list(flags):  # a deviation another present degradation explains is not its own
        explained = np.zeros(n, bool)
        for e in EXPLAINS.get(t, ()):
            if e in flags:
                explained |= flags[e]
        flags[t] = flags[t] & ~explained
    step = s.duration_s / max(n, 1)
    events = []
    for t, mask in flags.items():
        i = 0
        while i < n:
            if not mask[i]:
                i += 1
                continue
            j = i
            while j + 1 < n and mask[j + 1]:
                j += 1
            k = i + int(np.argmax(sev[t][i:j + 1]))
            events.append({"type": t, "subtype": sub[t][k],
                           "start_s": round(max(0.0, float(s.times[i]) - step / 2), 2),
                           "end_s": round(min(s.duration_s, float(s.times[j]) + step / 2), 2),
                           "severity": round(float(sev[t][i:j + 1].max()), 3)})
            i = j + 1
    return sorted(events, key=lambda e: (e["start_s"], e["type"])), raw


@dataclass
class RulesAnswer:
    text: str
    choice: str | None
    segments: list[dict[str, Any]]


def _has(pattern: str, text: str) -> bool:
    return re.search(pattern, text, re.IGNORECASE) is not None


def _overlap(e: dict[str, Any], w: tuple[float, float]) -> float:
    return max(0.0, min(e["end_s"], w[1]) - max(e["start_s"], w[0]))


def _covered(events: Sequence[dict[str, Any]]) -> float:
    """Seconds covered by at least one event (overlapping events counted once)."""
    total, end = 0.0, float("-inf")
    for e in sorted(events, key=lambda e: e["start_s"]):
        a, b = max(e["start_s"], end), e["end_s"]
        if b > a:
            total += b - a
        end = max(end, b)
    return total


def _level(severity: float) -> float:
    """Severity 0..1 to the option scale: 0 none, 1 mild .. 3 severe."""
    return 0.0 if severity <= 0 else 1.0 + 2.0 * min(max((severity - 0.25) / 0.5, 0.0), 1.0)


def _raw_in(raw: dict[str, np.ndarray], times: np.ndarray, etype: str | None,
            w: tuple[float, float]) -> float:
    sel = (times >= w[0]) & (times < w[1])
    if not sel.any():
        return 0.0
    types = [etype] if etype else list(raw)
    return max((float(raw[t][sel].max()) for t in types if t in raw), default=0.0)


class _Rules:
    """One question against the sampled frames' events."""

    def __init__(self, s: Samples, question: str, options: Sequence[str]) -> None:
        from agent.questions import parse_question

        self.s = s
        self.events, self.raw = sample_evidence(s)
        self.q = parse_question(question, options, s.duration_s)
        self.whole = (0.0, s.duration_s)

    # --- facts

    def evs(self, etype: str | None = None, w: tuple[float, float] | None = None) -> list[dict]:
        return [e for e in self.events if (etype is None or e["type"] == etype)
                and (w is None or _overlap(e, w) > 0)]

    def strength(self, etype: str | None, w: tuple[float, float]) -> float:
        """Worst severity in the window, with the raw score as a small tie-break."""
        evs = self.evs(etype, w)
        worst = max((e["severity"] for e in evs), default=0.0)
        return worst + 1e-3 * min(_raw_in(self.raw, self.s.times, etype, w), 10.0)

    def load(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for e in self.events:
            out[e["type"]] = out.get(e["type"], 0.0) + e["severity"] * (e["end_s"] - e["start_s"])
        return out

    def first(self, etype: str) -> float | None:
        ts = [e["start_s"] for e in self.events if e["type"] == etype]
        return min(ts) if ts else None

    def quality_bins(self, k: int = 6) -> np.ndarray:
        edges = np.linspace(0, self.s.duration_s, k + 1)
        sev = np.zeros(len(self.s.times))
        for e in self.events:
            sel = (self.s.times >= e["start_s"]) & (self.s.times < e["end_s"])
            sev[sel] = np.maximum(sev[sel], e["severity"])
        out = []
        for a, b in zip(edges[:-1], edges[1:], strict=True):
            sel = (self.s.times >= a) & (self.s.times < b)
            out.append(1.0 - float(sev[sel].mean()) if sel.any() else 1.0)
        return np.array(out)

    def trend(self) -> str:
        qs = self.quality_bins()
        x = np.arange(len(qs))
        corr = float(np.corrcoef(x, qs)[0, 1]) if qs.std() > 1e-9 else 0.0
        change = float(np.polyfit(x, qs, 1)[0]) * (len(qs) - 1)
        if abs(corr) >= 0.6 and abs(change) >= 0.15:
            return "improving" if change > 0 else "degrading"
        return "fluctuating" if qs.std() >= 0.12 else "stable"

    def stability(self) -> int:
        """0 stable, 1 occasional drops, 2 fluctuating, 3 gradual drift."""
        if not self.events:
            return 0
        trend = self.trend()
        if trend in ("improving", "degrading"):
            return 3
        return 1 if len(self.events) <= 2 else 2

    def grade(self) -> float:
        if not self.events:
            return 5.0
        imp = float(np.mean(1.0 - self.quality_bins(len(self.s.times))))
        return 4.0 if imp <= 0.1 else 3.0 if imp <= 0.3 else 2.0

    # --- options

    def yes_no(self, truth: bool) -> str | None:
        for o in self.q.options:
            if (o.yes and not o.no) if truth else o.no:
                return o.letter
        return None

    def best(self, score: Any) -> str | None:
        """The option with the highest score(option) (None scores skipped)."""
        scored = [(v, -i, o.letter) for i, o in enumerate(self.q.options)
                  if (v := score(o)) is not None]
        return max(scored)[2] if scored else None

    def window(self) -> tuple[float, float]:
        w = self.q.window
        return (w.start_s, w.end_s) if w else self.whole

    # --- kinds

    def answer(self) -> RulesAnswer:
        q = self.q
        handler = getattr(self, f"_{q.kind}", None)
        choice = handler() if handler and q.options else None
        if q.options and choice is None:
            choice = self._generic()
        segs = [{"start_s": e["start_s"], "end_s": e["end_s"], "label": e["type"],
                 "severity": e["severity"]} for e in self.focus()]
        return RulesAnswer(self.describe(), choice, segs)

    def focus(self) -> list[dict]:
        """The events the question is about (its type, in its window)."""
        return self.evs(self.q.type, self.q.window and self.window())

    def describe(self) -> str:
        n = len(self.s.times)
        if not self.events:
            return f"In {n} sampled frames no frame departs from the video's typical quality."
        return f"In {n} sampled frames: " + "; ".join(
            f"{e['type']} {e['start_s']:.0f}-{e['end_s']:.0f} s (severity {e['severity']:.2f})"
            for e in self.events[:8]) + "."

    def _detection(self) -> str | None:
        present = bool(self.evs(self.q.type, self.window()))
        return self.yes_no(present)

    def _localization(self) -> str | None:
        t = self.q.type

        def score(o: Any) -> float | None:
            if not o.windows:
                return None
            w = (o.windows[0].start_s, o.windows[0].end_s)
            hit = sum(_overlap(e, w) * e["severity"] for e in self.evs(t))
            return hit + 1e-3 * min(_raw_in(self.raw, self.s.times, t, w), 10.0)
        return self.best(score)

    def _classification(self) -> str | None:
        if any(len(o.types) > 1 for o in self.q.options):  # options are sets of types
            return self._aggregate()
        w = self.window()
        return self.best(lambda o: self.strength(o.types[0].type, w) if o.types else None)

    def _severity(self) -> str | None:
        evs = self.evs(self.q.type, self.window())
        low = self.q.text.lower()
        if any(o.durations for o in self.q.options) and ("long" in low or "duration" in low):
            total = _covered(self.events)
            return self.best(lambda o: -abs(o.durations[0] - total) if o.durations else None)
        if "how many" in low:
            return self._count()
        target = _level(max((e["severity"] for e in evs), default=0.0))
        return self.best(lambda o: -abs(o.level - target) if o.level is not None else None)

    def _count(self) -> str | None:
        low = self.q.text.lower()
        n = len({e["type"] for e in self.events}) if any(
            w in low for w in ("type", "kind")) else len(self.events)
        return self.best(lambda o: -abs(o.numbers[0] - n) if o.numbers else None)

    def _comparison(self) -> str | None:
        q = self.q
        opts = q.options
        less = q.least or bool(_has(r"\b(milder|less|weaker)\b", q.text))
        sign = -1.0 if less else 1.0
        if any(o.yes or o.no for o in opts) and len(q.windows) >= 2:
            ta = q.types[0].type if q.types else None
            tb = q.types[1].type if len(q.types) > 1 else ta
            a = self.strength(ta, (q.windows[0].start_s, q.windows[0].end_s))
            b = self.strength(tb, (q.windows[1].start_s, q.windows[1].end_s))
            return self.yes_no(a < b if less else a > b)
        if sum(bool(o.windows) for o in opts) >= 2:
            return self.best(lambda o: sign * self.strength(
                q.type, (o.windows[0].start_s, o.windows[0].end_s)) if o.windows else None)
        if sum(bool(o.types) for o in opts) >= 2:
            return self.best(lambda o: sign * self.strength(o.types[0].type, self.whole)
                             if o.types else None)
        return None

    def _cumulative_effect(self) -> str | None:
        return self._aggregate()

    def _integration(self) -> str | None:
        return self._aggregate()

    def _aggregate(self) -> str | None:
        opts = self.q.options
        if any(o.numbers for o in opts) and "how many" in self.q.text.lower():
            return self._count()
        if any(o.durations for o in opts):
            total = _covered(self.events)
            return self.best(lambda o: -abs(o.durations[0] - total) if o.durations else None)
        seen = {e["type"] for e in self.events}
        if sum(bool(o.types) for o in opts) >= 2:
            def score(o: Any) -> float | None:
                claimed = {m.type for m in o.types}
                return len(claimed & seen) - len(claimed - seen) - 0.5 * len(seen - claimed)
            return self.best(score)
        return None

    def _temporal_relation(self) -> str | None:
        q = self.q
        low = q.text.lower()
        if all(o.types for o in q.options) and _has(r"\b(first|earl\w*|last|lat\w*)\b", low):
            late = bool(_has(r"\b(last|latest|later)\b", low))
            return self.best(lambda o: (None if (f := self.first(o.types[0].type)) is None
                                        else (f if late else -f)))
        if any(o.yes or o.no for o in q.options) and len(q.types) >= 2:
            fa, fb = self.first(q.types[0].type), self.first(q.types[1].type)
            if fa is None or fb is None:
                return self.yes_no(False)
            return self.yes_no(fa > fb if "after" in low else fa < fb)

        def claim(o: Any) -> float | None:
            ts = [m.type for m in o.types]
            if len(ts) >= 2:
                fa, fb = self.first(ts[0]), self.first(ts[1])
                return 1.0 if fa is not None and fb is not None and fa < fb else 0.0
            if _has(r"same time|simultaneous", o.text.lower()):
                return 0.5 if not self.events else 0.0
            return None
        return self.best(claim)

    def _stability(self) -> str | None:
        level = self.stability()
        if any(o.yes or o.no for o in self.q.options):
            asks_change = bool(_has(r"\b(vary|varies|fluctuat|change|unstable)", self.q.text))
            return self.yes_no((level > 0) if asks_change else (level == 0))

        def claim(o: Any) -> float | None:
            low = o.text.lower()
            said = 3 if _has(r"gradual|one direction|steadily", low) else \
                2 if _has(r"fluctuat|repeated|frequent", low) else \
                1 if _has(r"mostly|isolated|occasional|one or two", low) else \
                0 if _has(r"stable|consistent|no noticeable", low) else None
            return None if said is None else -abs(said - level)
        return self.best(claim)

    def _dominant_factor(self) -> str | None:
        load = self.load()
        if not load:
            return self.best(lambda o: 1.0 if (o.none or o.no) else None)
        return self.best(lambda o: load.get(o.types[0].type, 0.0) if o.types else -1.0)

    def _trend(self) -> str | None:
        trend = self.trend()
        if any(o.yes or o.no for o in self.q.options):
            low = self.q.text.lower()
            asked = "degrading" if _has(r"worse|degrad|deteriorat", low) else "improving"
            return self.yes_no(trend == asked)
        return self.best(lambda o: 1.0 if o.trend == trend else 0.0 if o.trend else None)

    def _overall(self) -> str | None:
        g = self.grade()
        if any(o.yes or o.no for o in self.q.options):
            clean = not self.events
            asks_free = bool(_has(r"\bfree of|\bwithout\b", self.q.text.lower()))
            return self.yes_no(clean if asks_free else not clean)
        return self.best(lambda o: -abs(o.grade - g) if o.grade is not None else None)

    def _generic(self) -> str | None:
        seen = {e["type"] for e in self.evs(None, self.window())}

        def score(o: Any) -> float:
            s = sum(1.0 if m.type in seen else -1.0 for m in o.types)
            if o.yes:
                s += 0.8 if seen else -0.8
            if o.none or (o.no and not o.types):
                s += 1.5 if not seen else -1.5
            return s
        return self.best(score)


def rules_answer(s: Samples, question: str, options: Sequence[str]) -> RulesAnswer:
    """Answer one question from the sampled frames' measurements alone."""
    return _Rules(s, question, options).answer()
