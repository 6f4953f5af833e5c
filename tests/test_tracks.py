"""Tracks: uniform sampling (<= 1 FPS), the frame-only rules, the B.2 prompt to a model brain,
and the agent track's recorded windows."""

from __future__ import annotations

import numpy as np
import pytest
import scripted_server as ss

from bench import tracks
from bench.run import uniform_rules
from bench.tracks import Samples, rules_answer, sample_evidence, sample_times, uniform_prompt


def test_sample_times_uniform_and_capped_at_one_fps():
    assert sample_times(180, 32) == [round((i + 0.5) * 180 / 32, 3) for i in range(32)]
    assert len(sample_times(20, 32)) == 20  # 1 FPS cap
    assert sample_times(20, 32)[0] == 0.5
    assert len(sample_times(3600, 64)) == 64
    assert tracks.decode_size(1920, 1080) == (640, 360)
    assert tracks.decode_size(640, 360) is None


def test_uniform_prompt_is_the_b2_prompt():
    text = uniform_prompt("When does blur occur?", ["0:00 - 0:15", "0:15 - 0:30"], 180.4, 32)
    assert "180 seconds" in text and "1 FPS" in text and "32 frames" in text
    assert "A. 0:00 - 0:15\nB. 0:15 - 0:30" in text and "A, B." in text
    assert "Question:\nWhen does blur occur?" in text
    open_text = uniform_prompt("Why is it blurry?", [], 60, 32)
    assert "80 words" in open_text and "Choices" not in open_text


def fake_samples(blur=(), noise=(), n=36, duration=180.0):
    """Samples of a clean video with sharpness and detail collapsed at `blur` times and noise
    raised at `noise` times (small natural spread elsewhere)."""
    rng = np.random.default_rng(0)
    t = (np.arange(n) + 0.5) * duration / n
    sig = {
        "sharpness": 400 * np.exp(rng.normal(0, 0.1, n)), "noise": 2 + rng.normal(0, .05, n),
        "impulse": np.full(n, 1e-4), "blockiness": np.ones(n), "grid": np.ones(n),
        "halo": 8 + rng.normal(0, .2, n), "detail": 0.3 * np.exp(rng.normal(0, 0.03, n)),
        "black": 10 + rng.normal(0, 1, n),
        "white": np.full(n, 240.0), "contrast_range": 200 + rng.normal(0, 3, n),
        "saturation": 90 + rng.normal(0, 2, n), "hue_x": np.full(n, 0.3),
        "hue_y": np.full(n, 0.1), "luma": np.full(n, 120.0),
    }
    for a, b in blur:
        sel = (t >= a) & (t < b)
        sig["sharpness"][sel] = 15.0
        sig["detail"][sel] = 0.1
    for a, b in noise:
        sel = (t >= a) & (t < b)
        sig["noise"][sel] = 25.0
    return Samples(t, sig, duration)


def test_sample_evidence_finds_runs_of_departing_frames():
    evs, raw = sample_evidence(fake_samples(blur=[(60, 75)], noise=[(150, 165)]))
    assert [(e["type"], e["start_s"], e["end_s"]) for e in evs] == [
        ("blur", 60.0, 75.0), ("noise", 150.0, 165.0)]  # samples 5 s apart, +-2.5 s
    assert evs[0]["severity"] > 0.5 and raw["blur"].max() > 3
    assert sample_evidence(fake_samples())[0] == []  # natural spread is not an event


@pytest.mark.parametrize(("question", "options", "want"), [
    ("Is there any blur between 1:00 and 1:15?", ["Yes", "No"], "A"),
    ("Is there any blur between 2:00 and 2:15?", ["No", "Yes"], "A"),
    ("When does the blur occur?", ["0:15 - 0:30", "1:00 - 1:15", "2:30 - 2:45"], "B"),
    ("What kind of artifact can be seen from 1:00 to 1:15?",
     ["Gaussian noise", "Gaussian blur", "Flicker"], "B"),
    ("Which distortion appears first in the video?", ["Gaussian noise", "Gaussian blur"], "B"),
    ("Does the noise occur before the blur?", ["Yes", "No"], "B"),
    ("How many different types of distortion appear across the video?",
     ["One", "Two", "Three"], "B"),
    ("Which distortion types appear in the video?",
     ["Blur", "Blur and noise", "Noise and flicker"], "B"),
    ("Overall, is this video free of visible quality problems?", ["Yes", "No"], "B"),
])
def test_rules_answer_from_sampled_frames(question, options, want):
    s = fake_samples(blur=[(60, 75)], noise=[(150, 165)])
    assert rules_answer(s, question, options).choice == want


