"""Phrasings the session-31 probe round misread: terse "X window?" and "X: first or second
half?", "A or B?" over a window, a rating "1 to 5" asked as "how bad", a hedged yes/no, the
first occurrence asked among windows, "minute 2" made precise in brackets, "t = 117 s",
colloquial darkness, a frame-rate "reduction", a flat grade, counts written "3次", a Spanish
rating, and a stutter word that also names a frame-rate drop."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import parse_question
from tools.model import Event

WINDOWS = ("0:10-0:30", "0:37-0:57", "1:59-2:15", "2:40-2:59")


def test_a_terse_type_window_question_over_times_asks_when(tmp_path):
    idx = make_index(180.0, [Event("compression", 36.6, 57.0, 0.64, 2.0, "blocking", {}),
                             Event("noise", 119.3, 135.3, 0.5, 2.0, "grain", {})])
    ans = ask(idx, "Macroblocking window? Pick one.", WINDOWS, tmp_path)
    assert ans.choice == "B" and "00:00:36" in ans.answer, ans.answer


@pytest.mark.parametrize("spans,choice", [(((14.1, 35.7),), "A"), (((120.0, 140.0),), "B"),
                                          (((14.1, 35.7), (120.0, 140.0)), "C"), ((), "D")])
def test_which_half_with_both_and_neither_options(spans, choice, tmp_path):
    idx = make_index(180.0, [Event("interlace", a, b, 1.0, 3.0, "combing", {}) for a, b in spans]
                     + [Event("sharpening", 150.0, 165.0, 0.6, 2.0, "halo", {})])
    ans = ask(idx, "Combing artefacts: first half or second half?",
              ("first half", "second half", "both", "neither"), tmp_path)
    assert ans.choice == choice, ans.answer
    assert "Overall quality" not in ans.answer, ans.answer


@pytest.mark.parametrize("sharp,noisy,choice", [((101.8, 130.5), (10.0, 20.0), "B"),
                                                 ((16.0, 41.0), (10.0, 20.0), "D"),
                                                 ((101.8, 130.5), (100.0, 128.0), "C"),
                                                 ((16.0, 41.0), (100.0, 128.0), "A")])
def test_which_of_two_types_over_a_window(sharp, noisy, choice, tmp_path):
    idx = make_index(180.0, [Event("sharpening", *sharp, 0.6, 2.0, "halo", {}),
                             Event("noise", *noisy, 0.7, 2.0, "grain", {})])
    ans = ask(idx, "Between 1:45 and 2:05 — noise or over-sharpening?",
              ("noise", "over-sharpening", "both", "neither"), tmp_path)
    assert ans.choice == choice, ans.answer
    assert "Overall quality" not in ans.answer, ans.answer


def test_a_frame_rate_reduction_is_a_frame_drop(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 31.0, 44.0, 0.8, 3.0, "frame-rate drop", {}),
                             Event("blur", 114.3, 142.0, 0.6, 2.0, "softness", {})])
    ans = ask(idx, "Determine whether a frame-rate reduction is present in the interval "
              "[100 s, 150 s].", ("present", "absent"), tmp_path)
    assert ans.choice == "B" and "do not know" not in ans.answer, ans.answer


@pytest.mark.parametrize("question,span", [
    ("Is over-sharpening present between t = 117 s and t = 134 s?", (117.0, 134.0)),
    ("Is there blur between t=20s and t=45s?", (20.0, 45.0)),
    ("What kind of problem is in minute 2 (from 2:00 to 2:30)?", (120.0, 150.0)),
    ("¿Hay parpadeo entre el minuto 2 y el 2:30?", (120.0, 150.0)),
])
def test_times_written_with_t_equals_or_made_precise_in_brackets(question, span):
    q = parse_question(question, (), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [span], q.windows


def test_the_video_goes_real_dark(tmp_path):
    idx = make_index(180.0, [Event("exposure", 44.35, 72.4, 0.34, 1.0, "too dark", {}),
                             Event("flicker", 149.3, 161.7, 0.95, 3.0, "", {})])
    ans = ask(idx, "the video goes real dark at some point?? when",
              ("near the start, like 0:45 to 1:10", "around 2:30", "right at the end",
               "it doesnt"), tmp_path)
    assert ans.choice == "A" and "do not know" not in ans.answer, ans.answer


@pytest.mark.parametrize("events,choice", [
    ((), "B"), ((Event("noise", 20.0, 50.0, 0.8, 2.0, "grain", {}),), "A")])
def test_a_hedged_is_anything_wrong_keeps_its_question(events, choice, tmp_path):
    ans = ask(make_index(180.0, list(events)),
              "is anything wrong with this vid? looks fine to me but idk", ("yes", "no"),
              tmp_path)
    assert ans.choice == choice, ans.answer


def test_how_bad_overall_on_a_scale_of_grades_is_the_overall_grade(tmp_path):
    idx = make_index(180.0, [Event("exposure", 8.8, 25.6, 1.0, 3.0, "too bright", {}),
                             Event("colour", 116.0, 128.0, 1.0, 3.0, "hue shift", {})])
    ans = ask(idx, "how bad is this overall, 1 to 5?",
              ("1 - terrible", "2 - poor", "3 - fair", "4 - good", "5 - excellent"), tmp_path)
    assert ans.choice in ("C", "D"), ans.answer


def test_a_flat_grade_is_washed_out_colour(tmp_path):
    idx = make_index(180.0, [Event("colour", 56.0, 75.9, 0.5, 1.0, "desaturation", {}),
                             Event("sharpening", 117.5, 134.3, 0.6, 2.0, "halo", {})])
    ans = ask(idx, "Need to know where the grade went flat — when is the colour washed out / "
              "desaturated?", ("0:56-1:16", "1:57-2:14", "0:10-0:30", "2:30-2:50"), tmp_path)
    assert ans.choice == "A" and "guess" not in ans.answer, ans.answer


def test_the_first_time_among_windows_is_the_first_occurrence(tmp_path):
    idx = make_index(180.0, [Event("corruption", 72.1, 80.0, 0.76, 2.0, "decoder errors", {}),
                             Event("corruption", 104.3, 114.0, 0.92, 3.0, "decoder errors", {})])
    ans = ask(idx, "The picture is broken (corrupted) — in which part is the first time?",
              ("0:30-0:40", "1:12-1:20", "1:44-1:54", "2:40-2:50"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_counts_written_with_a_chinese_measure_word(tmp_path):
    idx = make_index(180.0, [Event("freeze", a, b, 0.8, 2.0, "frozen picture", {})
                             for a, b in ((16.8, 18.8), (109.4, 113.4), (127.0, 135.0))])
    ans = ask(idx, "视频画面一共冻结了几次？", ("1次", "2次", "3次", "4次"), tmp_path)
    assert ans.choice == "C", ans.answer


def test_a_spanish_request_for_a_grade(tmp_path):
    q = parse_question("¿Qué tal es la calidad de imagen de este vídeo? Dale una nota del 1 "
                       "al 5.", (), 180.0)
    assert q.kind == "overall" and not q.unknown, (q.kind, q.unknown)
    ans = ask(make_index(180.0, []), "¿Qué tal es la calidad de imagen de este vídeo? Dale "
              "una nota del 1 al 5.", (), tmp_path)
    assert "5" in ans.answer and "do not know" not in ans.answer, ans.answer


def test_a_stutter_word_that_also_names_a_frame_rate_drop(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 113.5, 130.9, 0.5, 1.0, "frame-rate drop",
                                   {})])
    ans = ask(idx, "Gibt es in der zweiten Hälfte ruckelnde Wiedergabe (zu niedrige Bildrate)? "
              "Wenn ja, von wann bis wann?", (), tmp_path)
    assert "00:01:53" in ans.answer, ans.answer


@pytest.mark.parametrize("severity,choice", [(0.3, "B"), (0.6, "C"), (0.95, "D")])
def test_present_with_a_level_is_answered_at_the_level_found(severity, choice, tmp_path):
    idx = make_index(180.0, [Event("sharpening", 117.5, 134.5, severity, 2.0, "halo", {})])
    ans = ask(idx, "Is over-sharpening (ringing/halo) present between t = 117 s and t = 134 s? "
              "If so, indicate its severity.",
              ("absent", "present, mild", "present, moderate", "present, severe"), tmp_path)
    assert ans.choice == choice, ans.answer
