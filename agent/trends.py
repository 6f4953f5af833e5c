"""What a question about the course of the quality claims: that something grows or fades as
the video goes on ("is it getting noisier?"), and which way ("does the blur fade?": the picture
improves; "does it get worse?": it degrades)."""

from __future__ import annotations

import re

from agent.vocabulary import vocabulary

VOCAB = vocabulary()


def grows(text: str) -> bool:
    """Whether a question asks if something grows or fades as the video goes on ("is it
    getting noisier?"), pinning no explicit time, naming no parts to compare and asking for
    no "most" ("what degrades it most?" asks for the dominant factor)."""
    return bool(VOCAB.grows.search(text)) and not re.search(
        r"\d|\b(?:which|than|most)\b|\bat (?:some|any|one) (?:point|moment|time)\b|"
        r"\banywhere\b|\bsomewhere\b|\bhow (?:long|soon|much later)\b|"
        r"\b(?:suddenly|all of a sudden|abruptly|at once)\b|"
        r"\b(?:a|any|one) (?:part|moment|point|place|spot|stretch|section|segment) where\b",
        text, re.IGNORECASE)  # "... at some point?", "suddenly", "a part where ...": an
    # event; "how long after ...": a gap


# Comparatives that claim the picture gets better, not its distortion stronger.
_BETTER = re.compile(r"\b(better|sharper|clearer|cleaner|crisper|smoother|steadier|"
                     r"more (?:stable|natural|detailed|focused|vivid)|improv\w*|"
                     r"less (?!smooth|fluid|sharp|clear|stable|steady|clean|crisp|detailed|"
                     r"natural|vivid|focused|bright|colou?rful|watchable)\w+)\b",
                     re.IGNORECASE)


def growth_claim(text: str) -> str | None:
    """The trend a growth question claims: "improving" for "does it get sharper?",
    "degrading" for "does the grain get heavier?"; None when it is not such a question."""
    if not grows(text):
        return None
    return "improving" if _BETTER.search(text) else "degrading"


# Said of a distortion (not of the quality), these verbs claim it lessens or grows: "does the
# noise fade?" asks whether the picture improves.
_LESSENS = re.compile(r"\b(fad(?:e|es|ed|ing)|diminish\w*|decreas\w*|lessen\w*|subsid\w*|"
                      r"disappear\w*|vanish\w*|go(?:es)? away|weaken\w*|die(?:s)? down|"
                      r"eas(?:e|es|ing) off|clear(?:s|ed)? up|recede\w*|goes down|"
                      r"taper(?:s|ed|ing)? off|wan(?:e|es|ed|ing)|"
                      r"weaker|milder|lighter|fainter|"
                      r"less (?:noticeable|visible|severe|frequent))\b",
                      re.I)
_GROWS = re.compile(r"\b(grow\w*|increas\w*|intensif\w*|stronger|heavier|worsen\w*|build(?:s)? up|"
                    r"more (?:noticeable|visible|pronounced|severe|intense))\b", re.I)
# The quality's course in plain words ("does it get worse?", "is it stable?").
_PLAIN_TRENDS = (
    ("degrading", r"\b(worse|degrad\w*|deteriorat\w*|declin\w*|decreas\w* in quality)\b"),
    ("improving", r"\b(better|improv\w*|recover\w*|back to normal|bounce[sd]? back)\b"),
    ("stable", r"\b(stable|constant|consistent|same|steady)\b"),
    ("fluctuating", r"\b(fluctuat\w*|vary|varies)\b"),
)


def trend_claim(text: str, named: bool) -> str | None:
    """The trend a trend question claims: of the named distortion's strength when it says it
    lessens or grows ("does the blur fade?": improving), else of the quality in plain words
    ("does it get worse?": degrading), else what a growth question implies (growth_claim)."""
    if named:
        less, more = bool(_LESSENS.search(text)), bool(_GROWS.search(text))
        if less != more:
            return "improving" if less else "degrading"
    low = text.lower()
    plain = next((k for k, pat in _PLAIN_TRENDS if re.search(pat, low)), None)
    return plain or growth_claim(text)
