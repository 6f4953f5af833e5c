"""How much of the video a defect covers, asked as people ask it ("is the whole video noisy,
or only part of it?", "is the noise constant throughout?"), the overall grade of a window
("rate the last 30 seconds"), and the level of softness found to be the coder's, read on the
scale that graded it (session 26)."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from tools.model import Event
from tools.timeline import event_dict


def _noise(start=94.5, end=118.5):
    return make_index(180.0, [Event("noise", start, end, 0.57, 3.0, "grain", {})], fps=5.0)


EXTENT = ("The whole video", "Only part of it", "Not noisy at all")


@pytest.mark.parametrize("span,letter", [((94.5, 118.5), "B"), ((0.0, 180.0), "A")])
def test_whole_or_part_options(tmp_path, span, letter):
    ans = ask(_noise(*span), "Is the whole video noisy, or only part of it?", EXTENT, tmp_path)
    assert ans.choice == letter, ans.answer


def test_whole_or_part_with_no_noise_at_all(tmp_path):
    idx = make_index(180.0, [Event("blur", 10.0, 40.0, 0.6, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "Is the whole video noisy, or only part of it?", EXTENT, tmp_path)
    assert ans.choice == "C", ans.answer


@pytest.mark.parametrize("question", [
    "Is the noise constant throughout the clip?",
    "Is the picture noisy the whole time?",
    "Is the picture noisy from start to finish?",
])
@pytest.mark.parametrize("span,letter", [((94.5, 118.5), "B"), ((0.0, 180.0), "A")])
def test_a_defect_claimed_all_along_must_cover_the_video(tmp_path, question, span, letter):
    ans = ask(_noise(*span), question, ("Yes", "No"), tmp_path)
    assert ans.choice == letter, ans.answer
    assert "of the video" in ans.answer, ans.answer


def test_throughout_alone_still_asks_whether_there_is_any(tmp_path):
    ans = ask(_noise(), "Is there noise throughout the video?", ("Yes", "No"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_the_overall_grade_of_a_named_window(tmp_path):
    idx = make_index(180.0, [Event("compression", 153.0, 169.0, 1.0, 5.0, "blocking", {})],
                     fps=5.0)
    q = "Rate the picture quality of the last 30 seconds from 1 (bad) to 5 (excellent)."
    last = ask(idx, q, ("1", "2", "3", "4", "5"), tmp_path)
    whole = ask(idx, "Rate the picture quality of the video from 1 (bad) to 5 (excellent).",
                ("1", "2", "3", "4", "5"), tmp_path)
    assert "of 00:02:30.0-00:03:00.0" in last.answer, last.answer
    assert last.choice < whole.choice, (last.answer, whole.answer)


def test_coder_softness_is_levelled_on_the_blur_scale(tmp_path):
    e = Event("compression", 46.0, 65.5, 0.596, 1.9, "macroblocking",
              {"signal": "detail", "median_in_event": 0.35, "scene_baseline": 0.65,
               "deviation": 0.6, "kink_ratio": 1.92, "recoded_from": "blur/softness"})
    assert event_dict(e)["graded_as"] == "blur/softness"
    ans = ask(make_index(180.0, [e], fps=5.0), "Is there heavy compression in the first minute?",
              ("Yes", "No"), tmp_path)
    assert ans.choice == "A" and "severe" in ans.answer, ans.answer
