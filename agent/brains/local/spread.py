"""How the degraded stretches lie over the video: clustered, spread out, overlapping,
periodic (the spread claims of a temporal-relation question, and their words)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agent.brains.local.common import iou
from agent.brains.stretches import Stretch
from agent.timefmt import hms

SPREAD_WORDS = re.compile(r"\b(cluster\w*|evenly|spread|distributed|scattered|bunched|grouped|"
                     r"concentrated|periodic\w*|regular\w*)\b", re.I)


# Share of the video from the first degraded stretch's start to the last one's end below which
# they are clustered, and from which they are spread over the video.
CLUSTERED_SHARE = 0.3
SPREAD_SHARE = 0.5


def spread_share(found: Sequence[Stretch], duration: float) -> float:
    """The share of the video from the first stretch's start to the last one's end."""
    return (found[-1].end_s - found[0].start_s) / duration if found and duration else 0.0


def gaps(found: Sequence[Stretch]) -> list[float]:
    """The clean time between consecutive stretches."""
    return [b.start_s - a.end_s for a, b in zip(found[:-1], found[1:], strict=True)]


def spread_text(found: Sequence[Stretch], duration: float) -> str:
    """How the degraded stretches lie over the video, in the words of spread_claim."""
    if len(found) < 2:
        return "A single degraded stretch: there is no spread to speak of. "
    share = spread_share(found, duration)
    word = "clustered" if share < CLUSTERED_SHARE else "spread over the video" \
        if share >= SPREAD_SHARE else "neither clustered nor spread out"
    return (f"{word[0].upper()}{word[1:]}: {len(found)} degraded stretches from "
            f"{hms(found[0].start_s)} to {hms(found[-1].end_s)}, gaps of "
            + ", ".join(hms(g) for g in gaps(found)[:6]) + ". ")


# Events of two types over nearly the same span (this much IoU), or one lying all but wholly
# (INSIDE_SHARE) inside the other, are one defect that several detectors see (combing read as
# impulses and halos too, over the same span or a part of it), not two defects overlapping.
CO_FIRING_IOU = 0.8
INSIDE_SHARE = 0.9


def _two_defects(st: Stretch) -> bool:
    """Whether a stretch holds two defects at once: events of two types that overlap without
    one of them only echoing the other."""
    evs = st.events
    return any(a["type"] != b["type"] and 0 < iou(_span(a), [_span(b)]) < CO_FIRING_IOU
               and _inside(a, b) < INSIDE_SHARE
               for i, a in enumerate(evs) for b in evs[i + 1:])


def _inside(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The share of the shorter of two events that lies inside the other."""
    inter = min(a["end_s"], b["end_s"]) - max(a["start_s"], b["start_s"])
    shorter = min(a["end_s"] - a["start_s"], b["end_s"] - b["start_s"])
    return max(0.0, inter) / shorter if shorter > 0 else 0.0


def _span(e: dict[str, Any]) -> tuple[float, float]:
    return (e["start_s"], e["end_s"])


def spread_claim(low: str, found: Sequence[Stretch], duration: float) -> bool | None:
    """Claims about how the degraded stretches are spread (clustered, periodic, single...)."""
    n = len(found)
    spread = spread_share(found, duration)
    between = gaps(found)
    if re.search(r"\b(concentrated|locali[sz]ed|in one (?:part|place|spot|section))\b", low):
        return n == 1 or (n >= 2 and spread < CLUSTERED_SHARE)  # one stretch is in one part
    if re.search(r"\b(cluster\w*|close together|grouped|bunched|burst)\b", low):
        return n >= 2 and spread < CLUSTERED_SHARE
    if re.search(r"\b(evenly|spread|distributed|scattered|throughout|uniform\w*|random\w*|"
                 r"independent\w*|far apart|far from each other|(?:widely|well) separated)\b",
                 low):
        return n >= 2 and spread >= SPREAD_SHARE
    if re.search(r"\b(overlap\w*|at the same time|simultaneous\w*|coincid\w*|during|while|"
                 r"together with|alongside|along with|same (?:part|place|section|segment|"
                 r"moment|stretch|portion|window))\b", low):
        return any(_two_defects(s) for s in found)
    if re.search(r"\b(periodic\w*|regular\w*|repeated at)\b", low):
        if len(between) < 2:
            return False
        mean = sum(between) / len(between)
        return mean > 0 and (max(between) - min(between)) < 0.3 * mean
    if re.search(r"\b(single|only one|one event|isolated)\b", low):
        return n == 1
    if re.search(r"\b(no (?:distortion|event|artifact)s?|none)\b", low):
        return n == 0
    return None
