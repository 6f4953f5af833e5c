"""How NDQA questions word things: distortion names, confusable categories, times and counts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from bench import distort


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
