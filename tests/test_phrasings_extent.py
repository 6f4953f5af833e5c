"""How much of the video a defect covers, asked as people ask it ("is the whole video noisy,
or only part of it?", "is the noise constant throughout?"), the overall grade of a window
("rate the last 30 seconds"), and the level of softness found to be the coder's, read on the
scale that graded it, and drops that grow a level each time (session 26)."""

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


def _blur_steps(sevs=(0.351, 0.565, 0.564)):
    spans = [(25.0, 40.5), (87.0, 100.0), (131.5, 155.5)]
    return make_index(180.0, [Event("blur", a, b, s, 3.0, "softness", {})
                              for (a, b), s in zip(spans, sevs, strict=True)], fps=5.0)


def test_drops_stepping_up_a_level_each_time_answer_each_time(tmp_path):
    # mild -> severe -> severe on the blur's own cuts: a small move on the raw scale
    ans = ask(_blur_steps(), "Is the blur getting stronger each time it appears?",
              ("Yes", "No"), tmp_path)
    assert ans.choice == "A" and ans.answer.startswith("Yes."), ans.answer
    ans = ask(_blur_steps(), "Does the picture quality get better or worse as the video goes on?",
              ("It gets better", "It gets worse", "It stays the same"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_drops_that_step_down_are_not_growing_each_time(tmp_path):
    ans = ask(_blur_steps((0.565, 0.351, 0.6)),
              "Is the blur getting stronger each time it appears?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("extra,letter", [
    # combing read by the grain and halo detectors too, over the same span: one defect
    ((Event("noise", 111.0, 145.0, 0.35, 2.0, "impulse", {}),
      Event("sharpening", 114.0, 144.5, 0.58, 3.0, "halo", {})), "B"),
    # halos over a part of the combing only: still its echo
    ((Event("sharpening", 116.0, 129.0, 0.58, 3.0, "halo", {}),), "B"),
    # noise over half of the combing: two defects at once
    ((Event("noise", 130.0, 170.0, 0.6, 3.0, "grain", {}),), "A"),
])
def test_do_the_defects_overlap(tmp_path, extra, letter):
    idx = make_index(180.0, [Event("exposure", 22.0, 44.5, 0.48, 3.0, "too bright", {}),
                             Event("interlace", 111.0, 145.5, 1.0, 5.0, "combing", {}),
                             *extra], fps=5.0)
    ans = ask(idx, "Do the two defects overlap in time?", ("Yes", "No"), tmp_path)
    assert ans.choice == letter, ans.answer
