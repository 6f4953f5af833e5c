"""Open-ended NDQA items and their reference answers, written from the ground truth."""

from __future__ import annotations

from bench.items import OPEN_DIMENSION
from bench.ndqa_questions.kit import Ctx, add_item
from bench.ndqa_questions.plan import Needle, VideoPlan, dominant_of, grade, impairment
from bench.ndqa_questions.templates import OPEN
from bench.ndqa_questions.wording import LEVEL_WORDS, VOCAB, clock, fill, label, noun, window_phrase


def open_item(c: Ctx, j: int) -> bool:
    p, rng = c.plan, c.rng
    templates = OPEN[p.level]
    template = templates[j % len(templates)]
    if p.level == "LQU":
        nd = p.needles[0]
        nn = noun(nd.distortion, nd.level, rng)
        q = fill(template, nn, win=window_phrase(nd.start_s, nd.end_s, rng))
    else:
        q = template
    return add_item(c, OPEN_DIMENSION, "open", q, None, reference(p), p.needles)


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
