"""The local brain on stability options, on clear signals no event was found for, on colour
kinds and on grain standing for a named over-sharpening; its package layout."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import BLUR, make_index

from tools.model import Event

STABILITY = ["Stable throughout, with no noticeable change",
             "Mostly stable, with one or two isolated drops",
             "Fluctuates repeatedly between good and poor quality",
             "Changes gradually in one direction"]


@pytest.mark.parametrize(("events", "choice"), [
    ([], "A"),
    ([Event("blur", 60, 100, 0.9, 5.0, "softness")], "B"),
    ([Event("flicker", a, a + 15, 0.9, 5.0, "") for a in (15, 60, 105, 150)], "C"),
    ([Event("noise", 70, 110, 0.3, 5.0, "grain"), Event("noise", 110, 150, 0.6, 5.0, "grain"),
      Event("noise", 150, 200, 1.0, 5.0, "grain")], "D"),
])
def test_stability_options(tmp_path, events, choice):
    i = make_index(events=events)
    assert ask(i, "How stable is the viewing quality throughout the video?", STABILITY,
               tmp_path).choice == choice


def test_a_clear_signal_without_an_event_still_counts(tmp_path):
    i = make_index()  # no events at all, but the noise signal jumps in 60-75 s
    ts = i.samples["t"]
    i.samples["noise"][(ts >= 60) & (ts < 75)] = 20.0
    assert ask(i, "Does the video show shot noise between 1:00 and 1:15?", ["Yes", "No"],
               tmp_path).choice == "A"
    assert ask(i, "Does the video show shot noise between 2:00 and 2:15?", ["Yes", "No"],
               tmp_path).choice == "B"
    assert ask(i, "How severe is the shot noise from 1:00 to 1:15?",
               ["Mild", "Moderate", "Severe"], tmp_path).choice == "B"
    blur = make_index()  # blur has no such bar: its scores swing with the scene's content
    blur.samples["sharpness"][(ts >= 60) & (ts < 75)] = 3.0
    assert ask(blur, "Is there any blur from 1:00 to 1:15?", ["Yes", "No"],
               tmp_path).choice == "B"


def test_order_with_an_undetected_type_is_read_from_where_it_shows_most(tmp_path):
    """Blur is an event at 60-75 s; the noise has no event but its signal stands out in
    150-165 s: the noise comes after the blur, not 'at the same time'."""
    i = make_index(events=[BLUR])
    ts = i.samples["t"]
    i.samples["noise"][(ts >= 150) & (ts < 165)] = 8.0
    opts = ["The blur comes first, then the noise", "The noise comes first, then the blur",
            "They occur at the same time"]
    ans = ask(i, "In what order do the blur and the noise occur?", opts, tmp_path)
    assert ans.choice == "A"
    assert any(e["tool"] == "compare_windows" for e in ans.evidence)
    clean = make_index(events=[BLUR])  # no sign of noise anywhere: nothing to place
    assert ask(clean, "In what order do the blur and the noise occur?", opts,
               tmp_path).choice != "B"


def test_comparison_counts_a_clear_signal_without_an_event(tmp_path):
    """A mild stutter event against noise that never became an event but whose signal is far
    outside the clean range: the noise is the worse of the two."""
    i = make_index(events=[Event("stutter", 60.0, 75.0, 0.4, 30.0, "repeated frames")])
    ts = i.samples["t"]
    i.samples["noise"][(ts >= 120) & (ts < 135)] = 20.0
    q = "Is the stutter between 1:00 and 1:15 milder than the noise between 2:00 and 2:15?"
    assert ask(i, q, ["Yes", "No"], tmp_path).choice == "A"


def test_comparison_of_named_types_reads_levels_not_raw_severities(tmp_path):
    """Severities of different detectors are on different scales: a grain of 0.9 and a blur
    of 0.8 are severe on their own cuts, a flicker of 0.93 only moderate."""
    i = make_index(events=[Event("noise", 20, 35, 0.9, 7.0, "grain"),
                           Event("flicker", 140, 155, 0.93, 5.0, "brightness oscillation")])
    assert ask(i, "Which distortion is more severe: the noise or the flicker?",
               ["Noise", "Flicker"], tmp_path).choice == "A"
    i = make_index(events=[Event("blur", 20, 35, 0.8, 7.0, "softness"),
                           Event("flicker", 140, 155, 0.9, 5.0, "brightness oscillation")])
    assert ask(i, "Which distortion is more severe: the blur or the flicker?",
               ["Gaussian blur", "Flicker"], tmp_path).choice == "A"


def test_a_named_type_seen_only_briefly_is_compared_on_that_glimpse(tmp_path):
    """Heavy blur over whole shots shows only as a 3-s event where it crosses a cut: a brief
    candidate, left out of counts, but the question names blur, so it is judged on it."""
    i = make_index(events=[Event("blur", 12.5, 15.4, 0.92, 7.0, "softness"),
                           Event("flicker", 90.0, 105.0, 0.4, 5.0, "brightness oscillation")])
    assert ask(i, "Which distortion is more severe: the blur or the flickering?",
               ["Flicker", "Gaussian blur"], tmp_path).choice == "B"
    q = "Is the blurring in the interval 0:00-0:15 milder than the flickering from 1:30 to 1:45?"
    assert ask(i, q, ["No", "Yes"], tmp_path).choice == "A"


@pytest.mark.parametrize(("subtype", "question", "choice"), [
    ("hue shift", "Does the video show oversaturated colours from 1:00 to 1:15?", "B"),
    ("hue shift", "Is there a colour cast from 1:00 to 1:15?", "A"),
    ("hue shift", "Are the colours distorted from 1:00 to 1:15?", "A"),
    ("oversaturation", "Is there a hue shift from 1:00 to 1:15?", "B"),
    ("oversaturation", "Are the colours oversaturated from 1:00 to 1:15?", "A"),
    ("oversaturation", "Are the colours distorted from 1:00 to 1:15?", "A"),
])
def test_the_two_colour_detectors_answer_only_for_their_own_kind(tmp_path, subtype, question,
                                                                  choice):
    """A hue turn is no oversaturation (and the reverse); colour problems in general are
    either."""
    i = make_index(events=[Event("colour", 60, 75, 0.8, 5.0, subtype)])
    assert ask(i, question, ["Yes", "No"], tmp_path).choice == choice


def _grain_and_blocks():
    return make_index(events=[Event("compression", 15, 30, 1.0, 9.0, "blocking"),
                              Event("noise", 45, 60, 0.71, 6.0, "grain")])


def test_grain_stands_for_the_named_over_sharpening_no_event_was_found_for(tmp_path):
    """Over-sharpening multiplies the grain already there, so the grain detector measures
    it: when the options name over-sharpening (never found) and nowhere noise, the grain
    is the over-sharpening the question says is there."""
    i = _grain_and_blocks()
    sets = ask(i, "Which distortion types appear in the video?",
               ["Jitter and over-sharpening", "Compression artifacts and flicker",
                "Compression artifacts and over-sharpening"], tmp_path)
    assert sets.choice == "C"
    kind = ask(i, "What kind of distortion affects the picture between 0:45 and 1:00?",
               ["Flicker", "Pixelation", "Stutter (freezes)", "Over-sharpening (halo artifacts)"],
               tmp_path)
    assert kind.choice == "D"


def test_grain_stays_noise_when_noise_is_named(tmp_path):
    ans = ask(_grain_and_blocks(), "Which distortion types appear in the video?",
              ["Over-sharpening and compression artifacts", "Noise and compression artifacts"],
              tmp_path)
    assert ans.choice == "B"


def test_over_sharpening_measured_as_grain_is_graded_on_its_own_scale(tmp_path):
    """Amplified grain scores low on the noise scale: 0.71 is a severe over-sharpening, where
    as noise it would be moderate."""
    i = _grain_and_blocks()
    sharp = ask(i, "How severe is the over-sharpening between 0:45 and 1:00?",
                ["Mild", "Moderate", "Severe"], tmp_path)
    assert sharp.choice == "C"
    grain = ask(i, "How severe is the noise between 0:45 and 1:00?",
                ["Mild", "Moderate", "Severe"], tmp_path)
    assert grain.choice == "B"


def test_grain_stands_for_the_named_over_sharpening_beside_a_glimpse_of_it(tmp_path):
    """Six grainy stretches and one brief halo event: the halo detector caught a glimpse of
    the over-sharpening, the grain detector the rest of it; with noise named nowhere, the
    over-sharpening dominates."""
    evs = [Event("noise", a, a + 15, 0.7, 6.0, "grain") for a in (15, 45, 75, 105, 135, 165)]
    i = make_index(events=[*evs, Event("sharpening", 45, 51, 0.85, 5.0, "halo")])
    ans = ask(i, "Which degradation most strongly affects the overall viewing experience?",
              ["JPEG compression artifacts", "No noticeable distortion", "Frame drops",
               "Over-sharpening (halo artifacts)"], tmp_path)
    assert ans.choice == "D"


def test_the_brain_is_a_package_of_small_modules():
    """agent/brains/local/: the planner, one module per question family, vocabulary as data;
    no module over ~400 lines."""
    from pathlib import Path

    import agent.brains.local as pkg
    from agent.brains import get_brain

    assert isinstance(get_brain("local"), pkg.LocalBrain)
    root = Path(pkg.__file__).parent
    assert (root / "vocabulary.toml").is_file()
    for module in root.glob("*.py"):
        assert len(module.read_text().splitlines()) <= 400, module.name
    assert set(pkg.HANDLERS) >= {"localization", "detection", "classification", "severity",
                                 "comparison", "temporal_relation", "trend", "stability",
                                 "dominant_factor", "overall", "not_understood"}


def test_every_event_type_has_a_name_in_answers(tmp_path):
    i = make_index(events=[Event("corruption", 50, 54, 0.9, 5.0, "smeared blocks")])
    ans = ask(i, "What kind of distortion appears between 0:45 and 1:00?",
              ["Noise", "Picture corruption", "Flicker"], tmp_path)
    assert ans.choice == "B" and "corruption" in ans.answer
