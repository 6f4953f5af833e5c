"""How bad a distortion is: its level on the detector's own scale, or how long it lasts."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from agent.brains.local.common import (
    agree,
    by_length,
    ev_line,
    nearest,
    none_option,
    option_seconds,
    score_note,
    segments,
    what,
    where,
)
from agent.brains.local.course import number_scale, scale_of
from agent.brains.local.durations import combined_length
from agent.brains.local.evidence import Evidence, found, in_window, near_vague_part
from agent.brains.local.levels import events_level, events_position, level_word, probed_level
from agent.brains.local.totals import aggregate
from agent.context import RunContext
from agent.questions import Question
from tools.timeline import span_union_s

# "It halves", "it drops to a third": the frame rate as a fraction of its own
_FRACTIONS = {"half": 2, "halves": 2, "halved": 2, "halve": 2, "third": 3, "thirds": 3,
              "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6}
_FRACTION = re.compile(r"\b(" + "|".join(_FRACTIONS) + r")\b", re.I)
_FPS = re.compile(r"\b(?:fps|frames? (?:per|a) second|frame ?rate)\b|\d\s*fps\b", re.I)


# Option words that grade a defect, not a virtue: over them "how is the sharpness?" still asks
# how bad its loss is ("severe"), while "high / medium / low" grade the sharpness itself.
_DEFECT_LEVEL = re.compile(r"\b(?:mild|mildly|moderate|moderately|severe|severely|slight|"
                           r"slightly|serious|heavy|minor|major|strong|weak|light|intense|"
                           r"extreme|none)\b", re.I)


# What a scale's anchor says of its top: "5 = perfectly smooth" is the best end, "5 = very
# noisy" the worst.
_GOOD_END = re.compile(r"\b(?:excellent|perfect\w*|best|good|great|fine|smooth\w*|fluid|sharp|"
                       r"crisp|clean|clear|flawless|pristine|steady|stable|natural|none|no "
                       r"(?:\w+ )?(?:problems?|defects?|distortion|artifacts?|artefacts?)|not at "
                       r"all|high(?:est)? quality)\b", re.I)
_BAD_END = re.compile(r"\b(?:worst|terrible|awful|severe|very|extreme\w*|heav\w+|strong\w*|"
                      r"unwatchable|bad|poor)\b", re.I)


def _band(level: float) -> int:
    """The word a level is said in: 0 none, 1 mild, 2 moderate, 3 severe (as level_position
    places them)."""
    return 0 if level < 0.5 else 1 if level < 1.5 else 2 if level < 2.5 else 3


def top_is_best(q: Question, top: int) -> bool:
    """Whether the scale's top number is its best end: by what its anchor says ("5 =
    perfectly smooth"), else when the question rates a virtue ("rate the smoothness")."""
    m = re.search(rf"\b{top}\s*(?:(?:=|:|is|means|-|–|for)\s*([^,;)]+)|\(([^)]+)\))", q.text,
                  re.I)
    if m:
        anchor = m.group(1) or m.group(2)
        # "very" intensifies what follows: "very sharp" is still the good end
        if _GOOD_END.search(anchor) and not _BAD_END.search(re.sub(r"\bvery\b", "", anchor)):
            return True
        if _BAD_END.search(anchor):
            return False
    return bool(q.praised)


