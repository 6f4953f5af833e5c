"""Question parsing: time expressions, distortion synonyms, question kinds, options."""

from __future__ import annotations

import pytest

from agent.questions import (
    distortion_type,
    distortions,
    parse_option,
    parse_question,
    parse_time,
    question_kind,
    windows,
)

D = 1800.0  # a 30-minute video


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("2:15", 135), ("00:01:10", 70), ("1:02:03.5", 3723.5), ("135 s", 135), ("2m15s", 135),
     ("1 min 5 sec", 65), ("1.5 min", 90), ("90 seconds", 90), ("42", 42)],
)
def test_parse_time(text, seconds):
    assert parse_time(text) == pytest.approx(seconds)


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("Is there blur at 2:15?", (133, 137)),
        ("between 00:01:10 and 00:01:25", (70, 85)),
        ("from 1:10 to 1:25", (70, 85)),
        ("00:01:10-00:01:25", (70, 85)),
        ("from 70 to 85 seconds", (70, 85)),
        ("70-85 s", (70, 85)),
        ("in the first half", (0, 900)),
        ("in the second half", (900, 1800)),
        ("the last third", (1200, 1800)),
        ("the second quarter", (450, 900)),
        ("the last minute", (1740, 1800)),
        ("the first 30 seconds", (0, 30)),
        ("the first five minutes", (0, 300)),
        ("during the 3rd minute", (120, 180)),
        ("after 5:00", (300, 1800)),
        ("before 1:00", (0, 60)),
        ("segment 3 of 4", (900, 1350)),
        ("Segment 2 (00:00:15-00:00:30)", (15, 30)),
        ("at the end of the video", (1740, 1800)),
        ("around 135 s", (133, 137)),
    ],
)
def test_windows(text, span):
    found = windows(text, D)
    assert found, text
    assert (found[0].start_s, found[0].end_s) == pytest.approx(span)


def test_windows_clamped_and_durations_not_times():
    assert windows("from 1:00 to 99:00", 120.0)[0].span == (60.0, 120.0)
    assert windows("Does the blur last about 5 seconds?", D) == []
    assert windows("Which of the 4 segments is worst?", D) == []


def test_segments_counted_from_options():
    q = parse_question("Which segment is blurriest?", ["Segment 1", "Segment 2", "Segment 3",
                                                       "Segment 4"], 400.0)
    assert [o.windows[0].span for o in q.options] == [(0, 100), (100, 200), (200, 300),
                                                      (300, 400)]


@pytest.mark.parametrize(
    ("word", "etype"),
    [("blurry", "blur"), ("out of focus", "blur"), ("soft", "blur"), ("grainy", "noise"),
     ("noisy", "noise"), ("snow", "noise"), ("blocky", "compression"),
     ("pixelated", "compression"), ("compression artifacts", "compression"),
     ("macroblocking", "compression"), ("overexposed", "exposure"), ("washed out", "exposure"),
     ("too bright", "exposure"), ("low contrast", "exposure"), ("flat", "exposure"),
     ("dull", "exposure"), ("colour cast", "colour"), ("tint", "colour"), ("hue", "colour"),
     ("oversaturated", "colour"), ("desaturated", "colour"), ("flicker", "flicker"),
     ("flashing", "flicker"), ("strobing", "flicker"), ("frame drop", "frame_drop"),
     ("skipped frames", "frame_drop"), ("choppy", "frame_drop"), ("stutter", "stutter"),
     ("freeze", "freeze"), ("frozen", "freeze"), ("pause", "freeze"), ("jitter", "jitter"),
     ("shaky", "jitter"), ("camera shake", "jitter"), ("oversharpened", "sharpening"),
     ("halos", "sharpening")],
)
def test_synonyms(word, etype):
    assert distortion_type(f"Why is the video {word} here?") == etype


def test_subtypes_and_longest_match():
    assert [(m.type, m.subtype) for m in distortions("salt and pepper noise")] == [
        ("noise", "impulse")]
    assert distortions("brightness fluctuation")[0].type == "flicker"
    assert distortions("brightness")[0].type == "exposure"
    assert distortions("pixelated")[0].subtype == "pixelation"
    assert distortions("a desaturated look")[0].subtype == "saturation"
    # faded colours are desaturation; a faded picture is one that lost its contrast
    assert [(m.type, m.subtype) for m in distortions("the faded colours")] == [
        ("colour", "saturation")]
    assert distortions("a faded picture")[0].type == "exposure"
    assert distortions("the sharpness is fine") == []


