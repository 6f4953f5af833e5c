"""Arithmetic on stretch lengths (agent/brains/local/durations.py): how much longer one is
than another, the combined length of two types, the gap between two stretches of one."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from tools.model import Event

SECONDS = ("About 2 s", "About 6 s", "About 10 s")


def _freezes():
    return make_index(180.0, [Event("freeze", 16.8, 18.8, 0.64, 2.0, "frozen picture", {}),
                              Event("freeze", 109.4, 113.4, 0.88, 3.0, "frozen picture", {}),
                              Event("freeze", 127.0, 135.0, 1.0, 5.0, "frozen picture", {})],
                      fps=5.0)


@pytest.mark.parametrize("question,letter", [
    ("By how many seconds is the last freeze longer than the first?", "B"),
    ("How much longer is the longest freeze than the shortest?", "B"),
    ("How much shorter is the first freeze than the second?", "A"),
])
def test_a_difference_of_lengths(tmp_path, question, letter):
    ans = ask(_freezes(), question, SECONDS, tmp_path)
    assert ans.choice == letter and ans.answer.startswith("They differ by"), ans.answer


def test_the_combined_length_of_two_types(tmp_path):
    idx = make_index(180.0, [Event("jitter", 16.6, 31.6, 0.81, 3.0, "camera shake", {}),
                             Event("flicker", 122.5, 143.8, 0.6, 3.0, "brightness oscillation",
                                   {})], fps=5.0)
    ans = ask(idx, "What is the combined duration of the shake and the flicker?",
              ("About 20 s", "About 37 s", "About 70 s"), tmp_path)
    assert ans.choice == "B" and ans.answer.startswith("Together they last 36.3 s"), ans.answer


def test_the_gap_between_two_stretches_of_one_type(tmp_path):
    idx = make_index(180.0, [Event("corruption", 70.7, 78.7, 0.87, 5.0, "decoder errors", {}),
                             Event("corruption", 102.7, 112.2, 1.0, 5.0, "decoder errors", {})],
                     fps=5.0)
    ans = ask(idx, "What is the gap between the two damaged stretches?",
              ("About 10 s", "About 25 s", "About 60 s"), tmp_path)
    assert ans.choice == "B" and "24.0 s apart" in ans.answer, ans.answer
