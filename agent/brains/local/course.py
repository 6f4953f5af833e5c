"""How quality runs over the whole video: trend, stability and the overall grade (GQU)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agent.brains.local.common import (
    agree,
    asks_whether,
    nearest,
    segments,
    verdict,
    yes_no,
)
from agent.brains.local.evidence import Evidence, touching, type_hit
from agent.brains.local.levels import LEVEL_NAMES, grade, stretch_level
from agent.brains.stretches import (
    STEPWISE_RUNS,
    Stretch,
    lasting_pieces,
    pattern,
    profile,
    stepwise,
    stretches,
    total_s,
)
from agent.context import RunContext
from agent.questions import Mention, Option, Question, asked_part, type_name
from agent.timefmt import hms

_STABILITY_CLAIMS: tuple[tuple[str, str], ...] = (
    ("drifting", r"\b(gradual\w*|one direction|progressive\w*|drift\w*|steadily)\b"),
    ("occasional", r"\b(mostly|isolated|one or two|occasional\w*|a few|rare\w*|brief)\b"),
    ("fluctuating", r"\b(fluctuat\w*|repeated\w*|up and down|alternat\w*|unstable|"
                    r"inconsisten\w*|vary|varies)\b"),
    ("stable", r"\b(stable|consistent|constant|unchanged|steady|no (?:noticeable )?change)\b"),
)
_PATTERN_WORDS = {"stable": "stable", "occasional": "mostly stable with isolated drops",
                  "fluctuating": "fluctuating", "degrading": "changing gradually (worse)",
                  "improving": "changing gradually (better)"}


def course(ev: Evidence, ctx: RunContext,
           types: Sequence[Mention] = ()) -> tuple[str, list[float], list[Stretch]]:
    """The video's quality pattern, its impairment profile and its degraded stretches (of
    the named types only, when the question names some: "does the noise grow?")."""
    evs = ev.all_events()
    if types:
        evs = [e for e in evs if any(type_hit(m, [e["type"]]) > 0 for m in types)]
    found = stretches(evs)
    n = 6 if ctx.duration_s >= 120 else 4
    pieces = lasting_pieces(evs)
    prof = profile(pieces, 0.0, ctx.duration_s, n)
    return pattern(found, prof, ctx.duration_s, pieces), prof, found


def stability_claim(text: str) -> str | None:
    """What a stability option claims: stable | occasional | fluctuating | drifting."""
    low = text.lower()
    return next((k for k, pat in _STABILITY_CLAIMS if re.search(pat, low)), None)


# "each time it appears", "every time", "from one to the next": a claim about the drops in turn
_EACH_TIME = re.compile(r"\b(?:each|every|every single|with each)\s+(?:time|occurrence|"
                        r"appearance|episode|one|drop|stretch|segment)\b|\bone (?:to|after) "
                        r"(?:the )?(?:next|another)\b|\bsuccessive\w*\b|\bin turn\b|"
                        r"\bkeeps? (?:getting|growing|becoming|on getting)\b", re.I)


def by_level(found: Sequence[Stretch]) -> str | None:
    """"degrading" ("improving") when STEPWISE_RUNS or more separate drops of one type never
    step down (up) on their detector's own level scale and end at least one level above
    (below) where they began: severities do not compare across detectors, and a blur going
    mild -> severe moves less on the raw scale than a flicker doing the same."""
    if len(found) < STEPWISE_RUNS or len({s.type for s in found}) > 1:
        return None
    levels = [stretch_level(s) for s in found]
    steps = [b - a for a, b in zip(levels[:-1], levels[1:], strict=True)]
    if levels[-1] - levels[0] >= 1 and all(d >= 0 for d in steps):
        return "degrading"
    if levels[0] - levels[-1] >= 1 and all(d <= 0 for d in steps):
        return "improving"
    return None


# "near the end", "towards the end", "by the end", "later on": a claim about the end, not a trend
_AT_THE_END = re.compile(r"\b(?:near|towards?|by|at|around|in|during)\s+the\s+(?:very\s+)?(?:end|"
                         r"ending|close|finish|(?:last|second|latter|final|later)\s+(?:part|"
                         r"half|third|quarter|minutes?))\b|\blater\s+on\b", re.I)
_END_MARGIN = 0.05  # impairment (0 clean .. 1 severe) the end must differ by: a grade's tenth


def trend(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """Does quality (the named distortion) get worse (better) over time, or hold?"""
    kind, prof, found = course(ev, ctx, q.types)
    measured = "stable" if kind == "occasional" else kind
    choice = None
    claimed = q.claim
    trended = any(o.trend for o in q.options)  # "yes, it gets worse / no, it improves / ..."
    if q.options:
        if claimed and any(o.yes or o.no for o in q.options) and not trended:
            choice = yes_no(q, claimed == measured)
        else:
            choice = next((o.letter for o in q.options if o.trend == measured), None)
    lean = ""
    if measured in ("degrading", "improving") and stepwise(found) == measured:
        lean = (f", each of its {len(found)} separate drops "
                f"{'worse' if measured == 'degrading' else 'milder'} than the one before")
    if measured in ("fluctuating", "stable") and len(found) >= 2:
        # no one-way change overall: which way do the separate drops step, if any?
        way = stepwise(found, runs=2, same_type=False) or by_level(found)
        lean = f", its drops growing {'worse' if way == 'degrading' else 'milder'} in turn" \
            if way else ""
        if way and q.types:
            # of one named distortion ("does the blur get worse over time?", "is the
            # corruption getting worse or better?"), drops stepping one way say which
            measured = way
            if q.options:
                choice = next((o.letter for o in q.options if o.trend == way), None) if \
                    trended or not claimed else yes_no(q, claimed == way)
        elif q.options and choice is None:  # asked worse / better / the same
            choice = next((o.letter for o in q.options if o.trend == (way or "stable")),
                          None)
        elif way and claimed == way and _EACH_TIME.search(q.text):
            measured = way  # "does it get stronger each time it appears?": the drops say
            choice = yes_no(q, True) if q.options else None
    subject = type_name(q.type) if q.types else "quality"
    # said of a distortion, its own course: it grows as the picture degrades
    state = {"degrading": "growing", "improving": "fading", "stable": "steady"}.get(
        measured, measured) if q.types else measured
    said = f"{agree(subject, 'is', 'are')} {state} over the video"
    if measured == "stable" and found:  # not "stable" beside a part impaired 0.85
        said = (f"{agree(subject, 'shows', 'show')} no overall trend over the video, only "
                + ("an isolated drop" if len(found) == 1 else "isolated drops"))
        lean = lean.replace(", its drops growing", ", though they grow")
    text = (f"The {subject} {said}{lean}: "
            "impairment by part "
            + ", ".join(f"{p:.2f}" for p in prof) + " (0 clean .. 1 severe, in order); "
            f"{len(found)} degraded stretch(es)"
            + "".join(f"{', ' if i else ': '}{hms(s.start_s)}-{hms(s.end_s)} severity "
                      f"{s.severity:.2f}" for i, s in enumerate(found[:8])) + ".")
    if q.types and not found:
        text = (f"No {subject} was found anywhere in the video, so it neither grows nor fades "
                "(stable).")
    # ("No flicker was found ..." says no already)
    end_words = _AT_THE_END.search(q.text)
    toward_end = (not q.options or all(o.yes or o.no for o in q.options)) and bool(
        end_words) and len(prof) >= 3
    if claimed in ("degrading", "improving") and toward_end and found:
        # "does it get brighter near the end?": the end against the rest, not a trend
        part = end_words.group(0).lower()
        k = max(1, len(prof) // (2 if "half" in part else 4 if "quarter" in part else 3))
        end, rest = max(prof[-k:]), max(prof[:-k])
        holds = end > rest + _END_MARGIN if claimed == "degrading" else end + _END_MARGIN < rest
        late = [st for st in found if st.end_s > ctx.duration_s * (1 - k / len(prof))]
        said = (f"the last {k} of {len(prof)} parts reach impairment {end:.2f}, the parts "
                f"before at most {rest:.2f}"
                + (": " + ", ".join(f"{hms(st.start_s)}-{hms(st.end_s)} severity "
                                    f"{st.severity:.2f}" for st in late[:4]) if late else ""))
        text = verdict(holds, said + ". " + text)
        if q.options:  # yes / no: the end against the rest decides
            choice = yes_no(q, holds)
    elif claimed and asks_whether(q.text) and (found or not q.types):
        text = ("Yes. " if claimed == measured else "No. ") + text
    return {"answer": text, "choice": choice, "confidence": 0.6,
            "segments": segments([s.to_event() for s in found])}


# A stability question that claims the quality varies ("does it fluctuate?"), not that it holds.
_UNSTABLE = re.compile(r"\b(unstable|instabil\w*|fluctuat\w*|vary|varies|varying|"
                       r"inconsisten\w*|uneven|change|changes|changing|jump\w*)\b", re.I)


def stability(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """Is the viewing quality stable, occasionally hit, fluctuating or drifting?"""
    kind, prof, found = course(ev, ctx)
    choice = None
    if q.options:
        if any(o.yes or o.no for o in q.options) and not any(
                stability_claim(o.text) for o in q.options if not (o.yes or o.no)):
            asks_unstable = bool(_UNSTABLE.search(q.text))
            stable = kind == "stable"
            choice = yes_no(q, (not stable) if asks_unstable else stable)
        else:
            want = "drifting" if kind in ("degrading", "improving") else kind
            choice = next((o.letter for o in q.options if stability_claim(o.text) == want),
                          None)
    text = (f"The viewing quality is {_PATTERN_WORDS[kind]}: {len(found)} degraded "
            f"stretch(es) covering {total_s(found):.0f} s of {ctx.duration_s:.0f} s; "
            "impairment by part " + ", ".join(f"{p:.2f}" for p in prof) + ".")
    if not q.options and asks_whether(q.text):  # "is the quality consistent?"
        unstable = bool(_UNSTABLE.search(q.text))
        text = verdict((kind != "stable") == unstable, text)
    return {"answer": text, "choice": choice, "confidence": 0.55,
            "segments": segments([s.to_event() for s in found])}


# A yes/no question that claims the video is clean (or fit to deliver, as a QC pass is):
# yes means nothing was found; one that claims it is acceptable: yes means a good grade.
_CLEAN_CLAIM = re.compile(
    r"\b(free of|clean|without|no (?:visible |noticeable )?(?:quality )?(?:problems?|issues?|"
    r"distortions?)|broadcast|broadcast[- ]quality|air|airing|delivery|"
    r"pass(?:es)? (?:qc|quality control)|qc)\b", re.I)
# One that asks whether it can go out as it is ("OK to publish as is?", "ship it to the
# client?"): yes when the grade is good and no stretch is worse than mild.
_RELEASE_CLAIM = re.compile(r"\b(publish\w*|ship|shipping|release|deliver|upload\w*|"
                            r"sign(?:ed|ing)? off|as[\s-]+(?:it\s+)?is|the client|go live|"
                            r"go out|no-go|post-?production|"
                            r"approv\w*)\b",
                            re.I)
# "pass or fail?", "go/no-go", "QA verdict": a release decision, answered as one ("Pass" or
# "Fail" and why), on the release rule below, not with a grade alone.
_PASS_FAIL = re.compile(r"\bpass(?:es|ed)?\s*(?:or|/)\s*fail\w*|\bgo\s*/\s*no[\s-]?go\b|"
                        r"\b(?:qa|qc|quality(?:\s+control)?)\s+verdict\b", re.I)
_FAIR_CLAIM = re.compile(r"\b(good enough|acceptable|watchable|passable|usable|fine|ok|okay|"
                         r"decent|good|high|great|excellent|nice)\b", re.I)
GOOD_GRADE = 3.5  # "acceptable", "good": fair-to-good or better
_MOSTLY = re.compile(r"\b(mostly|largely|mainly|generally|predominantly|for the most part)\b",
                     re.I)
# One that claims it is bad: yes means a poor grade ("unacceptable": below a good one).
_POOR_CLAIM = re.compile(r"\b(poor|bad|low|terrible|awful|lousy|(unacceptable|unwatchable|"
                         r"unusable))\b", re.I)
POOR_GRADE = 2.5  # "poor": poor or bad


# "from 1 to 10", "on a 0-100 scale", "out of 10": the scale a rating is asked on.
_SCALE = re.compile(r"\b([01])\s*(?:\([^)]{0,30}\)\s*)?(?:to|-|–)\s*(5|10|100)\b"
                    r"|\bout\s+of\s+(5|10|100)\b", re.I)


def scale_of(text: str) -> tuple[int, int] | None:
    """The numeric scale a question asks for ("from 1 to 5", "0-10", "out of 10"), if any."""
    m = _SCALE.search(text)
    if not m:
        return None
    hi = int(m.group(2) or m.group(3))
    return (int(m.group(1)) if m.group(1) else 0 if hi == 100 else 1), hi


def number_scale(q: Question) -> tuple[int, int] | None:
    """Options that are all plain numbers ("1" .. "5") make a scale from the least to the
    most; None otherwise."""
    nums = [o.numbers[0] for o in q.options if len(o.numbers) == 1
            and o.level is None and o.grade is None and not o.durations]
    if len(q.options) < 3 or len(nums) != len(q.options):
        return None
    return int(min(nums)), int(max(nums))


def on_scale(text: str, g: float, scale: tuple[int, int] | None = None) -> str:
    """The grade (1 bad .. 5 excellent, the ACR scale) said on the scale the question asks
    for, if any: "4 on a 1-5 scale", "7.8 on a 1-10 scale"."""
    lo, hi = scale or scale_of(text) or (1, 5)
    return f"{round(scaled(g, lo, hi), 1):g} on a {lo}-{hi} scale, {hi} excellent"


def scaled(g: float, lo: float, hi: float) -> float:
    """The grade (1 .. 5) on the scale lo .. hi."""
    return lo + (g - 1.0) / 4.0 * (hi - lo)


def judges_quality(q: Question) -> bool:
    """Whether a yes/no question claims a grade of the whole ("is it acceptable / clean /
    poor?"): the overall grade answers it, whatever the kind its wording reads as."""
    asked = asked_part(q.text)  # ("anything wrong? looks fine to me": the asker's view)
    return bool(q.options) and all(o.yes or o.no for o in q.options) and bool(
        _CLEAN_CLAIM.search(asked) or _FAIR_CLAIM.search(asked)
        or _POOR_CLAIM.search(asked) or _RELEASE_CLAIM.search(asked))


# School grades as options ("A", "B+", "C", "D", "F") and the 1-5 grade each stands for
_LETTER_GRADE = re.compile(r"^\s*[A-F][+-]?\s*$", re.I)
_LETTER_POINTS = {"A": 5.0, "B": 4.0, "C": 3.0, "D": 2.0, "E": 1.0, "F": 1.0}


# "good except one damaged section", "fine apart from a soft patch": a grade with an exception
_EXCEPT = re.compile(r"\b(?:except|but|apart from|other than|aside from|save for|besides|"
                     r"bar|excluding|with (?:one|a|some|two|a few|several)\b)", re.I)


def _said_of_stretches(options: Sequence[Option], g: float, found: bool) -> list[Option]:
    """Of the options whose grade is as near the video's as any, those whose exception
    ("good except one damaged section") is said of a video with degraded stretches, or whose
    lack of one of a video without; all of them when that tells none apart."""
    graded = [o for o in options if o.grade is not None]
    if not graded:
        return list(options)
    best = min(abs(o.grade - g) for o in graded)
    tied = [o for o in graded if abs(o.grade - g) == best]
    fitting = [o for o in tied if bool(_EXCEPT.search(o.text)) == found]
    return fitting if 0 < len(fitting) < len(tied) else list(options)


def overall(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The overall grade, from the level-weighted share of the viewing impaired (of the
    question's window, when it names one: "rate the last 30 seconds")."""
    evs, span, of = ev.all_events(), ctx.duration_s, ""
    if q.window and q.window.end_s > q.window.start_s:
        a, b = q.window.start_s, q.window.end_s
        evs = [{**e, "start_s": max(e["start_s"], a), "end_s": min(e["end_s"], b)}
               for e in touching(evs, a, b)]
        span, of = b - a, f" of {hms(a)}-{hms(b)}"
    found = stretches(evs)
    g, detail = grade(found, span)
    choice = None
    asked = asked_part(q.text)
    pass_fail = bool(_PASS_FAIL.search(asked))
    clean_claim = not pass_fail and bool(_CLEAN_CLAIM.search(asked))
    poor = None if clean_claim or pass_fail else _POOR_CLAIM.search(asked)
    fair_claim = not clean_claim and not poor and bool(_FAIR_CLAIM.search(asked))
    release = pass_fail or not clean_claim and not poor and bool(_RELEASE_CLAIM.search(asked))
    fair_claim = fair_claim or release
    truth = (not found) if clean_claim else (
        g >= GOOD_GRADE and max((stretch_level(st) for st in found), default=0.0) < 2.0
    ) if release else g >= GOOD_GRADE if fair_claim else (
        g < (GOOD_GRADE if poor.group(2) else POOR_GRADE)) if poor else bool(found)
    if clean_claim and _MOSTLY.search(q.text):  # "mostly clean": most of it unimpaired
        truth = total_s(found) < 0.5 * ctx.duration_s
    numbers = number_scale(q)
    numbered = (scale_of(q.text) or numbers) if numbers else None
    letters_ = [_LETTER_GRADE.match(o.text) for o in q.options]
    if q.options and all(letters_) and re.search(r"\bgrade\b", q.text, re.I):
        # "grade this clip: A, B, C or D": school grades, A the best
        choice = nearest(q.options, lambda o: _LETTER_POINTS[o.text.strip()[0].upper()], g)
    elif q.options:
        if all(o.yes or o.no for o in q.options) or any(o.yes or o.no for o in q.options) \
                and not any(o.grade is not None for o in q.options):
            # ("oui, c'est bon / non, il y a des défauts": a yes and a no, whatever grade
            # their words also name)
            choice = yes_no(q, truth)
        elif numbered:  # "rate it from 1 to 5" over options "1" .. "5"
            choice = nearest(q.options, lambda o: o.numbers[0],
                             scaled(min(max(g, 1.0), 5.0), *numbered))
        elif any(o.grade is not None for o in q.options):
            choice = nearest(_said_of_stretches(q.options, g, bool(found)), lambda o: o.grade, g)
        elif any(o.level is not None for o in q.options):
            choice = nearest(q.options, lambda o: o.level, max(0.0, 5.0 - g) * 0.75)
    names = ["", "bad", "poor", "fair", "good", "excellent"]
    g = min(max(g, 1.0), 5.0)
    text = (f"Overall quality{of} is {names[int(round(g))]} ({on_scale(q.text, g, numbered)}): "
            f"{detail}.")
    worst = max(found, key=lambda s: s.severity) if found else None
    reason = (f"{len(found)} degraded stretch(es), the worst {worst.type} at "
              f"{hms(worst.start_s)} ({LEVEL_NAMES[int(stretch_level(worst))]}"
              + ("; not to go out as it is while a defect is worse than mild"
                 if release and not truth else "") + "). "
              ) if worst else "no quality event was found. "
    yes_no_options = bool(q.options) and all(o.yes or o.no for o in q.options)
    if pass_fail and not yes_no_options:  # "pass or fail?": the release rule, named as such
        text = ("Pass: " if truth else "Fail: ") + reason + text
    elif (clean_claim or fair_claim or poor) and (asks_whether(q.text) or yes_no_options):
        text = verdict(truth, reason + text)  # "would it pass QC?"
    return {"answer": text, "choice": choice, "confidence": 0.5,
            "segments": segments([s.to_event() for s in found])}