@pytest.mark.parametrize(
    ("question", "options", "kind"),
    [
        ("When does flicker occur?", [], "localization"),
        ("At what time does the video freeze?", ["0:10-0:20", "1:00-1:10"], "localization"),
        ("Is there any blur between 1:00 and 1:15?", ["Yes", "No"], "detection"),
        ("What type of distortion appears in the second half?", ["Blur", "Noise"],
         "classification"),
        ("How severe is the noise?", ["Mild", "Moderate", "Severe"], "severity"),
        ("Is the flicker severe?", ["Mild", "Moderate", "Severe"], "severity"),
        ("Which segment has more severe blur?", ["Segment 1", "Segment 2"], "comparison"),
        ("How does the accumulation of multiple artifacts affect viewing?", ["a", "b"],
         "cumulative_effect"),
        ("Considering all segments, which statement is correct?", ["a", "b"], "integration"),
        ("Does the blur occur before the noise?", ["Yes", "No"], "temporal_relation"),
        ("Is the quality stable throughout?", ["Yes", "No"], "stability"),
        ("What is the dominant distortion?", ["Blur", "Noise"], "dominant_factor"),
        ("Is the quality getting worse over time?", ["Yes", "No"], "trend"),
        ("How would you rate the overall quality?", ["Excellent", "Good", "Poor"], "overall"),
        ("Why does the flicker reduce viewing comfort?", [], "open"),
        ("Explain the quality problems of this video.", [], "open"),
        ("What is the man wearing?", ["A hat", "A coat"], "out_of_scope"),
        ("In total, for roughly how long is the picture degraded over the whole video?",
         ["About 15 seconds", "About 30 seconds"], "cumulative_effect"),
        ("How many times does the viewer run into a quality degradation during the video?",
         ["Three", "Four"], "cumulative_effect"),
        ("Which distortion types appear in the video?", ["Blur and noise", "Blur"],
         "integration"),
        ("Which of these degradations appears latest in the video?", ["Blur", "Flicker"],
         "temporal_relation"),
        ("Which of these degradations occurs earliest?", ["Blur", "Flicker"],
         "temporal_relation"),
        ("Which distortion is more severe: the low contrast or the speckled noise?",
         ["Contrast reduction", "Speckle noise"], "comparison"),
        ("During which interval is the out-of-focus blur visible?",
         ["0:15 - 0:30", "1:00 - 1:15"], "localization"),
        ("Which of these intervals shows the most severe degradation?",
         ["0:15 - 0:30", "1:00 - 1:15"], "comparison"),
        ("How loud is the audio?", [], "out_of_scope"),
    ],
)
def test_question_kind(question, options, kind):
    assert question_kind(question, options) == kind


def test_option_claims():
    o = parse_option("A", "Severe blur in the first half", 100.0)
    assert o.level == 3 and o.types[0].type == "blur" and o.windows[0].span == (0, 50)
    assert parse_option("B", "No distortion", 100.0).none
    assert parse_option("C", "Yes", 100.0).yes
    assert parse_option("D", "It gradually gets worse", 100.0).trend == "degrading"
    assert parse_option("E", "Good", 100.0).grade == 4
    assert parse_option("F", "About 15 seconds", 100.0).durations == [15.0]
    assert parse_option("G", "About 1 minute 15 seconds", 100.0).durations == [75.0]
    assert parse_option("H", "1 min and 30 s, then 2 minutes", 100.0).durations == [90.0, 120.0]
    assert parse_option("I", "No", 100.0).level is None  # a bare no is not "no severity"
    assert parse_option("J", "Frame drops", 100.0).trend is None
    assert parse_option("K", "The quality drops sharply", 100.0).trend == "degrading"
    assert parse_question("Which part is least degraded?", [], 100.0).least


def test_brightness_that_strobes_is_flicker_not_exposure():
    from agent.questions import distortions

    assert [m.type for m in distortions("Where is the brightness strobing?")] == ["flicker"]
    both = distortions("Is the video too bright, or is there flicker?")
    assert [m.type for m in both] == ["exposure", "flicker"]


def test_public_names_stay_importable_from_agent_questions():
    from agent import questions
    from tools.model import EVENT_TYPES

    for name in ("TYPE_NAMES", "LEVEL_WORDS", "GRADE_WORDS", "TREND_WORDS", "KINDS", "Window",
                 "Option", "Question", "Mention", "letters", "durations", "numbers",
                 "segment_count", "POINT_HALF_WIDTH_S", "mentions_generic"):
        assert hasattr(questions, name), name
    assert set(questions.TYPE_NAMES) == set(EVENT_TYPES)


@pytest.mark.parametrize(("word", "etype"), [
    ("frozen picture", "freeze"), ("stuck", "freeze"), ("still image", "freeze"),
    ("glitch", "corruption"), ("corrupted", "corruption"), ("data moshing", "corruption"),
    ("grey slices", "corruption"), ("interlaced", "interlace"), ("combing", "interlace"),
    ("jagged lines on motion", "interlace"), ("smeared blocks", "corruption"),
])
def test_new_event_types_have_words(word, etype):
    assert distortion_type(f"Is there any {word} here?") == etype