def severity(q: Question, ev: Evidence, ctx: RunContext) -> dict[str, Any]:
    """The named distortion's level (mild / moderate / severe), duration or grade."""
    low = q.text.lower()
    if re.search(r"\bhow (?:many|often)\b", low) and any(o.numbers for o in q.options):
        return aggregate(q, ev, ctx)
    if (both := combined_length(q, ev)) is not None:
        return both  # "the combined duration of the shake and the flicker"
    evs, data = found(q, ev, ctx.duration_s)
    for k in range(1, len(q.types) if not evs else 0):  # "the stutter / low frame rate"
        other = replace(q, types=[q.types[k], *q.types[:k], *q.types[k + 1:]])
        if (alt := found(other, ev, ctx.duration_s))[0]:
            q, (evs, data) = other, alt
            break
    if q.window and not q.window.point:
        evs = [e for e in evs if in_window(e, q.window)] or evs or near_vague_part(q, ev)
    evs = q.ranked(evs)  # "how long is the first freeze?": that one
    name = what(q)
    worst = max((e["severity"] for e in evs), default=0.0)
    level = events_level(evs) if evs else probed_level(q.type, data)
    # overlapping events of two types count their seconds once
    total = span_union_s((e["start_s"], e["end_s"]) for e in evs)
    average = bool(re.search(r"\b(average|mean|typical|typically|usually)\b", low))
    if average and evs:  # "the average length of a freeze": per event
        total = sum(e["end_s"] - e["start_s"] for e in evs) / len(evs)
    one = by_length(low, evs)
    if one:  # "how long is the longest freeze?": that one, not the sum
        evs, total = [one], one["end_s"] - one["start_s"]
    choice, conf = None, 0.55
    fps = [float(e["evidence"]["effective_fps"]) for e in evs
           if (e.get("evidence") or {}).get("effective_fps")]
    if fps and q.options and all(o.numbers for o in q.options) and any(
            _FPS.search(o.text) for o in q.options):  # "about 6 / 12 / 25 fps"
        rate = min(fps)
        choice = nearest(q.options, lambda o: o.numbers[0], rate)
        text = (f"The {name} run at about {rate:g} frames per second at their worst: "
                + "; ".join(ev_line(e) for e in evs[:3]) + ".")
        return {"answer": text, "choice": choice, "segments": segments(evs), "confidence": 0.7}
    holds = [float(e["evidence"]["hold_frames"]) for e in evs
             if (e.get("evidence") or {}).get("hold_frames")]
    parts = [_FRACTION.search(o.text) for o in q.options]
    if holds and q.options and all(parts) and not any(o.windows for o in q.options):
        # "by how much does the frame rate drop? it halves / to a third / to a fifth"
        k = max(holds)
        choice = nearest(q.options, lambda o: _FRACTIONS[_FRACTION.search(o.text).group(1)
                                                         .lower()], k)
        text = (f"The {name} show each picture {k:g} times at their worst: the frame rate "
                f"falls to 1/{k:g} of its own: " + "; ".join(ev_line(e) for e in evs[:3]) + ".")
        return {"answer": text, "choice": choice, "segments": segments(evs), "confidence": 0.7}
    asks_length = bool(re.search(r"\bhow long\b|\b(?:duration|length|last|lasts|lasting|"
                                 r"lasted|goes on|continues)\b", low))
    if asks_length and any(o.durations for o in q.options):
        choice = nearest(q.options, lambda o: o.durations[0] if o.durations else None, total)
    elif asks_length and q.options and all(o.numbers and not o.durations for o in q.options):
        # "how many seconds does it last?" over "about 10 / 27 / 60": seconds, or minutes
        choice = nearest(q.options, lambda o: option_seconds(q, o), total)
        return {"answer": f"The {name} lasts {total:.1f} s in all: "
                + "; ".join(ev_line(e) for e in evs[:3]) + ".", "choice": choice,
                "segments": segments(evs), "confidence": 0.7}
    elif any(o.level is not None for o in q.options):
        # "how is the sharpness? high / medium / low": a virtue's level falls as the defect's
        # rises (none: high, mild: medium, moderate or severe: low)
        virtue = q.praised and not any(_DEFECT_LEVEL.search(o.text) for o in q.options)
        at = events_position(evs) if evs else level  # ("mild or severe?" of a moderate one)
        target = 3.0 - at if virtue else at
        # an option in the band the level is said in wins ("severe" is not answered "clearly
        # visible", 2.3, for a severe one at the band's lower edge, 2.6)
        same = [o for o in q.options if o.level is not None and _band(o.level) == _band(target)]
        choice = nearest(same or q.options, lambda o: o.level, target)
    elif any(o.grade is not None for o in q.options):
        choice = nearest(q.options, lambda o: o.grade, 5.0 - level * 1.2)
    scale = scale_of(q.text) or number_scale(q)
    rated = 0.0
    best_top = bool(scale) and top_is_best(q, scale[1])
    if scale:  # "rate the noise from 1 to 5": its level on that scale, the top the worst
        rated = scale[0] + min(level, 3.0) / 3.0 * (scale[1] - scale[0])
        if best_top:  # "(1 = very jerky, 5 = perfectly smooth)": the top the best
            rated = scale[0] + scale[1] - rated
        if choice is None and any(o.numbers for o in q.options):
            choice = nearest(q.options, lambda o: o.numbers[0] if o.numbers else None, rated)
    if not evs and choice is None:
        choice = none_option(q)
    zoom = ev.get("zoom_in")
    if evs:
        each = " each on average" if average and len(evs) > 1 else ""
        text = (f"The {name} {agree(name, 'is', 'are')} {level_word(worst, level)} (worst "
                f"severity {worst:.2f} on "
                f"a 0-1 scale), lasting {total:.1f} s{each} in {len(evs)} span(s): "
                + "; ".join(ev_line(e) for e in evs[:4]) + ".")
        if zoom:
            text += f" Close look: {zoom.get('summary', '')}."
        conf = 0.6
    elif level > 0:
        text = (f"The {name} {where(q, ctx.duration_s)} stays below the event "
                f"threshold but clearly shows{score_note(data, q.type, True)}: it is "
                f"{'moderate' if level >= 2 else 'mild'}.")
    else:
        text = (f"No {name} {agree(name, 'was', 'were')} detected {where(q, ctx.duration_s)}"
                f"{score_note(data, q.type)}, so its severity is none.")
        picked = next((o for o in q.options if o.letter == choice), None)
        if picked is not None and not (picked.none or picked.no or q.praised) and level == 0:
            # the options offer no "none": the mildest is the nearest, and said to be
            text += f" None of the options says so; {picked.text!r} is the nearest."
            conf = min(conf, 0.3)
    if scale:
        text += (f" On a {scale[0]}-{scale[1]} scale "
                 + (f"({scale[0]} the most severe, {scale[1]} none)" if best_top else
                    f"({scale[0]} none, {scale[1]} the most severe)")
                 + f": {round(rated, 1):g}.")
    return {"answer": text, "choice": choice, "segments": segments(evs), "confidence": conf}
