"""Phrasings of the session-31 second round (seed-77 and short-event tracks): Portuguese,
Swedish and Czech told from the languages read, "when?" over ranges with a "not anywhere"
option, a negated Chinese option, "fix first" in Spanish, "additive pixel noise", two types
weighed against each other, a whole minute said loosely, a ticket's "play from 0:00", two
defects located at once, and "getting judder - frame drops or shake?"."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.language import detect, read
from agent.questions import parse_question
from agent.times import windows
from tools.model import Event


@pytest.mark.parametrize("question,code", [
    ("O vídeo tem ruído depois dos dois minutos?", "pt"),
    ("Hur allvarlig är blockigheten i slutet av filmen?", "sv"),
    ("Je tohle video v pořádku, nebo má nějaké vady?", "cs"),
    ("Jak kvalitní je obraz v tomto videu?", "cs"),
    ("Milloin video muuttuu nykiväksi?", "fi"),
    ("Apakah ada noise dalam video ini?", "id"),
])
def test_portuguese_swedish_and_czech_are_not_read(question, code):
    assert detect(question) == code
    assert not read(question).supported


def test_when_over_ranges_with_a_not_anywhere_option(tmp_path):
    idx = make_index(180.0, [Event("exposure", 133.5, 158.0, 0.38, 1.0, "too dark", {}),
                             Event("colour", 32.0, 55.0, 0.5, 2.0, "oversaturation", {})])
    opts = ("0:45-0:56", "2:13-2:38", "1:40-1:50", "it is not dark anywhere")
    ans = ask(idx, "Is this one too dark in some place? From what second to what second?",
              opts, tmp_path)
    assert ans.choice == "B", ans.answer
    clean = ask(make_index(180.0, []), "Is this one too dark in some place? From what second "
                "to what second?", opts, tmp_path)
    assert clean.choice == "D", clean.answer


def test_a_negated_chinese_option_is_none(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 141.7, 164.5, 0.67, 2.0, "frame-rate drop",
                                   {})])
    ans = ask(idx, "这个视频在哪个时间段帧率变低、画面卡顿？",
              ("0:48-1:06", "2:21-2:45", "1:30-2:00", "没有卡顿"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_which_to_fix_first_in_spanish_weighs_the_defects(tmp_path):
    q = parse_question("¿Qué defecto deberíamos corregir primero?",
                       ("el tono de color", "la imagen temblorosa", "ninguno, está bien"), 180.0)
    assert q.kind == "dominant_factor" and not q.unknown, (q.kind, q.unknown)
    idx = make_index(180.0, [Event("colour", 24.0, 46.0, 0.34, 1.0, "hue shift", {}),
                             Event("jitter", 98.4, 130.8, 1.0, 3.0, "camera shake", {})])
    ans = ask(idx, "¿Qué defecto deberíamos corregir primero?",
              ("el tono de color", "la imagen temblorosa", "ninguno, está bien"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_additive_pixel_noise_is_noise(tmp_path):
    idx = make_index(180.0, [Event("noise", 65.5, 84.0, 0.3, 1.0, "grain", {})])
    ans = ask(idx, "Within the interval 00:01:05.000-00:01:24.000, which degradation dominates?",
              ("additive pixel noise", "compression blocking", "Gaussian blur", "colour cast"),
              tmp_path)
    assert ans.choice == "A" and "guess" not in ans.answer, ans.answer


def test_two_types_weighed_against_each_other_by_their_options(tmp_path):
    q = "What problem is more big, the color or the frame rate? Which I must fix first?"
    opts = ("the colour problem", "the frame rate problem")
    assert parse_question(q, opts, 180.0).kind == "comparison"
    idx = make_index(180.0, [Event("colour", 43.0, 76.0, 0.33, 1.0, "oversaturation", {}),
                             Event("frame_drop", 127.0, 161.3, 0.8, 3.0, "frame-rate drop", {})])
    assert ask(idx, q, opts, tmp_path).choice == "B"


@pytest.mark.parametrize("text,span", [
    ("the vid gets real weird around 2 min, like too dark", (105.0, 135.0)),
    ("halos on edges around the 2-minute mark", (105.0, 135.0)),
    ("is there blur at 2:00?", (118.0, 122.0)),
    ("around 1:37 is there blur", (95.0, 99.0)),
])
def test_a_whole_minute_said_loosely_is_that_precise(text, span):
    (w,) = windows(text, 180.0)
    assert (w.start_s, w.end_s) == span


def test_a_ticket_playing_from_the_start_asks_about_the_whole_video():
    q = parse_question("Repro: play from 0:00. Actual: picture freezes. For the ticket I need "
                       "the number of freezes and the total frozen time.", (), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 180.0)]


def test_two_defects_located_at_once(tmp_path):
    idx = make_index(180.0, [Event("noise", 147.8, 156.2, 0.62, 2.0, "grain", {}),
                             Event("exposure", 53.5, 62.1, 0.77, 2.0, "too bright", {})])
    ans = ask(idx, "When do the noise and the brightness problems occur?", (), tmp_path)
    assert "00:02:27.8" in ans.answer and "00:00:53.5" in ans.answer, ans.answer


def test_getting_judder_frame_drops_or_shake_is_which_type(tmp_path):
    q = parse_question("Getting judder in the second half - is that dropped frames or just "
                       "camera shake?", ("dropped frames / reduced frame rate", "camera shake",
                                         "neither, the motion is clean"), 180.0)
    assert q.kind == "classification"
    idx = make_index(180.0, [Event("frame_drop", 127.0, 161.3, 0.8, 3.0, "frame-rate drop", {})])
    ans = ask(idx, "Getting judder in the second half - is that dropped frames or just camera "
              "shake?", ("dropped frames / reduced frame rate", "camera shake",
                         "neither, the motion is clean"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_two_defects_each_with_its_own_window(tmp_path):
    idx = make_index(180.0, [Event("noise", 147.8, 156.2, 0.62, 2.0, "grain", {}),
                             Event("exposure", 53.5, 62.1, 0.77, 2.0, "too bright", {})])
    ans = ask(idx, "Repro: noise visible near the end, plus a brightness jump earlier. Please "
              "log both with timestamps.", (), tmp_path)
    assert "00:02:27.8" in ans.answer and "00:00:53.5" in ans.answer, ans.answer


def test_a_defect_just_after_the_part_asked_is_said_to_be_near_it(tmp_path):
    idx = make_index(180.0, [Event("colour", 26.0, 37.5, 0.59, 2.0, "hue shift", {})])
    ans = ask(idx, "视频开头部分的颜色是不是不对？", ("是", "否"), tmp_path)
    assert ans.choice == "A" and "near the part asked about" in ans.answer, ans.answer


def test_after_halfway_through_is_the_second_half(tmp_path):
    q = parse_question("does it get too bright somewhere after halfway through?",
                       ("yep", "nope"), 180.0)
    assert q.kind == "detection" and [(w.start_s, w.end_s) for w in q.windows] == [(90.0, 180.0)]
    idx = make_index(180.0, [Event("exposure", 104.5, 138.5, 0.45, 1.0, "too bright", {})])
    ans = ask(idx, "does it get too bright somewhere after halfway through?", ("yep", "nope"),
              tmp_path)
    assert ans.choice == "A" and "guess" not in ans.answer, ans.answer


def test_a_damaged_stream_and_the_one_thing_that_matters_most(tmp_path):
    q = parse_question("When is the stream damaged?", (), 180.0)
    assert [m.type for m in q.types] == ["corruption"] and not q.unknown
    q = parse_question("I only have budget to fix one thing in this clip. Which matters most?",
                       ("the colour cast", "the low-frame-rate stutter"), 180.0)
    assert q.kind == "dominant_factor"
    idx = make_index(180.0, [Event("colour", 43.0, 76.0, 0.33, 1.0, "colour cast", {}),
                             Event("frame_drop", 127.0, 161.4, 0.8, 3.0, "frame-rate drop", {})])
    ans = ask(idx, "I only have budget to fix one thing in this clip. Which matters most?",
              ("the colour cast", "the low-frame-rate stutter"), tmp_path)
    assert ans.choice == "B" and "dominant" in ans.answer.lower(), ans.answer


def test_an_overall_score_gives_its_reason(tmp_path):
    idx = make_index(180.0, [Event("colour", 41.0, 56.0, 0.62, 2.0, "hue shift", {}),
                             Event("blur", 120.0, 126.0, 0.4, 1.0, "softness", {})])
    ans = ask(idx, "Give this clip a score out of 5 and tell me why.", (), tmp_path)
    assert "colour distortion 00:00:41.0-00:00:56.0" in ans.answer, ans.answer
    assert "blur 00:02:00.0-00:02:06.0" in ans.answer, ans.answer
