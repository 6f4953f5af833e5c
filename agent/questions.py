"""Reading a quality question: its time windows, distortion names, kind, and its options.

Pure text processing, no video: times people write ("at 2:15", "between 00:01:10 and
00:01:25", "the first half", "the last minute", "segment 3"), distortion names with their
common synonyms, the LongVQUBench question dimension, and what each MCQ option claims.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

# ---------------------------------------------------------------- distortion names

# phrase -> (event type, subtype or ""). Matched longest first, on word boundaries, so
# "brightness fluctuation" is flicker while "brightness" alone is exposure.
_SYNONYMS: dict[str, tuple[str, str]] = {}


def _syn(etype: str, subtype: str, *phrases: str) -> None:
    for p in phrases:
        _SYNONYMS[p] = (etype, subtype)


_syn("blur", "", "blur", "blurs", "blurry", "blurred", "blurriness", "blurring", "blurrier",
     "blurriest", "out of focus", "out-of-focus", "unfocused", "defocus", "defocused",
     "defocus blur", "gaussian blur", "motion blur", "soft", "softness", "softer", "fuzzy",
     "smeared", "smearing", "loss of sharpness", "lack of sharpness", "not sharp", "unsharp",
     "loss of detail", "lack of detail", "detail loss", "hazy", "focus")
_syn("noise", "grain", "noise", "noisy", "noisier", "grain", "grainy", "graininess", "snow",
     "snowy", "gaussian noise", "poisson noise", "speckle", "speckles", "speckle noise",
     "speckled", "sensor noise", "film grain", "static", "visual noise")
_syn("noise", "impulse", "salt and pepper", "salt-and-pepper", "salt & pepper", "impulse noise",
     "impulse", "dead pixels", "white dots")
_syn("compression", "blocking", "compression", "compressed", "compression artifacts",
     "compression artefacts", "blocky", "blockiness", "blocking", "block artifacts",
     "block artefacts", "macroblocking", "macroblocks", "macroblock", "jpeg", "jpeg artifacts",
     "codec artifacts", "banding", "low bitrate", "bitrate")
_syn("compression", "pixelation", "pixelated", "pixelation", "pixelization", "pixelized",
     "pixellated", "pixellation", "mosaic", "mosaicking", "large blocks")
_syn("exposure", "too bright", "overexposed", "over-exposed", "overexposure", "over-exposure",
     "washed out", "washed-out", "too bright", "too light", "blown out", "blown-out",
     "brightness", "brightened", "bright", "exposure", "brightness distortion",
     "brightness shift", "brightness change", "increased brightness", "glare")
_syn("exposure", "too dark", "underexposed", "under-exposed", "underexposure", "too dark",
     "darkened")
_syn("exposure", "low contrast", "low contrast", "low-contrast", "contrast", "flat", "dull",
     "faded", "foggy", "reduced contrast", "lack of contrast", "poor contrast",
     "contrast reduction", "contrast distortion", "contrast change")
_syn("colour", "hue shift", "colour cast", "color cast", "tint", "tinted", "hue", "hue shift",
     "hue shifts", "colour shift", "color shift", "colour distortion", "color distortion",
     "wrong colours", "wrong colors", "unnatural colours", "unnatural colors", "discoloured",
     "discolored", "discolouration", "discoloration", "colour", "color", "colours", "colors",
     "colour change", "color change")
_syn("colour", "saturation", "oversaturated", "over-saturated", "oversaturation",
     "desaturated", "undersaturated", "under-saturated", "desaturation", "saturation",
     "saturated", "colourless", "colorless", "saturation shift", "saturation change",
     "too vivid", "overly vivid", "muted colours", "muted colors", "faded colours",
     "faded colors", "dull colours", "dull colors", "pale colours", "pale colors")
_syn("sharpening", "", "oversharpened", "over-sharpened", "oversharpening", "over-sharpening",
     "sharpening", "sharpened", "halo", "halos", "haloes", "haloing", "ringing",
     "edge enhancement", "sharpening artifacts", "excessive sharpness", "too sharp")
_syn("flicker", "", "flicker", "flickers", "flickering", "flickery", "flashing", "flashes",
     "flash", "strobing", "strobe", "strobes", "luminance fluctuation",
     "luminance fluctuations", "brightness fluctuation", "brightness fluctuations",
     "brightness flicker", "pulsing", "blinking", "brightness changes rapidly")
_syn("frame_drop", "", "frame drop", "frame drops", "frame dropping", "dropped frames",
     "dropped frame", "drops frames", "skipped frames", "skipped frame", "frame skipping",
     "frame skip", "frame skips", "skipping frames", "choppy", "choppiness", "missing frames",
     "frame loss", "lost frames", "frame-drop", "frame_drop", "framedrop")
_syn("stutter", "", "stutter", "stutters", "stuttering", "freeze", "freezes", "frozen",
     "freezing", "pause", "pauses", "paused", "pausing", "hang", "hangs", "hitch", "hitches",
     "stall", "stalls", "stalling", "judder", "juddering", "lag", "lags", "lagging",
     "repeated frames", "still frames")
_syn("jitter", "", "jitter", "jitters", "jittery", "jittering", "shaky", "shake", "shakes",
     "shaking", "camera shake", "wobble", "wobbly", "wobbling", "trembling", "unsteady",
     "vibration", "vibrating", "shudder", "jerky", "jerkiness", "jumpy", "jumping")

# Words that name no type but mean "some quality problem".
_GENERIC = ("distortion", "distortions", "artifact", "artifacts", "artefact", "artefacts",
            "degradation", "degradations", "degraded", "impairment", "impairments", "defect",
            "defects", "quality issue", "quality issues", "quality problem", "glitch",
            "glitches", "anomaly", "anomalies", "problem", "problems", "issue", "issues")

_SYN_RE = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(p) for p in sorted(_SYNONYMS, key=len, reverse=True))
    + r")(?![\w-])",
    re.IGNORECASE,
)

# Human names of event types, for answers.
TYPE_NAMES: dict[str, str] = {
    "blur": "blur",
    "noise": "noise",
    "compression": "compression artifacts",
    "exposure": "exposure problems",
    "colour": "colour distortion",
    "sharpening": "over-sharpening",
    "flicker": "flicker",
    "frame_drop": "frame drops",
    "stutter": "stutter (freezes)",
    "jitter": "jitter (camera shake)",
}


@dataclass(frozen=True)
class Mention:
    """A distortion named in a text: the event type, subtype ("" when any) and the words."""

    type: str
    subtype: str
    text: str
    pos: int


def distortions(text: str) -> list[Mention]:
    """Every distortion named in `text`, in order of appearance (synonyms resolved)."""
    out: list[Mention] = []
    last_end = -10
    for m in _SYN_RE.finditer(text):
        word = m.group(1).lower()
        etype, sub = _SYNONYMS[word]
        if word == "focus" or (out and m.start() - last_end <= 1):
            last_end = m.end()  # "salt and pepper noise", "washed out colours": one name
            if etype == "flicker" and out[-1].type == "exposure":
                out[-1] = Mention(etype, sub, m.group(1), out[-1].pos)  # "brightness strobing"
            continue
        last_end = m.end()
        out.append(Mention(etype, sub, m.group(1), m.start()))
    if any(m.type == "flicker" for m in out):
        # "the brightness is strobing": brightness is what flickers, not an exposure problem
        out = [m for m in out if not (m.type == "exposure" and m.text.lower() in _TONE_WORDS)]
    return out


_TONE_WORDS = {"brightness", "bright", "luminance", "light", "lighting"}


def distortion_type(text: str) -> str | None:
    """The event type a word or phrase names ("grainy" -> "noise"), or None."""
    found = distortions(text)
    return found[0].type if found else None


def mentions_generic(text: str) -> bool:
    """Whether the text talks about quality problems without naming a type."""
    low = text.lower()
    return any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", low) for w in _GENERIC)


# ---------------------------------------------------------------- time expressions

_NUM_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "forty-five": 45, "fifty": 50, "sixty": 60, "ninety": 90,
    "a": 1, "an": 1, "half a": 0.5, "once": 1, "twice": 2, "single": 1,
}
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5,
    "6th": 6, "7th": 7, "8th": 8, "9th": 9, "10th": 10,
}
_FRACTIONS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
              "fifth": 5, "fifths": 5, "tenth": 10}

_CLOCK = r"\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?"
_UNIT_TIME = (
    r"(?:\d+(?:\.\d+)?\s*h(?:ours?|rs?)?\s*)?(?:\d+(?:\.\d+)?\s*m(?:in(?:ute)?s?)?\s*)?"
    r"\d+(?:\.\d+)?\s*s(?:ec(?:ond)?s?)?\b"
    r"|\d+(?:\.\d+)?\s*(?:h(?:ours?|rs?)?|m(?:in(?:ute)?s?)?)\b(?:\s*\d+(?:\.\d+)?\s*s(?:ec(?:ond)?s?)?\b)?"
)
_TIME = rf"(?:{_CLOCK}|{_UNIT_TIME})"
_NUM = r"\d+(?:\.\d+)?"


def parse_time(text: str) -> float | None:
    """Seconds from one time: "2:15", "00:01:10.5", "135 s", "2m15s", "1 min 5 sec", "1.5 min"."""
    s = text.strip().lower()
    if re.fullmatch(_CLOCK, s):
        parts = [float(p) for p in s.split(":")]
        total = 0.0
        for p in parts:
            total = total * 60 + p
        return total
    m = re.fullmatch(
        r"(?:(\d+(?:\.\d+)?)\s*h(?:ours?|rs?)?\s*)?(?:(\d+(?:\.\d+)?)\s*m(?:in(?:ute)?s?)?\s*)?"
        r"(?:(\d+(?:\.\d+)?)\s*s(?:ec(?:ond)?s?)?)?",
        s,
    )
    if m and any(m.groups()):
        h, mi, se = (float(g) if g else 0.0 for g in m.groups())
        return h * 3600 + mi * 60 + se
    if re.fullmatch(_NUM, s):
        return float(s)
    return None


@dataclass(frozen=True)
class Window:
    """A time window [start_s, end_s] named in a text; `point` when it was a single instant."""

    start_s: float
    end_s: float
    label: str
    point: bool = False
    pos: int = 0

    @property
    def span(self) -> tuple[float, float]:
        return (self.start_s, self.end_s)


POINT_HALF_WIDTH_S = 2.0  # "at 2:15" looks at 2:13-2:17


def _amount(word: str) -> float | None:
    word = word.strip().lower()
    if re.fullmatch(_NUM, word):
        return float(word)
    return _NUM_WORDS.get(word)


def _nth_part(i: float, k: int, duration: float) -> tuple[float, float] | None:
    """The i-th (1-based) of k equal parts of the video; None when there is no such part."""
    if not 1 <= i <= k:
        return None
    return (i - 1) * duration / k, i * duration / k


def _clamp(a: float, b: float, duration: float) -> tuple[float, float]:
    a, b = max(0.0, min(a, b)), max(a, b)
    if duration > 0:
        a, b = min(a, duration), min(b, duration)
    return a, b


def segment_count(text: str) -> int | None:
    """K when a text says the video is split into K segments/parts ("divided into 4 parts")."""
    m = re.search(
        r"(?:divided|split|cut|broken)\s+(?:up\s+)?into\s+(\w+)\s+(?:equal\s+)?"
        r"(?:segments|parts|sections|pieces|chunks|clips)",
        text, re.IGNORECASE,
    ) or re.search(r"(\w+)\s+equal(?:ly long)?\s+(?:segments|parts|sections)", text, re.I) \
        or re.search(r"\b(?:segment|part|section)\s*\d+\s*(?:of|/)\s*(\d+)\b", text, re.I)
    if m:
        n = _amount(m.group(1))
        return int(n) if n and n >= 1 else None
    return None


def windows(
    text: str,
    duration_s: float,
    n_segments: int | None = None,
    scenes: Sequence[tuple[float, float]] | None = None,
) -> list[Window]:
    """Every time window a text names, in order of appearance, clamped to [0, duration_s].

    `n_segments` fixes what "segment 3" means (equal parts); without it a "divided into K"
    in the text, or else the highest segment number mentioned, sets the count. `scenes`
    ((start, end) pairs) resolve "scene 2".
    """
    d = float(duration_s)
    found: list[Window] = []
    taken: list[tuple[int, int]] = []

    def free(m: re.Match) -> bool:
        return all(m.end() <= a or m.start() >= b for a, b in taken)

    def add(m: re.Match, a: float, b: float, label: str, point: bool = False) -> None:
        taken.append((m.start(), m.end()))
        lo, hi = _clamp(a, b, d)
        found.append(Window(lo, hi, label, point, m.start()))

    # 1. explicit ranges: "between X and Y", "from X to Y", "X-Y", "X to Y seconds"
    rng = re.compile(
        rf"(?:between\s+|from\s+)?({_TIME}|{_NUM})\s*(?:-|–|—|~|to|and|until|till|through)\s*"
        rf"({_TIME}|{_NUM})(\s*(?:seconds?|secs?|s|minutes?|mins?)\b)?",
        re.IGNORECASE,
    )
    for m in rng.finditer(text):
        a_txt, b_txt, unit = m.group(1), m.group(2), (m.group(3) or "").strip().lower()
        if re.fullmatch(_NUM, a_txt) and re.fullmatch(_NUM, b_txt) and not unit:
            before = text[max(0, m.start() - 12) : m.start()].lower()
            if not re.search(r"(between|from)\s*$", before) or "segment" in before:
                continue  # bare numbers without unit or range words: not times
        scale = 60.0 if unit.startswith("m") else 1.0
        a = parse_time(a_txt) if not re.fullmatch(_NUM, a_txt) else float(a_txt) * scale
        b = parse_time(b_txt) if not re.fullmatch(_NUM, b_txt) else float(b_txt) * scale
        if a is None or b is None:
            continue
        if re.fullmatch(_NUM, a_txt) and not re.fullmatch(_NUM, b_txt):
            a = float(a_txt) * (60.0 if re.search(r"m", b_txt) and "s" not in b_txt else 1.0)
        if b <= a:
            continue
        add(m, a, b, m.group(0).strip())

    # 2. relative parts: first/second half, last third, first quarter, beginning, end, middle
    part = re.compile(
        r"\b(first|second|third|fourth|fifth|last|final|latter|former|middle|opening|closing)"
        r"\s+(half|third|quarter|fifth|tenth|part|portion|section)\b",
        re.IGNORECASE,
    )
    for m in part.finditer(text):
        if not free(m):
            continue
        which, frac = m.group(1).lower(), m.group(2).lower()
        k = _FRACTIONS.get(frac, 3 if frac in ("part", "portion", "section") else 2)
        if which == "middle" and k % 2 == 0:
            add(m, d / 4, 3 * d / 4, m.group(0))
            continue
        i = {"last": k, "final": k, "latter": k, "closing": k, "middle": (k + 1) / 2,
             "former": 1, "opening": 1}.get(which) or _ORDINALS.get(which, 1)
        part = _nth_part(i, k, d)
        if part:
            add(m, *part, m.group(0))

    # 3. "the first/last N seconds/minutes", "the last minute", "the first 10%"
    edge = re.compile(
        r"\b(first|last|final|opening|closing|initial)\s+(?:(\d+(?:\.\d+)?|[a-z-]+)\s+)?"
        r"(seconds?|secs?|minutes?|mins?|hours?)\b",
        re.IGNORECASE,
    )
    for m in edge.finditer(text):
        if not free(m):
            continue
        n = _amount(m.group(2)) if m.group(2) else 1.0
        if n is None:
            continue
        unit = m.group(3).lower()
        length = n * (3600 if unit.startswith("h") else 60 if unit.startswith("m") else 1)
        if m.group(1).lower() in ("last", "final", "closing"):
            add(m, d - length, d, m.group(0))
        else:
            add(m, 0, length, m.group(0))

    # 4. "the 3rd minute", "minute 3"
    minute = re.compile(
        r"\b(?:the\s+)?(\w+)\s+minute\b(?!s)|\bminute\s+(\d+)\b", re.IGNORECASE
    )
    for m in minute.finditer(text):
        if not free(m):
            continue
        i = _ORDINALS.get((m.group(1) or "").lower()) or (int(m.group(2)) if m.group(2) else None)
        if i:
            add(m, (i - 1) * 60, i * 60, m.group(0))

    # 5. segments and scenes by number: "segment 3", "the second segment", "scene 2"
    seg = re.compile(
        r"\b(?:(segment|part|section|clip|scene|shot)\s*#?\s*(\d+)|"
        r"(?:the\s+)?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last)"
        r"\s+(segment|section|clip|scene|shot))\b",
        re.IGNORECASE,
    )
    seg_matches = [m for m in seg.finditer(text) if free(m)]
    n_seg = n_segments or segment_count(text)
    if seg_matches and not n_seg:
        nums = [int(m.group(2)) if m.group(2) else _ORDINALS.get(m.group(3).lower(), 0)
                for m in seg_matches]
        n_seg = max([2, *nums])
    for m in seg_matches:
        after = [w for w in found if m.end() <= w.pos <= m.end() + 4]
        if after:
            continue  # "Segment 2 (00:00:15-00:00:30)": the stated times win
        kind = (m.group(1) or m.group(4)).lower()
        last = (m.group(3) or "").lower() == "last"
        i = int(m.group(2)) if m.group(2) else _ORDINALS.get((m.group(3) or "").lower(), 0)
        if kind in ("scene", "shot") and scenes:
            j = len(scenes) if last else i
            if 1 <= j <= len(scenes):
                add(m, scenes[j - 1][0], scenes[j - 1][1], m.group(0))
            continue
        k = n_seg or 4
        part = _nth_part(k if last else i, k, d)
        if part:
            add(m, *part, m.group(0))

    # 6. beginning / end / middle of the video
    loose = re.compile(
        r"\b(?:at|in|near|towards?|during)\s+the\s+(beginning|start|opening|end|ending|"
        r"close|finish|middle)\b|\b(?:the\s+)?(intro|opening scene|ending|outro)\b",
        re.IGNORECASE,
    )
    for m in loose.finditer(text):
        if not free(m):
            continue
        w = (m.group(1) or m.group(2)).lower()
        span = max(10.0, min(60.0, d * 0.1))
        if w in ("beginning", "start", "opening", "intro", "opening scene"):
            add(m, 0, span, m.group(0))
        elif w == "middle":
            add(m, d / 2 - span / 2, d / 2 + span / 2, m.group(0))
        else:
            add(m, d - span, d, m.group(0))

    # 7. before / after an instant: "after 5:00", "before 1:00"
    side = re.compile(rf"\b(after|before|until|since|past)\s+({_TIME})", re.IGNORECASE)
    for m in side.finditer(text):
        if not free(m):
            continue
        t = parse_time(m.group(2))
        if t is None:
            continue
        if m.group(1).lower() in ("after", "since", "past"):
            add(m, t, d, m.group(0))
        else:
            add(m, 0, t, m.group(0))

    # 8. single instants: "at 2:15", "around 135 s", "00:01:10"
    inst = re.compile(rf"({_CLOCK}|{_UNIT_TIME})", re.IGNORECASE)
    for m in inst.finditer(text):
        if not free(m):
            continue
        t = parse_time(m.group(1))
        if t is None:
            continue
        before = text[max(0, m.start() - 14) : m.start()].lower()
        if re.search(r"(last|lasts|lasting|for|about|approximately|roughly|over|under|than)\s*$",
                     before) and not re.search(r"(at|around)\s*$", before):
            if not re.fullmatch(_CLOCK, m.group(1)):
                continue  # "lasts about 5 seconds": a duration, not a time
        add(m, t - POINT_HALF_WIDTH_S, t + POINT_HALF_WIDTH_S, m.group(0).strip(), point=True)

    return sorted(found, key=lambda w: w.pos)


def durations(text: str) -> list[float]:
    """Durations in seconds stated in a text ("about 5 seconds", "10-15 s" -> 12.5, "2 min",
    "1 minute 15 seconds" -> 75)."""
    out: list[float] = []
    prev_end, prev_minutes = -1, False
    for m in re.finditer(
        rf"({_NUM}|[a-z-]+)(?:\s*(?:-|–|to)\s*({_NUM}))?\s*(seconds?|secs?|s|minutes?|mins?)\b",
        text, re.IGNORECASE,
    ):
        a = _amount(m.group(1))
        if a is None:
            continue
        b = float(m.group(2)) if m.group(2) else a
        minutes = m.group(3).lower().startswith("m")
        value = (a + b) / 2 * (60.0 if minutes else 1.0)
        joined = re.fullmatch(r"\s*(?:and\s*)?", text[prev_end:m.start()]) if out else None
        if joined and prev_minutes and not minutes:
            out[-1] += value  # "1 minute 15 seconds": one duration
        else:
            out.append(value)
        prev_end, prev_minutes = m.end(), minutes
    return out


def numbers(text: str) -> list[float]:
    """Plain counts in a text ("3", "three", "twice")."""
    out = []
    for m in re.finditer(r"\b(\d+(?:\.\d+)?|[a-z-]+)\b", text.lower()):
        w = m.group(1)
        if w in ("a", "an", "half a"):
            continue
        v = _amount(w)
        if v is not None:
            out.append(v)
    return out


# ---------------------------------------------------------------- question kinds

KINDS: tuple[str, ...] = (
    "detection", "localization", "classification", "severity", "comparison",
    "cumulative_effect", "integration", "temporal_relation", "stability", "dominant_factor",
    "trend", "overall", "open", "out_of_scope",
)

_OUT_OF_SCOPE = re.compile(
    r"\b(audio|sound|loud|volume|music|voice|speech|speaker|dialog(?:ue)?|subtitles?|caption|"
    r"who is|what is the (?:man|woman|person|people)|wearing|how many people|what colou?r is|"
    r"what animal|name of|language|lyrics|plot|story|actor|brand|logo|weather)\b",
    re.IGNORECASE,
)
_QUALITY = re.compile(
    r"\b(quality|distort\w*|artifact\w*|artefact\w*|degrad\w*|impair\w*|clarity|clear\w*|"
    r"sharp\w*|smooth\w*|viewing|perceptual|visual|comfort\w*|watchab\w*|defect\w*|glitch\w*|"
    r"anomal\w*|problem\w*|issue\w*|stable|stability|fluctuat\w*|consisten\w*|noticeable|"
    r"severe|severity|picture|image|frame\w*|video)\b",
    re.IGNORECASE,
)

_RULES: tuple[tuple[str, str], ...] = (
    ("temporal_relation", r"\b(before|after|precede[sd]?|follow(?:s|ed)?|order|sequence|"
     r"simultaneous\w*|same time|overlap\w*|cluster\w*|co-?occur\w*|correlat\w*|"
     r"independent\w*|which (?:distortion |artifact |event )?(?:comes|appears|occurs|happens)"
     r" first|(?:comes?|appears?|occurs?|happens?) (?:first|earlier|earliest|later|latest|last)|"
     r"interval between|"
     r"time between|gap between|consecutive\w*|temporal relation\w*|distributed)\b"),
    ("trend", r"\b(trend|improv\w*|deteriorat\w*|get(?:s|ting)? (?:worse|better)|"
     r"worsen\w*|over (?:the course of )?time|as the video (?:progresses|goes on|continues)|"
     r"evolv\w*|progressive\w*|gradual\w*|increas\w* or decreas\w*)\b"),
    ("stability", r"\b(stabl\w*|stability|unstable|instability|consisten\w*|inconsisten\w*|"
     r"fluctuat\w*|steady|uniform\w*|vary|varies|variation|even(?:ly)? throughout)\b"),
    ("dominant_factor", r"\b(dominant|dominat\w*|main|primary|principal|most prominent|"
     r"most influential|most significant|biggest|largest|greatest|key factor|chief|"
     r"most (?:frequent|common)|most (?:strongly|heavily)? ?(?:affects?|impacts?|influences?)|"
     r"contributes? most)\b"),
    ("cumulative_effect", r"\b(cumulat\w*|accumulat\w*|build(?:s|ing)? up|compound\w*|"
     r"combined effect|add(?:s|ing)? up|fatigue|repeated (?:distortions|artifacts|events)|"
     r"multiple (?:distortions|artifacts|events|degradations)|how many times|how often|"
     r"how many (?:separate |distinct )?(?:distortion |quality |degradation )?(?:events|"
     r"episodes|incidents|occurrences)|in total.*how long|how long.*in total|"
     r"total (?:duration|time))\b"),
    ("integration", r"\b(integrat\w*|taking (?:all|everything)|considering (?:all|both|the "
     r"whole|every)|across (?:all|the (?:whole|entire|different))|all segments|both segments|"
     r"synthesi\w*|which (?:distortion |artifact |degradation )?(?:types|kinds)|which set|"
     r"how many (?:different |distinct )?(?:types|kinds|distortions|artifacts|"
     r"events|segments)|which (?:distortions|artifacts) (?:appear|occur)|in total)\b"),
    ("comparison", r"\b(compar\w*|more (?:severe|noticeable|obvious|disturbing|distracting|"
     r"degraded|pronounced|visible|intense)|less (?:severe|noticeable|degraded)|worse|better|"
     r"stronger|weaker|most (?:severe|degraded|noticeable|disturbing|distracting|obvious|"
     r"affected|intense|visible)|least|mildest|which (?:segment|part|half|section|event|clip|"
     r"one|scene|period|interval)|\w+(?:ier|er) than)\b"),
    ("severity", r"\b(how (?:severe|strong|intense|bad|noticeable|visible|disturbing|"
     r"distracting|annoying|serious|much|long|strongly|uncomfortable)|severity|intensity|"
     r"degree|level of|comfort\w*|discomfort|annoy\w*|disturb\w*|distract\w*|how does it "
     r"affect|impact on (?:the )?view\w*|how many times|how often|duration|last)\b"),
    ("overall", r"\b(overall|rate the|rating|score|general(?:ly)? quality|quality of (?:the|this)"
     r" (?:whole |entire )?video|how (?:good|bad) is|evaluate the (?:quality|video)|"
     r"assess the (?:quality|video))\b"),
    ("classification", r"\b(what (?:type|kind|sort|category|form)|which (?:type|kind|category|"
     r"distortion|artifact|artefact|degradation|impairment)|what (?:distortion|artifact|"
     r"artefact|degradation|impairment|problem|issue)|identify|classify|categor\w*|"
     r"what is (?:wrong|happening))\b"),
    ("localization", r"\b(when|what time|which time|at what (?:point|moment|time)|"
     r"where (?:in|does|do)|time ?stamp\w*|locat\w*|time (?:range|period|interval|span|window)|"
     r"which (?:time|moment|period|interval|span))\b"),
    ("detection", r"^(?:is|are|does|do|did|was|were|can|could|has|have)\b|"
     r"\b(any|present|presence|detect\w*|exist\w*|contain\w*|whether|noticeable)\b"),
)


_PAIRWISE = r"\b(more|less|worse|better|milder|stronger|weaker)\b"  # "is A or B worse?"


def question_kind(question: str, options: Sequence[str] = ()) -> str:
    """The LongVQUBench dimension a question asks about (a key of KINDS)."""
    q = question.strip()
    low = q.lower()
    has_dist = bool(distortions(q)) or mentions_generic(q)
    if _OUT_OF_SCOPE.search(q) and not has_dist and not _QUALITY.search(
        re.sub(r"\b(video|frames?|picture|image|visual)\b", "", q, flags=re.I)
    ):
        return "out_of_scope"
    if not options and re.match(r"^\s*(why|explain|describe|how does|how do|how did|what makes|"
                                r"in what way|discuss|what causes|what effect|what impact)", low):
        return "open"
    opts = [o.lower() for o in options]
    opt_windows = [o for o in options if windows(o, 3600.0)]
    # Options that are all times ask "when", even when the question reads "which segment".
    if options and len(opt_windows) == len(options) and re.search(
        r"\b(when|what time|which time|at what|where|time ?stamp|locat|time range|period|"
        r"interval)\b", low) and not re.search(r"\b(most|least|worst|best|more|less|worse|"
                                                r"better)\b", low):
        return "localization"
    levelled = sum(bool(_LEVEL_RE.search(o)) and not _YES.match(o) and not _NO.match(o)
                   for o in options)
    if options and levelled >= max(2, len(options) - 1) and not re.search(
            r"\b(overall|rate|rating|compar|which (?:segment|part|half))\b", low):
        return "severity"
    for kind, pattern in _RULES:
        if re.search(pattern, low):
            if kind == "comparison" and re.search(r"\bwhich (?:type|kind|distortion)\b", low) \
                    and not re.search(_PAIRWISE, low):
                return "classification"
            if kind == "severity" and re.match(r"^\s*(is|are|does|do)\b", low) and not re.search(
                r"\bhow\b", low
            ):
                continue
            return kind
    if options and all(_YES.match(o) or _NO.match(o) for o in opts):
        return "detection"
    if not options:
        return "open" if has_dist or _QUALITY.search(q) else "out_of_scope"
    if options and sum(bool(distortions(o)) for o in options) >= len(options) - 1:
        return "classification"
    if not has_dist and not _QUALITY.search(q):
        return "out_of_scope"
    return "overall"


# ---------------------------------------------------------------- options

_YES = re.compile(r"^\s*(yes|true|yeah|correct|present|it does|there (?:is|are))\b", re.I)
_NO = re.compile(r"^\s*(no|none|false|not? |never|absent|there (?:is|are) no|it does not)\b",
                 re.I)
_NONE = re.compile(
    r"\b(no (?:noticeable |visible |obvious |significant |perceptible )?(?:distortion|artifact|"
    r"artefact|degradation|problem|issue|change|event|flicker|blur|noise)s?|none(?: of the above)?"
    r"|not (?:present|detected|found|observed)|does not (?:occur|appear)|never|clean|"
    r"no quality issues?)\b",
    re.I,
)

LEVEL_WORDS: dict[str, float] = {
    "imperceptible": 0, "none": 0, "no": 0, "negligible": 0.5, "barely": 0.7,
    "very slight": 0.8, "very mild": 0.8, "slight": 1, "slightly": 1, "mild": 1, "mildly": 1,
    "minor": 1, "low": 1, "weak": 1, "light": 1, "subtle": 1, "small": 1, "minimal": 0.8,
    "moderate": 2, "moderately": 2, "medium": 2, "noticeable": 2, "noticeably": 2,
    "somewhat": 1.7, "fairly": 2, "clearly visible": 2.3, "obvious": 2.3, "significant": 2.5,
    "significantly": 2.5, "strong": 2.7, "strongly": 2.7, "severe": 3, "severely": 3,
    "heavy": 3, "heavily": 3, "high": 3, "intense": 3, "very": 2.8, "extreme": 3.5,
    "extremely": 3.5, "very severe": 3.5, "unwatchable": 3.8, "completely": 3.6,
}
_LEVEL_RE = re.compile(
    r"\b(" + "|".join(re.escape(w) for w in sorted(LEVEL_WORDS, key=len, reverse=True)) + r")\b",
    re.I,
)
GRADE_WORDS: dict[str, float] = {
    "excellent": 5, "very good": 4.6, "outstanding": 5, "perfect": 5, "high": 4.3,
    "good": 4, "decent": 3.5, "acceptable": 3.2, "fair": 3, "average": 3, "medium": 3,
    "moderate": 3, "mediocre": 2.6, "low": 2, "poor": 2, "very poor": 1.3, "bad": 1.5,
    "very bad": 1, "terrible": 1, "awful": 1,
}
_GRADE_RE = re.compile(
    r"\b(" + "|".join(re.escape(w) for w in sorted(GRADE_WORDS, key=len, reverse=True)) + r")\b",
    re.I,
)
TREND_WORDS: dict[str, str] = {
    "improv": "improving", "better": "improving", "recover": "improving", "increas": "?",
    "degrad": "degrading", "deteriorat": "degrading", "worse": "degrading", "declin": "degrading",
    "decreas": "?", "(?<!frame )drops?\\b": "degrading", "stable": "stable", "constant": "stable",
    "consistent": "stable", "unchanged": "stable", "steady": "stable", "same": "stable",
    "no (?:significant |obvious )?change": "stable", "fluctuat": "fluctuating",
    "vari": "fluctuating", "up and down": "fluctuating", "inconsistent": "fluctuating",
    "unstable": "fluctuating", "alternat": "fluctuating", "irregular": "fluctuating",
    "sudden": "fluctuating", "occasional": "fluctuating", "intermittent": "fluctuating",
}


@dataclass
class Option:
    """What one MCQ option says: its letter, text, and the facts it claims."""

    letter: str
    text: str
    windows: list[Window] = field(default_factory=list)
    types: list[Mention] = field(default_factory=list)
    level: float | None = None  # 0 none .. 3 severe (and beyond)
    grade: float | None = None  # 1 bad .. 5 excellent
    trend: str | None = None  # improving | degrading | stable | fluctuating
    yes: bool = False
    no: bool = False
    none: bool = False
    durations: list[float] = field(default_factory=list)
    numbers: list[float] = field(default_factory=list)


def letters(n: int) -> list[str]:
    """Option letters for n options: A, B, C..."""
    return [chr(ord("A") + i) for i in range(n)]


def _trend_of(text: str) -> str | None:
    low = text.lower()
    if re.search(r"\b(first|initially|begin\w*|start\w*)\b.*\b(then|later|but|before)\b", low) \
            and re.search(r"\b(improv|recover|better)\w*", low) \
            and re.search(r"\b(degrad|worse|declin|deteriorat)\w*", low):
        return "fluctuating"
    for stem, trend in TREND_WORDS.items():
        if re.search(rf"\b{stem}", low):
            if trend != "?":
                return trend
            positive = re.search(r"\b(quality|clarity|sharpness)\b", low)
            return ("improving" if stem == "increas" else "degrading") if positive else (
                "degrading" if stem == "increas" else "improving"
            )
    return None


def parse_option(letter: str, text: str, duration_s: float, n_segments: int | None = None,
                 scenes: Sequence[tuple[float, float]] | None = None) -> Option:
    """The facts one option text claims (times, types, level, grade, trend, yes/no)."""
    bare = re.fullmatch(r"\s*(yes|no)\W*", text, re.I)  # a bare "No" claims no level
    lv = [] if bare else [LEVEL_WORDS[m.group(1).lower()] for m in _LEVEL_RE.finditer(text)]
    gr = [GRADE_WORDS[m.group(1).lower()] for m in _GRADE_RE.finditer(text)]
    return Option(
        letter=letter,
        text=text,
        windows=windows(text, duration_s, n_segments, scenes),
        types=distortions(text),
        level=max(lv) if lv else None,
        grade=min(gr) if gr else None,
        trend=_trend_of(text),
        yes=bool(_YES.match(text)),
        no=bool(_NO.match(text)),
        none=bool(_NONE.search(text)),
        durations=durations(text),
        numbers=numbers(text),
    )


@dataclass
class Question:
    """A parsed question: text, kind, named windows and distortions, direction, options."""

    text: str
    kind: str
    windows: list[Window]
    types: list[Mention]
    options: list[Option]
    duration_s: float
    least: bool = False  # asks for the least/mildest/best instead of the worst
    n_segments: int | None = None

    @property
    def type(self) -> str | None:
        """The first distortion type named in the question, if any."""
        return self.types[0].type if self.types else None

    @property
    def subtype(self) -> str:
        return self.types[0].subtype if self.types else ""

    @property
    def window(self) -> Window | None:
        """The single window the question is about (the first named), if any."""
        return self.windows[0] if self.windows else None


def _n_segments(question: str, options: Sequence[str]) -> int | None:
    n = segment_count(question)
    if n:
        return n
    nums = []
    for text in (question, *options):
        for m in re.finditer(r"\b(?:segment|part|section|clip)\s*#?\s*(\d+)\b", text, re.I):
            nums.append(int(m.group(1)))
        for m in re.finditer(r"\b(first|second|third|fourth|fifth|sixth|last)\s+segment\b",
                             text, re.I):
            nums.append(_ORDINALS.get(m.group(1).lower(), 0))
    return max(nums) if nums and max(nums) >= 2 else None


def parse_question(
    question: str,
    options: Sequence[str] = (),
    duration_s: float = 0.0,
    scenes: Sequence[tuple[float, float]] | None = None,
) -> Question:
    """Parse a question and its options against a video of `duration_s` seconds."""
    n_seg = _n_segments(question, options)
    opts = [parse_option(letter, text, duration_s, n_seg, scenes)
            for letter, text in zip(letters(len(options)), options, strict=True)]
    least = bool(re.search(
        r"\b(least|mildest|less severe|less noticeable|best quality|highest quality|clearest|"
        r"cleanest|fewest|better quality|sharpest|most stable|smoothest)\b",
        question, re.I,
    ))
    return Question(
        text=question,
        kind=question_kind(question, options),
        windows=windows(question, duration_s, n_seg, scenes),
        types=distortions(question),
        options=opts,
        duration_s=float(duration_s),
        least=least,
        n_segments=n_seg,
    )
