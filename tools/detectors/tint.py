"""Which way a colour change goes: the colour a cast or a hue shift pushes the picture toward.

The hue vector of a sample (tools/signals.colour) is the mean Lab chroma vector of its lit
pixels, scaled: the picture's average tint. A colour event's median vector minus that of the
footage outside every colour event points the way the colours moved; its angle in the Lab
a-b plane names the colour (red near 30 degrees, yellow near 95, blue near 275...). A fall of
saturation pulls the vector toward grey, which names no colour, so only changes that push
colour in are named.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from tools.model import Event

# Lab hue angles (degrees) of the colours a tint is named by (sRGB primaries and their
# mixes: red 40, yellow 102, green 136, blue 306 in CIELAB, rounded toward what viewers call
# a warm or cool cast).
HUES = ((30.0, "red"), (62.0, "orange"), (95.0, "yellow"), (140.0, "green"), (200.0, "cyan"),
        (275.0, "blue"), (330.0, "magenta"))
# The change is named when it is at least this share of the event's own vector: a shift of
# the picture's tint, not a brightening of colours already there (saturation scaled up moves
# the vector along itself and also names the colour it strengthens).
NAMED_SHARE = 0.3
# Colour subtypes that push colour in (a fall of saturation points toward grey).
PUSHED = ("oversaturation", "hue shift")
MARGIN_S = 2.0  # samples this close to a colour event are not its reference


def hue_name(degrees: float) -> str:
    """The named colour nearest a Lab hue angle."""
    d = degrees % 360.0
    return min(HUES, key=lambda h: min(abs(d - h[0]), 360.0 - abs(d - h[0])))[1]


def named_tints(events: list[Event], samples: dict[str, np.ndarray]) -> list[Event]:
    """The events, each colour event that pushes colour in carrying `tint` (the colour it
    pushes toward) and `tint_angle` in its evidence."""
    t = np.asarray(samples.get("t", []), np.float64)
    if not len(t) or "hue_x" not in samples or "hue_y" not in samples:
        return events
    hx = np.asarray(samples["hue_x"], np.float64)
    hy = np.asarray(samples["hue_y"], np.float64)
    colour = [e for e in events if e.type == "colour"]
    near = np.zeros(len(t), bool)
    for e in colour:
        near |= (t >= e.start_s - MARGIN_S) & (t < e.end_s + MARGIN_S)
    if near.all():
        return events
    ref = np.array([np.nanmedian(hx[~near]), np.nanmedian(hy[~near])])
    out = []
    for e in events:
        inside = (t >= e.start_s) & (t < e.end_s)
        if e.type != "colour" or e.subtype not in PUSHED or not inside.any():
            out.append(e)
            continue
        vec = np.array([np.nanmedian(hx[inside]), np.nanmedian(hy[inside])])
        d = vec - ref
        if not np.isfinite(d).all() or np.hypot(*d) < NAMED_SHARE * max(np.hypot(*vec), 1e-9):
            out.append(e)
            continue
        angle = float(np.degrees(np.arctan2(d[1], d[0])) % 360.0)
        out.append(replace(e, evidence={**e.evidence, "tint": hue_name(angle),
                                        "tint_angle": round(angle, 1)}))
    return out
