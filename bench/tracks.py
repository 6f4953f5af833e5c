"""Benchmark tracks, kept importable here: they live in bench.run (tracks, uniform_track,
samples, uniform_rules, agent_track)."""

from bench.run.agent_track import agent_answer
from bench.run.samples import Samples, measure
from bench.run.tracks import (
    DEFAULT_FRAMES,
    MAX_FPS,
    MAX_SIDE,
    TRACKS,
    Prediction,
    check_track,
    sent_record,
)
from bench.run.uniform_rules import RulesAnswer, rules_answer, sample_evidence
from bench.run.uniform_track import (
    decode_size,
    measure_samples,
    sample_times,
    uniform_frames,
    uniform_local,
    uniform_prompt,
)

__all__ = ["DEFAULT_FRAMES", "MAX_FPS", "MAX_SIDE", "TRACKS", "Prediction", "RulesAnswer",
           "Samples", "agent_answer", "check_track", "decode_size", "measure",
           "measure_samples", "rules_answer", "sample_evidence", "sample_times", "sent_record",
           "uniform_frames", "uniform_local", "uniform_prompt"]
