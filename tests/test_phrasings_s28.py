"""Phrasings a session-28 probe found misread: "Welche Bildfehler gibt es?" (which defects,
a list) was answered as a yes/no question in German, French, Spanish and Chinese."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.language import read
from tools.model import Event


def _shake_and_colour():
    return make_index(180.0, [Event("colour", 24.0, 46.0, 0.34, 1.2, "oversaturation", {}),
                              Event("jitter", 98.0, 131.0, 1.0, 3.1, "camera shake", {})],
                      fps=5.0)


@pytest.mark.parametrize("question", [
    "Welche Bildfehler gibt es?",
    "Welche Bildfehler hat das Video?",
    "Quels défauts d'image y a-t-il ?",
    "¿Qué defectos de imagen hay?",
    "有哪些画面问题？",
    "视频有什么问题？",
])
def test_which_defects_in_other_languages_lists_them(question, tmp_path):
    ans = ask(_shake_and_colour(), question, (), tmp_path)
    assert not ans.answer.startswith(("Yes", "No")), ans.answer
    assert "00:01:38.0" in ans.answer and "00:00:24.0" in ans.answer, ans.answer


@pytest.mark.parametrize("question,code", [
    ("Gibt es Flackern?", "de"), ("Y a-t-il du flou ?", "fr"), ("¿Hay ruido?", "es"),
])
def test_is_there_stays_a_yes_no_question(question, code):
    assert read(question).gloss.startswith("is there any"), read(question)


def test_a_type_named_with_its_subtype_is_not_named_twice(tmp_path):
    ans = ask(_shake_and_colour(), "What kind of distortion is visible at 1:50?", (), tmp_path)
    assert "(camera shake) (camera shake)" not in ans.answer and "jitter" in ans.answer


@pytest.mark.parametrize("question,etype", [
    ("Is the picture dim?", "exposure"),
    ("Is the image too dim at the end?", "exposure"),
    ("Does the picture pump?", "flicker"),
    ("Does the image pulse?", "flicker"),
])
def test_dim_and_pumping_pictures(question, etype):
    from agent.questions import parse_question
    assert parse_question(question, (), 180.0).type == etype


@pytest.mark.parametrize("question,window", [
    ("Is there noise before minute 2?", (0.0, 120.0)),
    ("Is there noise after minute 2?", (120.0, 180.0)),
    ("Is there noise until minute 2?", (0.0, 120.0)),
    ("Is there noise from minute 2 on?", (120.0, 180.0)),
    ("Is there noise in minute 2?", (60.0, 120.0)),  # the second minute itself
    ("¿Hay ruido antes del minuto 2?", (0.0, 120.0)),
    ("Y a-t-il du bruit après la minute 2 ?", (120.0, 180.0)),
])
def test_a_bound_said_as_a_minute_is_its_mark(question, window):
    from agent.questions import parse_question
    q = parse_question(question, (), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [window]


@pytest.mark.parametrize("question", [
    "What happens to the picture after 1:30?",
    "Was passiert mit dem Bild nach 1:30?",
    "Que se passe-t-il avec l'image après 1:30 ?",
    "¿Qué pasa con la imagen después del minuto 1:30?",
])
def test_what_happens_to_the_picture_after_a_time(question, tmp_path):
    ans = ask(_shake_and_colour(), question, (), tmp_path)
    assert "camera shake" in ans.answer and "00:00:24.0" not in ans.answer, ans.answer
    assert "do not know" not in ans.answer, ans.answer


def test_which_comes_first_beside_a_same_time_option(tmp_path):
    idx = _shake_and_colour()
    q = "Which comes first in the timeline, the wobbly camera or the colour tint?"
    opts = ("the wobbly camera", "the colour tint", "they happen at the same time")
    assert ask(idx, q, opts, tmp_path).choice == "B"
    ans = ask(idx, "Which comes first, the blur or the noise?",
              ("the blur", "the noise", "both at once", "neither appears"), tmp_path)
    assert ans.choice == "D", ans.answer


def test_two_defects_starting_together_are_at_the_same_time(tmp_path):
    idx = make_index(180.0, [Event("blur", 40.0, 70.0, 0.6, 3.0, "softness", {}),
                             Event("noise", 41.0, 66.0, 0.6, 3.0, "grain", {})], fps=5.0)
    ans = ask(idx, "Which starts first, the blur or the noise?",
              ("the blur", "the noise", "they start at the same time"), tmp_path)
    assert ans.choice == "C", ans.answer


@pytest.mark.parametrize("question,options,choice", [
    ("What fraction of the runtime is affected by any visible defect? Roughly.",
     ("under 10%", "10-30%", "30-60%", "over 60%"), "C"),
    ("What share of the video is degraded?", ("0-10%", "10-25%", "25-50%", "50-100%"), "C"),
    ("How much of the video is degraded, as a share?",
     ("less than 10%", "between 10 and 25%", "between 25 and 50%", "more than half"), "C"),
    ("Share of the runtime with some visible defect?",
     ("under 10%", "10-25%", "25-50%", "over 50%"), "C"),
    ("What percentage of the video is degraded?", ("under 10%", "10-35%", "35-60%"), "B"),
])
def test_share_options_are_ranges(question, options, choice, tmp_path):
    # 22 + 33 = 55 s of 180: 30.6 %
    ans = ask(_shake_and_colour(), question, options, tmp_path)
    assert ans.choice == choice, ans.answer


@pytest.mark.parametrize("question,window", [
    ("This is a 30 min programme. Is there any blur between minute 5 and minute 7?",
     (300.0, 420.0)),
    ("We already trimmed 10 seconds off the intro. Is there noise after 2:30?", (150.0, 1800.0)),
    ("QA note: bitrate starved section suspected early on. Any compression artifacts from "
     "0:30 to 0:50?", (30.0, 50.0)),
    ("Someone bumped the tripod at 1:20. Did the picture shake?", (78.0, 82.0)),
])
def test_times_in_a_sentence_of_context(question, window):
    from agent.questions import parse_question
    q = parse_question(question, (), 1800.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [window]


def test_an_amount_of_time_in_the_context_is_no_window():
    from agent.questions import parse_question
    q = parse_question("Our player buffers 5 seconds ahead. Is the colour ok in this file?",
                       (), 180.0)
    assert q.windows == []


@pytest.mark.parametrize("question,window", [
    ("Any colour problems in the first minute and a half?", (0.0, 90.0)),
    ("Any blur in the last minute and a half?", (90.0, 180.0)),
    ("Any blur in the first two and a half minutes?", (0.0, 150.0)),
    ("Any blur in the first half minute?", (0.0, 30.0)),
    ("Any blur in the first half?", (0.0, 90.0)),
])
def test_halves_of_units_said_in_words(question, window):
    from agent.questions import parse_question
    q = parse_question(question, (), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [window]


def test_does_it_last_a_minute_is_a_length_not_the_last_minute(tmp_path):
    from agent.questions import parse_question
    assert parse_question("Does the blur last 90 seconds?", (), 180.0).windows == []
    assert parse_question("Is there blur in the last 30 seconds?", (), 180.0).windows
    idx = make_index(180.0, [Event("colour", 37.0, 52.5, 1.0, 3.0, "desaturation", {})],
                     fps=5.0)
    assert ask(idx, "Does the colour problem last a minute?", ("yes", "no"),
               tmp_path).choice == "B"
    assert ask(idx, "Does the colour problem last about 15 seconds?", ("yes", "no"),
               tmp_path).choice == "A"


def _noise_fading():
    return make_index(180.0, [Event("noise", 22.5, 51.0, 0.89, 3.0, "grain", {}),
                              Event("noise", 80.0, 114.0, 0.57, 3.0, "grain", {}),
                              Event("noise", 155.0, 170.0, 0.5, 3.0, "grain", {})], fps=5.0)


@pytest.mark.parametrize("question,options", [
    ("Is the noise stronger at the beginning than at the end?",
     ("Yes, stronger at the beginning", "No, stronger at the end", "Same")),
    ("Le bruit est-il plus fort au début qu'à la fin ?",
     ("Oui, plus fort au début", "Non, plus fort à la fin", "Pareil")),
    ("噪点是在开头更严重还是在结尾更严重？", ("开头更严重", "结尾更严重", "差不多")),
])
def test_an_option_naming_a_part_takes_the_questions_window_of_it(question, options, tmp_path):
    ans = ask(_noise_fading(), question, options, tmp_path)
    assert ans.choice == "A", ans.answer


@pytest.mark.parametrize("question", [
    "Is the camera shaky at the beginning?", "Ist das Bild am Anfang verwackelt?",
    "¿Tiembla la cámara al principio?",
])
def test_a_defect_starting_in_the_beginning_is_there(question, tmp_path):
    idx = make_index(180.0, [Event("jitter", 16.6, 31.6, 0.81, 3.0, "camera shake", {})],
                     fps=5.0)
    assert ask(idx, question, ("yes", "no"), tmp_path).choice == "A"
    late = make_index(180.0, [Event("jitter", 60.0, 80.0, 0.81, 3.0, "camera shake", {})],
                      fps=5.0)
    assert ask(late, question, ("yes", "no"), tmp_path).choice == "B"


def _two_bursts(first: float, second: float):
    return make_index(180.0, [Event("corruption", 49.0, 57.6, first, 3.0, "decoder errors", {}),
                              Event("blur", 80.0, 100.0, 1.0, 3.0, "softness", {}),
                              Event("corruption", 116.2, 127.2, second, 3.0, "decoder errors",
                                    {})], fps=5.0)


@pytest.mark.parametrize("question,options,choice", [
    ("Which corruption burst is worse, the first or the second?",
     ("the first", "the second", "equal"), "B"),
    ("Two glitch bursts here. Is the earlier one or the later one more severe?",
     ("earlier", "later", "same"), "B"),
    ("Which of the two corrupted stretches is worse?", ("the first", "the second", "the same"),
     "B"),
])
def test_first_or_second_stretch_of_a_type(question, options, choice, tmp_path):
    assert ask(_two_bursts(0.94, 0.97), question, options, tmp_path).choice == choice
    same = ask(_two_bursts(0.95, 0.96), question, options, tmp_path)
    assert same.choice == "C", same.answer


def _blur_rising():
    return make_index(180.0, [Event("blur", 25.0, 40.5, 0.35, 3.0, "softness", {}),
                              Event("blur", 87.0, 100.0, 0.56, 3.0, "softness", {}),
                              Event("blur", 131.5, 155.5, 0.56, 3.0, "softness", {})], fps=5.0)


@pytest.mark.parametrize("question,options", [
    ("Does the blur get worse over time?", ("yes", "no")),
    ("Does the picture get increasingly blurry?", ("yes", "no")),
    ("Est-ce que l'image devient de plus en plus floue au fil de la vidéo ?", ("oui", "non")),
    ("¿La imagen se vuelve cada vez más borrosa?", ("sí", "no")),
    ("视频越往后越模糊吗？", ("是", "否")),
])
def test_a_named_defect_whose_stretches_grow_worse_gets_worse(question, options, tmp_path):
    ans = ask(_blur_rising(), question, options, tmp_path)
    assert ans.choice == "A" and "growing" in ans.answer, ans.answer


def test_trend_options_are_read_as_trends_not_as_yes_or_no(tmp_path):
    idx = make_index(180.0, [Event("compression", 14.5, 18.0, 0.31, 3.0, "macroblocking", {}),
                             Event("compression", 81.5, 98.0, 0.31, 3.0, "macroblocking", {}),
                             Event("compression", 127.0, 136.0, 0.31, 3.0, "macroblocking",
                                   {})], fps=5.0)
    ans = ask(idx, "Does the compression get worse towards the end?",
              ("yes, it gets worse", "no, it improves", "it's stable"), tmp_path)
    assert ans.choice == "C", ans.answer


def test_chinese_lessening_is_improving(tmp_path):
    idx = make_index(180.0, [Event("exposure", 24.0, 47.5, 0.85, 3.0, "low contrast", {}),
                             Event("exposure", 86.5, 112.0, 0.54, 3.0, "low contrast", {}),
                             Event("exposure", 140.0, 160.0, 0.3, 3.0, "low contrast", {})],
                     fps=5.0)
    ans = ask(idx, "对比度问题是随着时间逐渐减轻吗？", ("是，逐渐减轻", "否，逐渐加重", "没有变化"),
              tmp_path)
    assert ans.choice == "A", ans.answer


def test_do_the_freezes_get_longer_is_a_trend_not_a_bound():
    from agent.amounts import duration_bounds
    from agent.questions import parse_question
    assert duration_bounds("Do the freezes get longer as the video goes on?") == (None, None)
    assert parse_question("Do the freezes get longer as the video goes on?", ("yes", "no"),
                          180.0).kind == "trend"