def test_rules_total_duration_counts_overlapping_events_once():
    evs = [{"type": "noise", "start_s": 60.0, "end_s": 75.0},
           {"type": "jitter", "start_s": 62.0, "end_s": 72.0},
           {"type": "blur", "start_s": 150.0, "end_s": 165.0}]
    assert uniform_rules._covered(evs) == 30.0
    s = fake_samples(noise=[(60, 75), (150, 165)])
    assert rules_answer(s, "Adding up all the distorted stretches, how long does the "
                        "degradation last in total?",
                        ["About 15 seconds", "About 30 seconds", "About 1 minute 15 seconds"]
                        ).choice == "B"


def test_rules_clean_video_and_temporal_blindness():
    s = fake_samples()
    assert rules_answer(s, "How does the picture quality change as the video progresses?",
                        ["It improves over time", "It stays about the same",
                         "It gets worse over time"]).choice == "B"
    assert rules_answer(s, "What is the dominant distortion in this video?",
                        ["Flicker", "No noticeable distortion", "Gaussian blur"]).choice == "B"
    # frame drops leave single frames intact: the sampled frames cannot show them
    assert rules_answer(s, "Are there any dropped frames between 1:00 and 1:15?",
                        ["Yes", "No"]).choice == "B"


def test_uniform_local_on_a_real_video_sees_spatial_needles(make_clip):
    path, _ = make_clip(40.0, seed=2, needles=[("gaussian_blur", 3, 15.0, 25.0)])
    samples = tracks.measure_samples(path, n=16)
    assert len(samples.times) == 16 and set(samples.signals) >= {"sharpness", "noise", "luma"}
    pred = tracks.uniform_local(samples, "When does the blur occur?",
                                ["0:00 - 0:10", "0:15 - 0:25", "0:30 - 0:40"])
    assert pred.choice == "B" and pred.frames == [round(float(t), 3) for t in samples.times]
    assert pred.sent == {"mode": "numbers", "frames": 16, "size": list(samples.size)}
    again = Samples.from_dict(samples.to_dict())
    assert again.size == samples.size == (320, 180)
    assert np.allclose(again.signals["sharpness"], samples.signals["sharpness"])


def test_uniform_model_sends_prompt_and_frames_in_one_request(monkeypatch):
    from agent.brains.openai_brain import OpenAIBrain
    from bench.uniform_model import uniform_model

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real-000000")
    frames = np.zeros((3, 36, 64, 3), np.uint8)
    with ss.ScriptedServer([ss.text("Red"), ss.text("B")]) as srv:  # the probe, then the answer
        brain = OpenAIBrain.from_env(base_url=srv.url, model="gpt-4o-mini", max_retries=0)
        pred = uniform_model(frames, np.array([1.0, 2.0, 3.0]), 3.0, "When is blur?",
                             ["0:00 - 0:01", "0:01 - 0:02"], brain)
        probe, req = srv.chat_requests
    assert pred.response == "B" and pred.frames == [1.0, 2.0, 3.0]
    assert pred.sent == {"mode": "images", "frames": 3, "size": [64, 36]}
    assert pred.tokens and pred.tokens["total_tokens"] == 18
    assert "tools" not in req.body
    parts = req.messages[0]["content"]
    assert "When is blur?" in parts[0]["text"] and "A. 0:00 - 0:01" in parts[0]["text"]
    assert sum(p["type"] == "image_url" for p in parts) == 3


def test_agent_track_records_windows_and_segments(make_clip, tmp_path):
    from tools.index import get_index

    path, _ = make_clip(40.0, seed=2, needles=[("gaussian_blur", 3, 15.0, 25.0)])
    index = get_index(path, cache_dir=tmp_path, progress=False, clip=False)
    pred = tracks.agent_answer(path, "When does the blur occur?",
                               ["0:00 - 0:10", "0:15 - 0:25", "0:30 - 0:40"], "local", index,
                               tmp_path)
    assert pred.choice == "B" and pred.steps >= 2 and pred.trace_id
    assert pred.windows and all(len(w) == 2 for w in pred.windows)
    assert any(s["label"].startswith("blur") for s in pred.segments)
