"""Which colour a cast or tint is ("what colour is the tint?"): read off the colour events'
measured direction (tools/detectors/tint.py), and the option that names it."""

from __future__ import annotations

import re
from typing import Any

from agent.brains.local.common import none_option
from agent.brains.local.evidence import Evidence, touching
from agent.questions import Question
from agent.timefmt import hms

ASKS_TINT = re.compile(
    r"\b(?:what|which)\s+(?:kind\s+of\s+)?(?:colou?r|hue|tint|shade|cast)\b|"
    r"\b(?:colou?r|hue)\s+(?:is|of)\s+(?:the|this|that)\s+(?:tint|cast|tinge|shift)\b|"
    r"\bwelche\s+farbe\b|\bquelle\s+couleur\b|\bqu[ée]\s+color\b|什么颜色|哪种颜色|偏什么色",
    re.IGNORECASE)
# The words an option may use for each named tint.
WORDS: dict[str, tuple[str, ...]] = {
    "red": ("red", "reddish", "rot", "rouge", "rojo", "红"),
    "orange": ("orange", "warm", "amber", "naranja", "橙"),
    "yellow": ("yellow", "yellowish", "gelb", "jaune", "amarillo", "黄"),
    "green": ("green", "greenish", "grün", "vert", "verde", "绿"),
    "cyan": ("cyan", "teal", "turquoise", "青"),
    "blue": ("blue", "bluish", "cool", "blau", "bleu", "azul", "蓝"),
    "magenta": ("magenta", "pink", "purple", "violet", "purplish", "rosa", "紫", "粉"),
}
# Neighbouring names an option may give the same tint (an orange cast is warm, reddish...).
NEAR = {"orange": ("red", "yellow"), "red": ("orange", "magenta"), "yellow": ("orange",),
        "magenta": ("red", "blue"), "cyan": ("blue", "green"), "blue": ("cyan",),
        "green": ("cyan", "yellow")}


def _names(option: str, tint: str) -> bool:
    low = option.lower()
    return any(re.search(rf"\b{re.escape(w)}\b", low) if w.isascii() else w in low
               for w in WORDS.get(tint, ()))


def tint_reading(q: Question, ev: Evidence, duration: float) -> dict[str, Any] | None:
    """For a question asking which colour a tint is: {"sentence", "choice"} from the colour
    events in its window that carry a measured tint; None for other questions."""
    if not ASKS_TINT.search(q.text):
        return None
    events = [e for e in touching(ev.all_events(), *q.scope(duration))
              if e.get("type") == "colour"]
    tinted = [e for e in events if e.get("tint")]
    if not tinted:
        if events:
            return None  # a colour change with no direction measured: the usual answer
        return {"sentence": "No colour cast or tint was measured there.",
                "choice": none_option(q)}
    worst = max(tinted, key=lambda e: e["severity"])
    tint = worst["tint"]
    sentence = (f"The colours are pushed toward {tint} from {hms(worst['start_s'])} to "
                f"{hms(worst['end_s'])} (colour distortion, {worst.get('subtype') or 'cast'}, "
                f"severity {worst['severity']:.2f}).")
    choice = None
    for names in ((tint,), NEAR.get(tint, ())):
        hits = [o.letter for o in q.options if any(_names(o.text, n) for n in names)]
        if len(hits) == 1:
            choice = hits[0]
            break
    return {"sentence": sentence, "choice": choice}
