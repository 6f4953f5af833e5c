"""NDQA questions: how each table-S5 distortion is named, which ones a viewer could confuse,
several natural phrasings per dimension, the ground truth of a planned video (trend,
stability, dominant distortion, overall grade), and the item makers that turn a plan into
balanced MCQ and open-ended items with reference answers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from bench import distort
from bench.items import MCQ_DIMENSIONS, OPEN_DIMENSION, Distortion, Item, Span

SEGMENT_S = 15.0
# Weight of each level in the overall impairment (share of the video x weight).
LEVEL_WEIGHT = {1: 0.25, 2: 0.6, 3: 1.0}
GRADE_CUTS = (0.3, 0.7)  # impairment: <= 0.3 Good, <= 0.7 Fair, else Poor (0: Excellent)
GRADE_MARGIN = 0.03  # impairments this close to a cut get a yes/no question instead


@dataclass(frozen=True)
class Vocab:
    """How one distortion is named: a specific label (options) and nouns (question text)."""

    label: str
    nouns: tuple[str, ...]
    why: str  # why it hurts perceived quality (open-ended references)


VOCAB: dict[str, Vocab] = {
    "brightness": Vocab("Overexposure (brightness increase)", ("overexposure",
                        "excessive brightness"), "bright areas are blown out and lose their "
                        "detail, so the picture looks washed out and glaring"),
    "contrast": Vocab("Contrast reduction", ("reduced contrast", "low contrast"),
                      "dark and bright areas move toward a flat grey, so the picture looks dull "
                      "and shapes are harder to separate"),
    "defocus_blur": Vocab("Defocus blur", ("defocus blur", "out-of-focus blur"),
                          "the picture is out of focus: edges and fine detail are smeared and "
                          "the eye looks in vain for a sharp point"),
    "gaussian_blur": Vocab("Gaussian blur", ("blur", "blurring"),
                           "edges and fine textures are softened, so the picture loses detail "
                           "and looks smeared"),
    "motion_blur": Vocab("Motion blur", ("motion blur", "motion smearing"),
                         "every edge is streaked in one direction, as if the camera moved during "
                         "the exposure, which blurs detail"),
    "gaussian_noise": Vocab("Gaussian noise", ("noise", "grainy noise"),
                            "random grain covers flat areas and fine detail, making the "
                            "picture look dirty"),
    "hue_shift": Vocab("Hue shift (colour cast)", ("hue shift", "colour cast"),
                       "colours are rotated away from their natural hue, so skin, sky and "
                       "objects look unnatural"),
    "jpeg": Vocab("JPEG compression artifacts", ("compression artifacts", "blockiness"),
                  "coding blocks and ringing break up smooth areas and wipe out fine detail"),
    "pixelation": Vocab("Pixelation", ("pixelation", "pixelated blocks"),
                        "the picture is rebuilt from coarse square blocks, so detail is lost "
                        "and edges turn into staircases"),
    "poisson_noise": Vocab("Poisson (shot) noise", ("shot noise", "photon noise"),
                           "strong grain that grows with brightness covers the picture and "
                           "masks texture"),
    "salt_pepper": Vocab("Salt-and-pepper noise", ("salt-and-pepper noise", "impulse noise"),
                         "isolated black and white pixels are scattered over the picture like "
                         "dust, which is very distracting"),
    "saturation": Vocab("Saturation shift", ("saturation shift", "unnatural saturation"),
                        "colour intensity departs from natural levels, so the scene looks "
                        "either faded or garishly vivid"),
    "sharpening": Vocab("Over-sharpening (halo artifacts)", ("over-sharpening", "halo artifacts"),
                        "bright halos and ringing appear along edges, giving a harsh, "
                        "artificial look"),
    "speckle_noise": Vocab("Speckle noise", ("speckle noise", "speckled noise"),
                           "multiplicative speckles cover the picture, strongest in bright "
                           "areas, so it looks snowy"),
    "flicker": Vocab("Flicker", ("flicker", "flickering"),
                     "the brightness swings rapidly from frame to frame, which is tiring and "
                     "uncomfortable to watch"),
    "frame_drop": Vocab("Frame drops", ("dropped frames", "frame drops"),
                        "missing frames make motion jump instead of flowing, so movement looks "
                        "choppy"),
    "jitter": Vocab("Jitter (camera shake)", ("jitter", "camera shake"),
                    "the whole picture shakes from frame to frame, which makes it hard to "
                    "follow and causes fatigue"),
    "stutter": Vocab("Stutter (freezes)", ("stutter", "freezing"),
                     "the picture freezes and then jumps ahead, interrupting motion and the "
                     "viewer's immersion"),
}
# Saturation level 1 (x0.8) fades colours; levels 2 and 3 (x2, x4) make them garish.
_SATURATION = {1: ("Desaturation (faded colours)", ("desaturated colours", "faded colours")),
               2: ("Oversaturation (over-vivid colours)", ("oversaturated colours",
                                                          "unnaturally vivid colours"))}

# Event categories a viewer (or a measurement) could mistake for each other: never offered as
# the "wrong" answer to each other, so every item has one defensible answer.
_CONFUSABLE_PAIRS = (
    ("blur", "compression"), ("blur", "exposure"), ("noise", "sharpening"),
    ("noise", "compression"), ("exposure", "colour"), ("exposure", "flicker"),
    ("frame_drop", "stutter"), ("blur", "jitter"),
)
LEVEL_WORDS = {1: "mild", 2: "moderate", 3: "severe"}


def category(name: str) -> str:
    """The event category (tools' event type) of a distortion."""
    return distort.get(name).event_type


def confusable(a: str, b: str) -> bool:
    """Whether two event categories could be mistaken for each other (or are the same)."""
    return a == b or (a, b) in _CONFUSABLE_PAIRS or (b, a) in _CONFUSABLE_PAIRS


def label(name: str, level: int = 2) -> str:
    """The specific option label of a distortion at a level ("Gaussian blur")."""
    if name == "saturation":
        return _SATURATION[1 if level == 1 else 2][0]
    return VOCAB[name].label


def noun(name: str, level: int, rng: np.random.Generator) -> str:
    """A noun phrase naming a distortion in a question ("blur", "camera shake")."""
    nouns = _SATURATION[1 if level == 1 else 2][1] if name == "saturation" else VOCAB[name].nouns
    return str(rng.choice(nouns))


def short(name: str, level: int = 2) -> str:
    """The canonical short noun of a distortion, for lists ("blur", "frame drops")."""
    if name == "saturation":
        return _SATURATION[1 if level == 1 else 2][1][0]
    return VOCAB[name].nouns[0]


def the(phrase: str) -> str:
    """'blur' -> 'the blur'."""
    return f"the {phrase}"


_PLURAL = ("frames", "drops", "artifacts", "colours", "blocks")


def plural(phrase: str) -> bool:
    """Whether a distortion noun phrase takes a plural verb ("dropped frames are")."""
    return phrase.split()[-1] in _PLURAL


def fill(template: str, noun: str = "", **values: Any) -> str:
    """A template with {noun}, {the_noun} and verbs agreeing with it ({be}, {Be}, {do}, {Do})."""
    many = plural(noun)
    return template.format(noun=noun, the_noun=the(noun), be="are" if many else "is",
                           Be="Are" if many else "Is", do="do" if many else "does",
                           Do="Do" if many else "Does", **values)


# ---------------------------------------------------------------- times


def clock(t: float) -> str:
    """m:ss under an hour, h:mm:ss beyond ("1:15", "1:02:30")."""
    s = int(round(t))
    h, m, sec = s // 3600, s // 60 % 60, s % 60
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def window_phrase(a: float, b: float, rng: np.random.Generator) -> str:
    """A window in question text: "between 1:15 and 1:30", "from 1:15 to 1:30"."""
    forms = ("between {a} and {b}", "from {a} to {b}", "in the interval {a}-{b}")
    return str(rng.choice(forms)).format(a=clock(a), b=clock(b))


def option_window(a: float, b: float, style: int) -> str:
    """A window as an option, in one of three styles (one style per item)."""
    return ("{a} - {b}", "From {a} to {b}", "{a}-{b}")[style % 3].format(a=clock(a), b=clock(b))


# ---------------------------------------------------------------- templates

DETECTION_NAMED = (
    "{Be} there any {noun} {win}?",
    "Does the video show {noun} {win}?",
    "Can {noun} be noticed {win}?",
    "{Be} {noun} present in the video {win}?",
)
DETECTION_GENERIC = (
    "Is there any visible quality distortion {win}?",
    "Does the picture show any degradation {win}?",
)
LOCALIZATION_NAMED = (
    "When {do} {the_noun} occur?",
    "At what point in the video {do} {noun} appear?",
    "During which interval {be} {the_noun} visible?",
    "In which time range does the video suffer from {noun}?",
)
LOCALIZATION_GENERIC = (
    "When does a visible quality distortion appear in the video?",
    "At what time does the picture quality degrade?",
)
CLASSIFICATION = (
    "What type of distortion appears {win}?",
    "Which kind of degradation affects the picture {win}?",
    "What kind of artifact can be seen {win}?",
)
CLASSIFICATION_WHOLE = (
    "What kind of distortion occurs in this video?",
    "Which type of quality degradation does this video contain?",
)
SEVERITY = (
    ("How severe {be} {the_noun} {win}?", ("Mild", "Moderate", "Severe")),
    ("How strong {be} {the_noun} {win}?", ("Slight", "Moderate", "Strong")),
    ("How much {do} {the_noun} {win} affect viewing comfort?",
     ("Slightly: it is easy to overlook", "Moderately: it is noticeable and somewhat distracting",
      "Severely: it is very disturbing to watch")),
)
COMPARISON_WINDOWS = (
    "Which of these intervals shows the most severe degradation?",
    "Which of the following intervals has the worst picture quality?",
    "In which of these intervals is the distortion most disturbing to watch?",
)
COMPARISON_TYPES = (
    "Which distortion is more severe: {a} or {b}?",
    "Which is more disturbing to watch, {a} or {b}?",
)
COMPARISON_YESNO = (
    "{Be_a} {a} {win_a} more severe than {b} {win_b}?",
    "{Be_a} {a} {win_a} milder than {b} {win_b}?",
)
CUMULATIVE_DURATION = (
    "In total, for roughly how long is the picture degraded over the whole video?",
    "Adding up all the distorted stretches, how long does the degradation last in total?",
)
CUMULATIVE_COUNT = (
    "How many separate distortion events accumulate over the course of the video?",
    "How many times does the viewer run into a quality degradation during the video?",
)
INTEGRATION_SET = (
    "Which distortion types appear in the video?",
    "Taking all segments into account, which set of distortions does the video contain?",
)
INTEGRATION_COUNT = (
    "How many different types of distortion appear across the video?",
    "Considering the whole video, how many distinct kinds of distortion does it contain?",
)
TEMPORAL_ORDER = (
    ("first", "Which distortion appears first in the video?"),
    ("first", "Which of these degradations occurs earliest?"),
    ("last", "Which distortion occurs last in the video?"),
    ("last", "Which of these degradations appears latest in the video?"),
)
TEMPORAL_YESNO = (
    ("before", "{Do_a} {a} occur before {b}?"),
    ("after", "{Do_a} {a} appear after {b}?"),
)
TEMPORAL_PAIR = "In what order do {a} and {b} occur?"
STABILITY = (
    "How stable is the viewing quality throughout the video?",
    "How consistent is the picture quality over the whole video?",
)
STABILITY_OPTIONS = {
    "stable": "Stable throughout, with no noticeable change",
    "occasional": "Mostly stable, with one or two isolated drops",
    "fluctuating": "Fluctuates repeatedly between good and poor quality",
    "drifting": "Changes gradually in one direction",
}
STABILITY_YESNO = (
    (True, "Is the picture quality consistent throughout the video?"),
    (False, "Does the picture quality vary noticeably over the course of the video?"),
)
DOMINANT = (
    "What is the dominant distortion in this video?",
    "Which distortion contributes most to the overall quality loss?",
    "Which degradation most strongly affects the overall viewing experience?",
)
NO_DISTORTION = "No noticeable distortion"
TREND = (
    "How does the picture quality change as the video progresses?",
    "What is the overall trend of the picture quality from start to end?",
)
TREND_OPTIONS = {
    "improving": "It improves over time",
    "stable": "It stays about the same",
    "degrading": "It gets worse over time",
    "fluctuating": "It fluctuates up and down",
}
TREND_YESNO = (
    ("degrading", "Does the picture quality get worse as the video goes on?"),
    ("improving", "Does the picture quality improve as the video goes on?"),
)
OVERALL = (
    "How would you rate the overall picture quality of this video?",
    "What is the overall perceptual quality of the whole video?",
)
GRADES = ("Excellent", "Good", "Fair", "Poor")
OVERALL_YESNO = (
    (True, "Overall, is this video free of visible quality problems?"),
    (False, "Does this video contain visible quality problems?"),
)
OPEN = {
    "LQU": (
        "Why {do} {the_noun} {win} reduce the perceived quality of the video?",
        "Describe the distortion {win} and explain how it affects the viewing experience.",
    ),
    "CQR": (
        "Describe the distortions in this video, when they occur, and how they compare in "
        "severity.",
        "Explain how the different distortions in this video follow each other over time and "
        "how together they affect the viewing experience.",
    ),
    "GQU": (
        "Explain how the picture quality evolves over the whole video and what mainly "
        "determines the overall impression.",
        "Describe the overall picture quality of the video and justify your judgement with "
        "what happens over time.",
    ),
}


def count_word(n: int) -> str:
    """Small counts as words ("Three")."""
    words = ("Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight")
    return words[n] if 0 <= n < len(words) else str(n)


def seconds_phrase(s: float) -> str:
    """A total duration as an option: "About 45 seconds", "About 1 minute 30 seconds"."""
    s = int(round(s))
    if s < 60:
        return f"About {s} seconds"
    m, r = divmod(s, 60)
    mins = f"{m} minute" + ("s" if m > 1 else "")
    return f"About {mins}" + (f" {r} seconds" if r else "")


def join_words(words: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


# ---------------------------------------------------------------- the plan a question is about


@dataclass(frozen=True)
class Needle:
    """One planned distortion: table-S5 name, level 1-3, and its span in seconds."""

    distortion: str
    level: int
    start_s: float
    end_s: float

    @property
    def category(self) -> str:
        return category(self.distortion)


@dataclass
class VideoPlan:
    """One video: its level, pattern, duration, content seed and needles."""

    key: str
    level: str
    pattern: str
    duration_s: float
    seed: int
    needles: list[Needle] = field(default_factory=list)

    @property
    def path(self) -> str:
        return f"videos/{self.key}.mp4"

    @property
    def n_segments(self) -> int:
        return int(round(self.duration_s / SEGMENT_S))

    def segment(self, i: int) -> tuple[float, float]:
        return i * SEGMENT_S, (i + 1) * SEGMENT_S

    def clean_segments(self) -> list[int]:
        """Segments no needle touches."""
        return [i for i in range(self.n_segments)
                if not any(n.start_s < (i + 1) * SEGMENT_S and n.end_s > i * SEGMENT_S
                           for n in self.needles)]

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "level": self.level, "pattern": self.pattern,
                "duration_s": self.duration_s, "seed": self.seed, "path": self.path,
                "needles": [asdict(n) for n in self.needles]}


# ---------------------------------------------------------------- ground-truth facts


def impairment(p: VideoPlan) -> float:
    """0 (clean) .. 1: the share of the video under a needle, weighted by level."""
    return sum(LEVEL_WEIGHT[n.level] * (n.end_s - n.start_s) for n in p.needles) / p.duration_s


def grade(imp: float) -> str:
    """Overall grade from the impairment (Excellent only when clean)."""
    if imp <= 0:
        return "Excellent"
    return "Good" if imp <= GRADE_CUTS[0] else "Fair" if imp <= GRADE_CUTS[1] else "Poor"


def trend_of(p: VideoPlan) -> str | None:
    """improving | degrading | stable | fluctuating; None when no one word fits."""
    return {"degrading": "degrading", "improving": "improving", "stable": "stable",
            "clean": "stable", "fluctuating": "fluctuating"}.get(p.pattern)


def stability_of(p: VideoPlan) -> str:
    return {"clean": "stable", "stable": "stable", "dominant": "occasional",
            "fluctuating": "fluctuating"}.get(p.pattern, "drifting")


def dominant_of(p: VideoPlan) -> Needle | None:
    """The needle type with the largest level-weighted time (None for a clean video)."""
    load: Counter[str] = Counter()
    for n in p.needles:
        load[n.distortion] += LEVEL_WEIGHT[n.level] * (n.end_s - n.start_s)
    if not load:
        return None
    top = load.most_common(1)[0][0]
    return max((n for n in p.needles if n.distortion == top), key=lambda n: n.level)


# ---------------------------------------------------------------- balancing


class Balancer:
    """Puts the correct option where it has been least often (per option count) and picks
    yes/no polarities that keep yes and no even."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.pos: dict[int, Counter[int]] = {}
        self.yes = self.no = 0
        self.journal: list[tuple[str, int, int]] = []

    def mark(self) -> int:
        return len(self.journal)

    def rollback(self, mark: int) -> None:
        """Undo what was counted since `mark` (an item that was not kept)."""
        while len(self.journal) > mark:
            what, a, b = self.journal.pop()
            if what == "slot":
                self.pos[a][b] -= 1
            elif a:
                self.yes -= 1
            else:
                self.no -= 1

    def slot(self, n: int, allowed: Sequence[int] | None = None) -> int:
        counts = self.pos.setdefault(n, Counter())
        cands = list(allowed if allowed is not None else range(n))
        least = min(counts[i] for i in cands)
        best = [i for i in cands if counts[i] == least]
        p = int(best[int(self.rng.integers(len(best)))])
        counts[p] += 1
        self.journal.append(("slot", n, p))
        return p

    def place(self, gold: str, distractors: Sequence[str]) -> tuple[list[str], str]:
        """Options (distractors shuffled) with gold at a balanced slot, and its letter."""
        others = [distractors[i] for i in self.rng.permutation(len(distractors))]
        p = self.slot(len(others) + 1)
        return others[:p] + [gold] + others[p:], chr(ord("A") + p)

    def ordinal(self, gold: int, step: int, low: int, n: int = 4) -> tuple[list[int], str]:
        """n consecutive values (gold among them) in increasing order, gold at a balanced slot
        among the slots that keep every value >= low."""
        allowed = [p for p in range(n) if gold - p * step >= low]
        p = self.slot(n, allowed)
        return [gold + (i - p) * step for i in range(n)], chr(ord("A") + p)

    def want_yes(self) -> bool:
        return self.yes < self.no or (self.yes == self.no and bool(self.rng.random() < 0.5))

    def yes_no(self, truth: bool) -> tuple[list[str], str]:
        self.yes += truth
        self.no += not truth
        self.journal.append(("yes_no", int(truth), 0))
        return self.place("Yes" if truth else "No", ["No" if truth else "Yes"])

    def pick(self, cands: Sequence[tuple[bool, Any]]) -> tuple[bool, Any]:
        """One (truth, payload) candidate, preferring the truth that restores the balance."""
        want = self.want_yes()
        pool = [c for c in cands if c[0] == want] or list(cands)
        return pool[int(self.rng.integers(len(pool)))]


# ---------------------------------------------------------------- item building


@dataclass
class _Ctx:
    plan: VideoPlan
    rng: np.random.Generator
    bal: Balancer
    seed: int
    pool: list[str]
    offset: int = 0  # the video's number: varies which variant comes first
    items: list[Item] = field(default_factory=list)
    used: set[str] = field(default_factory=set)
    counts: Counter[str] = field(default_factory=Counter)


def _pick(rng: np.random.Generator, seq: Sequence[Any]) -> Any:
    return seq[int(rng.integers(len(seq)))]


def _distortions(p: VideoPlan) -> list[Distortion]:
    return [Distortion(type=n.distortion, level=n.level,
                       params={"intensity": distort.intensity(n.distortion, n.level)
                               if n.distortion != "poisson_noise" else None,
                               "category": n.category},
                       start_s=n.start_s, end_s=n.end_s) for n in p.needles]


def _spans(needles: Sequence[Needle]) -> list[Span]:
    return [Span(start_s=n.start_s, end_s=n.end_s, label=f"{n.distortion}:{n.level}")
            for n in needles]


def _add(c: _Ctx, dim: str, qtype: str, question: str, options: Sequence[str] | None,
         gold: str, spans: Sequence[Needle] = (), **tags: Any) -> bool:
    """Add one item; False (nothing added) when the video already has this question."""
    if question in c.used:
        return False
    c.used.add(question)
    c.counts[dim] += 1
    abbr = "O" if dim == OPEN_DIMENSION else next(d.abbr for d in MCQ_DIMENSIONS if d.key == dim)
    p = c.plan
    c.items.append(Item(
        id=f"ndqa-s{c.seed}-{p.key}-{abbr}{c.counts[dim]}",
        benchmark="ndqa",
        videos=[p.path],
        question=question,
        format="open" if dim == OPEN_DIMENSION else "mcq",
        options=list(options or []),
        gold=gold,
        question_type=qtype,
        tags={"level": p.level, "dimension": dim, "pattern": p.pattern, "video_key": p.key,
              "duration_s": p.duration_s, **tags},
        spans=_spans(spans),
        distortions=_distortions(p),
    ))
    return True


def _yes_no_item(c: _Ctx, dim: str, cands: Sequence[tuple[bool, str, Sequence[Needle]]],
                 **tags: Any) -> bool:
    truth, (question, spans) = c.bal.pick([(t, (q, s)) for t, q, s in cands])
    options, gold = c.bal.yes_no(truth)
    return _add(c, dim, "yes_no", question, options, gold, spans, truth=truth, **tags)


def _other_kinds(c: _Ctx, pool: Sequence[str], avoid: Sequence[str], k: int) -> list[str]:
    """k distortions whose categories differ from, and cannot be confused with, `avoid`'s
    and with each other."""
    cats = [category(a) for a in avoid]
    out: list[str] = []
    for i in c.rng.permutation(len(pool)):
        name = pool[int(i)]
        cat = category(name)
        if all(not confusable(cat, x) for x in cats + [category(o) for o in out]):
            out.append(name)
        if len(out) == k:
            break
    if len(out) < k:  # small pools: fall back to any other category
        for name in distort.DISTORTIONS:
            cat = category(name)
            if len(out) < k and name not in out and all(
                    not confusable(cat, x) for x in cats + [category(o) for o in out]):
                out.append(name)
    return out


def _fill(c: _Ctx, dim: str, maker: Callable[[_Ctx, int], bool], n: int) -> None:
    """n items of one dimension. The maker gets the attempt number, which picks its variant,
    and may decline (a variant that does not fit the video, or a repeated question)."""
    for attempt in range(12 * n + 12):
        if c.counts[dim] >= n:
            break
        mark = c.bal.mark()
        if not maker(c, attempt + c.offset):
            c.bal.rollback(mark)


# --- LQU


def _lqu_detection(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    nd = p.needles[0]
    a, b = nd.start_s, nd.end_s
    free = p.clean_segments()
    ca, cb = p.segment(int(_pick(rng, free))) if free else (a, b)
    named = _pick(rng, DETECTION_NAMED)
    generic = _pick(rng, DETECTION_GENERIC)
    other = _other_kinds(c, c.pool, [nd.distortion], 1)[0]
    nn = noun(nd.distortion, nd.level, rng)
    cands: list[tuple[bool, str, Sequence[Needle]]] = [
        (True, fill(named, nn, win=window_phrase(a, b, rng)), [nd]),
        (True, generic.format(win=window_phrase(a, b, rng)), [nd]),
        (False, generic.format(win=window_phrase(ca, cb, rng)), []),
        (False, fill(named, noun(other, 2, rng), win=window_phrase(a, b, rng)), []),
    ]
    if free:
        cands.append((False, fill(named, nn, win=window_phrase(ca, cb, rng)), []))
    return _yes_no_item(c, "detection", cands)


def _window_options(c: _Ctx, target: tuple[float, float], others: Sequence[int],
                    k: int) -> tuple[list[str], str]:
    style = int(c.rng.integers(3))
    pick = [others[int(i)] for i in c.rng.permutation(len(others))[:k]]
    distract = [option_window(*c.plan.segment(s), style) for s in pick]
    return c.bal.place(option_window(*target, style), distract)


def _lqu_localization(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    nd = p.needles[0]
    named = j % 3 != 2
    if named:
        nn = noun(nd.distortion, nd.level, rng)
        q = fill(_pick(rng, LOCALIZATION_NAMED), nn)
    else:
        q = _pick(rng, LOCALIZATION_GENERIC)
    options, gold = _window_options(c, (nd.start_s, nd.end_s), p.clean_segments(), 3)
    return _add(c, "localization", "which", q, options, gold, [nd], named=named)


def _lqu_classification(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    nd = p.needles[0]
    if j % 4 == 3:
        q = _pick(rng, CLASSIFICATION_WHOLE)
    else:
        q = _pick(rng, CLASSIFICATION).format(win=window_phrase(nd.start_s, nd.end_s, rng))
    others = _other_kinds(c, c.pool, [nd.distortion], 3)
    options, gold = c.bal.place(label(nd.distortion, nd.level),
                                [label(o, 2) for o in others])
    return _add(c, "classification", "what", q, options, gold, [nd])


def _severity_item(c: _Ctx, nd: Needle, j: int) -> bool:
    template, scale = SEVERITY[j % len(SEVERITY)]
    nn = noun(nd.distortion, nd.level, c.rng)
    q = fill(template, nn, win=window_phrase(nd.start_s, nd.end_s, c.rng))
    c.bal.slot(3, [nd.level - 1])  # ordinal scale: position is the level itself
    return _add(c, "severity_comfort", "how", q, list(scale), chr(ord("A") + nd.level - 1),
                [nd], target_level=nd.level)


def _lqu_severity(c: _Ctx, j: int) -> bool:
    return _severity_item(c, c.plan.needles[0], j)


# --- CQR


def _names(needles: Sequence[Needle], rng: np.random.Generator) -> list[str]:
    return [the(noun(n.distortion, n.level, rng)) for n in needles]


def _cqr_comparison(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    top = max(p.needles, key=lambda n: n.level)
    variant = j % 3
    if variant == 0:
        q = _pick(rng, COMPARISON_WINDOWS)
        style = int(rng.integers(3))
        rest = [n for n in p.needles if n is not top]
        distract = [option_window(n.start_s, n.end_s, style) for n in rest]
        clean = p.clean_segments()
        for i in rng.permutation(len(clean))[: max(0, 3 - len(distract))]:
            distract.append(option_window(*p.segment(clean[int(i)]), style))
        options, gold = c.bal.place(option_window(top.start_s, top.end_s, style), distract)
        return _add(c, "comparison", "which", q, options, gold, [top])
    pairs = [(a, b) for a in p.needles for b in p.needles
             if a is not b and a.level != b.level]
    if not pairs:
        return False
    a, b = pairs[int(rng.integers(len(pairs)))]
    na, nb = _names([a, b], rng)
    if variant == 1:
        q = _pick(rng, COMPARISON_TYPES).format(a=na, b=nb)
        worse, other = (a, b) if a.level > b.level else (b, a)
        options, gold = c.bal.place(label(worse.distortion, worse.level),
                                    [label(other.distortion, other.level)])
        return _add(c, "comparison", "which", q, options, gold, [worse])
    cands = []
    for k, template in enumerate(COMPARISON_YESNO):
        for x, y, nx, ny in ((a, b, na, nb), (b, a, nb, na)):
            truth = x.level > y.level if k == 0 else x.level < y.level
            cands.append((truth, template.format(
                a=nx, b=ny, Be_a="Are" if plural(nx) else "Is",
                win_a=window_phrase(x.start_s, x.end_s, rng),
                win_b=window_phrase(y.start_s, y.end_s, rng)), [x, y]))
    return _yes_no_item(c, "comparison", cands)


def _cqr_cumulative(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    m = len(p.needles)
    if j % 2 == 0:
        total = int(sum(n.end_s - n.start_s for n in p.needles))
        values, gold = c.bal.ordinal(total, int(SEGMENT_S), int(SEGMENT_S))
        q = _pick(rng, CUMULATIVE_DURATION)
        return _add(c, "cumulative_effect", "how", q, [seconds_phrase(v) for v in values],
                    gold, p.needles, target_seconds=total)
    values, gold = c.bal.ordinal(m, 1, 1)
    q = _pick(rng, CUMULATIVE_COUNT)
    return _add(c, "cumulative_effect", "how", q, [count_word(v) for v in values], gold,
                p.needles, target_count=m)


def _cqr_integration(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    m = len(p.needles)
    if j % 2 == 1:
        values, gold = c.bal.ordinal(m, 1, 1)
        q = _pick(rng, INTEGRATION_COUNT)
        return _add(c, "integration", "how", q, [count_word(v) for v in values], gold,
                    p.needles, target_count=m)
    present = [short(n.distortion, n.level) for n in p.needles]
    absent = [short(o) for o in _other_kinds(c, c.pool, [n.distortion for n in p.needles], 2)]
    # Wrong sets: one type swapped for an absent one, one absent type added, one type left out.
    sets: list[list[str]] = []
    for k, extra in enumerate(absent):
        swap = list(present)
        swap[int(rng.integers(m))] = extra
        sets.append(swap)
        if k == 0:
            sets.append(present + [extra])
    if m > 1:
        sets += [present[:i] + present[i + 1:] for i in rng.permutation(m).tolist()]
    sets = [sets[i] for i in rng.permutation(len(sets))]
    gold_text = join_words(present).capitalize()
    distract: list[str] = []
    for s in sets:
        text = join_words(s).capitalize()
        if s and set(s) != set(present) and text not in distract:
            distract.append(text)
    if len(distract) < 2:
        return False
    options, gold = c.bal.place(gold_text, distract[:3])
    return _add(c, "integration", "which", _pick(rng, INTEGRATION_SET), options, gold,
                p.needles)


def _cqr_temporal(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    order = sorted(p.needles, key=lambda n: n.start_s)
    variant = j % 3
    if variant == 0:
        which, q = _pick(rng, TEMPORAL_ORDER)
        target = order[0] if which == "first" else order[-1]
        others = [label(n.distortion, n.level) for n in order if n is not target]
        if len(others) < 2:
            others += [label(o, 2) for o in
                       _other_kinds(c, c.pool, [n.distortion for n in order], 1)]
        options, gold = c.bal.place(label(target.distortion, target.level), others)
        return _add(c, "temporal_relation", "which", q, options, gold, [target], order=which)
    a, b = (order[i] for i in sorted(rng.choice(len(order), 2, replace=False).tolist()))
    na, nb = _names([a, b], rng)
    if variant == 1:
        cands = []
        for rel, template in TEMPORAL_YESNO:
            for x, y, nx, ny, first in ((a, b, na, nb, True), (b, a, nb, na, False)):
                truth = first if rel == "before" else not first
                cands.append((truth, template.format(a=nx, b=ny,
                                                     Do_a="Do" if plural(nx) else "Does"), [x, y]))
        return _yes_no_item(c, "temporal_relation", cands)
    sa, sb = (short(n.distortion, n.level) for n in (a, b))

    def order(x: str, y: str) -> str:
        return f"{the(x).capitalize()} {'come' if plural(x) else 'comes'} first, then {the(y)}"
    options, gold = c.bal.place(order(sa, sb), [order(sb, sa), "They occur at the same time"])
    return _add(c, "temporal_relation", "which", TEMPORAL_PAIR.format(a=na, b=nb), options,
                gold, [a, b])


# --- GQU


def _gqu_stability(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    truth = stability_of(p)
    if j % 2 == 1:
        cands = [(want if truth == "stable" else not want, q, p.needles)
                 for want, q in STABILITY_YESNO]
        return _yes_no_item(c, "stability", cands, target=truth)
    gold = STABILITY_OPTIONS[truth]
    distract = [v for k, v in STABILITY_OPTIONS.items() if k != truth]
    options, letter = c.bal.place(gold, distract)
    return _add(c, "stability", "how", _pick(rng, STABILITY), options, letter, p.needles,
                target=truth)


def _gqu_dominant(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    top = dominant_of(p)
    present = {n.distortion for n in p.needles}
    minor = [n for n in p.needles if top is None or n.distortion != top.distortion]
    distract = [label(n.distortion, n.level) for n in minor[:1]]
    avoid = list(present) or ["gaussian_blur"]
    if top is None:
        avoid = []
    distract += [label(o, 2) for o in _other_kinds(c, c.pool, avoid, 3 - len(distract))]
    if top is None:
        gold_text = NO_DISTORTION
    else:
        gold_text = label(top.distortion, top.level)
        if j % 2 == 1:
            distract[-1] = NO_DISTORTION
    options, gold = c.bal.place(gold_text, distract[:3])
    spans = [n for n in p.needles if top is not None and n.distortion == top.distortion]
    return _add(c, "dominant_factor", "what", _pick(rng, DOMINANT), options, gold, spans,
                target=top.distortion if top else None)


def _gqu_trend(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    truth = trend_of(p)
    if truth is None or j % 2 == 1:
        cands = [(truth == t, q, p.needles) for t, q in TREND_YESNO]
        return _yes_no_item(c, "trend", cands, target=truth)
    gold = TREND_OPTIONS[truth]
    options, letter = c.bal.place(gold, [v for k, v in TREND_OPTIONS.items() if k != truth])
    return _add(c, "trend", "how", _pick(rng, TREND), options, letter, p.needles,
                target=truth)


def _gqu_overall(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    imp = impairment(p)
    g = grade(imp)
    borderline = any(abs(imp - cut) < GRADE_MARGIN for cut in GRADE_CUTS)
    if borderline or j % 2 == 1:
        clean = not p.needles
        cands = [(want if clean else not want, q, p.needles) for want, q in OVERALL_YESNO]
        return _yes_no_item(c, "overall", cands, target=g, impairment=round(imp, 3))
    options, letter = c.bal.place(g, [x for x in GRADES if x != g])
    return _add(c, "overall", "how", _pick(rng, OVERALL), options, letter, p.needles,
                target=g, impairment=round(imp, 3))


# --- open-ended


def _open_item(c: _Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    templates = OPEN[p.level]
    template = templates[j % len(templates)]
    if p.level == "LQU":
        nd = p.needles[0]
        nn = noun(nd.distortion, nd.level, rng)
        q = fill(template, nn, win=window_phrase(nd.start_s, nd.end_s, rng))
    else:
        q = template
    return _add(c, OPEN_DIMENSION, "open", q, None, reference(p), p.needles)


def _needle_text(n: Needle) -> str:
    return (f"{LEVEL_WORDS[n.level]} {label(n.distortion, n.level).lower()} from "
            f"{clock(n.start_s)} to {clock(n.end_s)}")


def reference(p: VideoPlan) -> str:
    """The reference answer of the video's open-ended questions (from the ground truth)."""
    order = sorted(p.needles, key=lambda n: n.start_s)
    if p.level == "LQU":
        nd = order[0]
        why = VOCAB[nd.distortion].why
        return (f"The video shows {_needle_text(nd)} (level {nd.level} of 3); the rest of the "
                f"video is clean. It lowers the perceived quality because {why}.")
    if p.level == "CQR":
        top = max(order, key=lambda n: n.level)
        total = sum(n.end_s - n.start_s for n in order)
        return (f"There are {len(order)} separate distortion events: "
                + "; ".join(_needle_text(n) for n in order)
                + f". The most severe is the {label(top.distortion, top.level).lower()}. "
                f"Together they interrupt the viewing {len(order)} times, {total:.0f} seconds in "
                "all, while the picture between them stays clean.")
    g = grade(impairment(p)).lower()
    top = dominant_of(p)
    what = label(top.distortion, top.level).lower() if top else "no distortion"
    story = {
        "clean": "The picture stays clean and consistent from start to end, with no visible "
                 "distortion",
        "stable": f"The same {what} is present throughout the whole video, so the quality is "
                  "consistently degraded but does not change",
        "degrading": f"The video starts clean, then {what} sets in and grows from mild to "
                     "severe towards the end, so the quality degrades over time",
        "improving": f"The video starts with severe {what} that weakens to mild and then "
                     "disappears, so the quality improves over time",
        "fluctuating": f"Stretches with {what} alternate with clean stretches, so the quality "
                       "fluctuates repeatedly between good and poor",
        "dominant": f"A long stretch of {what} dominates, with one shorter, milder distortion "
                    "elsewhere; otherwise the picture is clean",
    }[p.pattern]
    times = "; ".join(_needle_text(n) for n in order[:4])
    return (f"{story}" + (f" ({times})" if times else "") + f". The dominant factor is {what}, "
            f"and the overall quality is {g}.")


Maker = Callable[["_Ctx", int], bool]
MAKERS: dict[str, dict[str, Maker]] = {
    "LQU": {"detection": _lqu_detection, "localization": _lqu_localization,
            "classification": _lqu_classification, "severity_comfort": _lqu_severity},
    "CQR": {"comparison": _cqr_comparison, "cumulative_effect": _cqr_cumulative,
            "integration": _cqr_integration, "temporal_relation": _cqr_temporal},
    "GQU": {"stability": _gqu_stability, "dominant_factor": _gqu_dominant,
            "trend": _gqu_trend, "overall": _gqu_overall},
}


def build_items(plans: Sequence[VideoPlan], seed: int, pool: Sequence[str],
                per_dimension: int = 2, open_per_video: int = 2) -> list[Item]:
    """Every item of the set, in video order (deterministic given the plans and the seed).

    `pool` is where distractor distortions come from.
    """
    bal = Balancer(np.random.default_rng([seed, 303]))
    items: list[Item] = []
    for k, p in enumerate(plans):
        c = _Ctx(p, np.random.default_rng([seed, 202, k]), bal, seed, list(pool), k)
        for dim, maker in MAKERS[p.level].items():
            _fill(c, dim, maker, per_dimension)
        _fill(c, OPEN_DIMENSION, _open_item, open_per_video)
        items.extend(c.items)
    return items




def summary(items: Sequence[Item]) -> dict[str, Any]:
    """Counts per level and dimension, correct-letter and yes/no balance."""
    per: dict[str, Counter[str]] = {}
    letters: Counter[str] = Counter()
    yes_no: Counter[str] = Counter()
    for it in items:
        per.setdefault(it.tags["level"], Counter())[it.tags["dimension"]] += 1
        if it.format == "mcq":
            letters[it.gold or "?"] += 1
            if it.question_type == "yes_no":
                yes_no[it.gold_text or "?"] += 1
    return {"items": len(items), "mcq": sum(i.format == "mcq" for i in items),
            "open": sum(i.format == "open" for i in items),
            "per_level": {k: dict(v) for k, v in per.items()},
            "gold_letters": dict(sorted(letters.items())), "yes_no": dict(yes_no)}
