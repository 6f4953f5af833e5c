"""Times named from the end, around the middle, and by the ordinal second (session 26):
"30 seconds before the end" is 2:30 of a 3-minute video, not 0:30."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.kinds import question_kind
from agent.times import windows
from tools.model import Event


@pytest.mark.parametrize("text,span,point", [
    ("About 30 seconds before the end, is it too bright?", (148.0, 152.0), True),
    ("10 seconds before the end", (168.0, 172.0), True),
    ("one minute before the end", (118.0, 122.0), True),
    ("20 s before it ends", (158.0, 162.0), True),
    ("What is wrong around the middle of the video?", (81.0, 99.0), False),
    ("Is it blurry mid-video?", (81.0, 99.0), False),
    ("From second 50 to second 85, what is the problem?", (50.0, 85.0), False),
    ("between second 20 and second 40", (20.0, 40.0), False),
    ("Is there a blur at second 50?", (48.0, 52.0), True),
])
def test_the_window_named(text, span, point):
    (w,) = windows(text, 180.0)
    assert (round(w.start_s, 3), round(w.end_s, 3)) == span and w.point == point


def test_before_the_end_is_no_order():
    assert question_kind("About 30 seconds before the end, is the picture too bright?",
                         ["Yes", "No"]) == "detection"


def test_a_time_before_the_end_is_judged_there(tmp_path):
    idx = make_index(180.0, [Event("exposure", 104.5, 138.5, 0.45, 2.0, "too bright", {})],
                     fps=5.0)
    late = ask(idx, "About 30 seconds before the end, is the picture too bright?",
               ("Yes", "No"), tmp_path)
    early = ask(idx, "About 60 seconds before the end, is the picture too bright?",
                ("Yes", "No"), tmp_path)
    assert (late.choice, early.choice) == ("B", "A"), (late.answer, early.answer)


@pytest.mark.parametrize("question,letter", [
    ("Does the brightness problem happen before minute 15?", "A"),
    ("Does the brightness problem happen after minute 15?", "B"),
    ("Does the noise happen after minute 15?", "A"),
])
def test_before_or_after_a_named_minute(tmp_path, question, letter):
    idx = make_index(1800.0, [Event("exposure", 701.0, 729.0, 0.77, 4.0, "too bright", {}),
                              Event("noise", 1364.5, 1388.5, 0.31, 2.0, "grain", {})], fps=1.0)
    ans = ask(idx, question, ("Yes", "No"), tmp_path)
    assert ans.choice == letter, ans.answer
