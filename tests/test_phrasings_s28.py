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


def _flicker_and_gamma():
    return make_index(180.0, [Event("flicker", 60.6, 85.8, 1.0, 3.0, "brightness oscillation",
                                    {}),
                              Event("exposure", 134.0, 156.0, 0.52, 3.0, "too bright", {})],
                      fps=5.0)


@pytest.mark.parametrize("question,options,choice", [
    ("Can I publish this as-is, or does it need fixing first?",
     ("publish as-is", "needs fixing"), "B"),
    ("Quick QC verdict for the whole clip: pass or fail?", ("pass", "fail"), "B"),
    ("Is this good enough to ship to the client?", ("yes, ship it", "no, it needs rework"),
     "B"),
    ("La vidéo est-elle prête à être diffusée telle quelle ?", ("oui", "non"), "B"),
    ("Est-ce que cette vidéo passe le contrôle qualité ?", ("oui", "non"), "B"),
    ("这个视频可以直接发布吗？", ("可以", "不可以"), "B"),
])
def test_release_verdicts_with_a_severe_defect(question, options, choice, tmp_path):
    ans = ask(_flicker_and_gamma(), question, options, tmp_path)
    assert ans.choice == choice, ans.answer


def test_release_verdict_on_a_clean_clip(tmp_path):
    idx = make_index(180.0, [], fps=5.0)
    ans = ask(idx, "Can I publish this as-is, or does it need fixing first?",
              ("publish as-is", "needs fixing"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_a_qc_summary_and_anything_to_flag_are_understood(tmp_path):
    from agent.questions import parse_question
    assert parse_question("Give me a short QC summary of this file.", (), 180.0).kind == "open"
    ans = ask(_flicker_and_gamma(), "Would you sign off on this clip for broadcast? Anything "
              "to flag?", (), tmp_path)
    assert "lag" not in ans.answer.split("flicker")[0] and "00:01:00.6" in ans.answer, ans.answer


@pytest.mark.parametrize("question,options,expected", [
    ("Grade the focus problem: A (clean), B (slight), C (noticeable), D (bad), F (unusable).",
     ("A", "B", "C", "D", "F"), ["clean", "slight", "noticeable", "bad", "unusable"]),
    ("Letter grade for the softness around 2:20 (A best, E worst)?", ("A", "B", "C", "D", "E"),
     ["excellent", "good", "fair", "poor", "bad"]),
    ("Overall grade for this clip, A to F.", ("A", "B", "C", "D", "F"),
     ["A", "B", "C", "D", "F"]),
])
def test_letters_take_the_words_the_question_gives_them(question, options, expected):
    from agent.options import lettered
    assert lettered(question, options) == expected


def test_a_focus_problem_is_blur():
    from agent.questions import parse_question
    assert parse_question("Grade the focus problem.", (), 180.0).type == "blur"


@pytest.mark.parametrize("question,options,choice", [
    ("Rate the noise: how bad is it?", ("barely noticeable", "noticeable but ok", "really bad"),
     "C"),
    ("Wie schlimm ist das Rauschen?", ("kaum sichtbar", "deutlich", "extrem"), "C"),
    ("How bad is the noise?", ("hardly visible", "clearly visible", "very bad"), "C"),
])
def test_severity_words_of_ones_own(question, options, choice, tmp_path):
    idx = make_index(180.0, [Event("noise", 99.0, 133.5, 0.95, 3.0, "grain", {})], fps=5.0)
    assert ask(idx, question, options, tmp_path).choice == choice


@pytest.mark.parametrize("question,options", [
    ("Wie oft bleibt das Bild stehen?", ("einmal", "zweimal", "dreimal", "gar nicht")),
    ("¿Cuántas veces se congela la imagen?", ("una vez", "dos veces", "tres veces", "nunca")),
    ("Combien de fois l'image se fige-t-elle ?", ("une fois", "deux fois", "trois fois",
                                                  "jamais")),
])
def test_counts_said_as_once_twice_thrice(question, options, tmp_path):
    idx = make_index(180.0, [Event("freeze", a, a + 3.0, 0.8, 3.0, "frozen picture", {})
                             for a in (40.0, 90.0, 140.0)], fps=5.0)
    assert ask(idx, question, options, tmp_path).choice == "C"


def test_breaking_up_into_blocks_is_compression():
    from agent.questions import parse_question
    q = parse_question("Between 0:30 and 0:50, does the image break up into blocks?", (), 180.0)
    assert q.type == "compression"


def test_the_stutter_or_low_frame_rate_takes_the_one_found(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 141.7, 164.5, 0.67, 3.0, "frame-rate drop",
                                   {})], fps=5.0)
    ans = ask(idx, "How long (in seconds) does the stutter / low frame rate last?", (), tmp_path)
    assert "22.8 s" in ans.answer, ans.answer


def test_drained_or_greyish_colours_between_two_times(tmp_path):
    idx = make_index(180.0, [Event("colour", 98.0, 131.0, 0.52, 3.0, "desaturation", {})],
                     fps=5.0)
    ans = ask(idx, "Between 1:40 and 2:10 do the colours look drained / greyish?", (), tmp_path)
    assert ans.answer.startswith("Yes"), ans.answer


def test_stable_or_wobbly_in_a_window_is_the_shake(tmp_path):
    idx = make_index(180.0, [Event("jitter", 16.6, 31.6, 0.81, 3.0, "camera shake", {})],
                     fps=5.0)
    q = "Between 0:15 and 0:35 is the footage stable or does the camera wobble?"
    assert ask(idx, q, ("stable", "wobbly"), tmp_path).choice == "B"
    q2 = "Between 1:15 and 1:35 is the footage stable or does the camera wobble?"
    assert ask(idx, q2, ("stable", "wobbly"), tmp_path).choice == "A"


def test_options_repeating_the_questions_window_claim_which_way(tmp_path):
    idx = make_index(180.0, [Event("blur", 95.0, 127.0, 1.0, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "Is the segment 1:40-2:00 sharper or softer than 0:30-0:45?",
              ("1:40-2:00 is softer", "1:40-2:00 is sharper", "no difference"), tmp_path)
    assert ans.choice == "A", ans.answer
    ans = ask(idx, "Is the second half better than the first half?",
              ("yes, second half is better", "no, second half is worse"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_two_moments_joined_by_and_are_two_moments():
    from agent.questions import parse_question
    q = parse_question("Compare 0:50 and 2:20: which is worse?", (), 180.0)
    assert [(w.start_s, w.end_s, w.point) for w in q.windows] == [(48.0, 52.0, True),
                                                                  (138.0, 142.0, True)]
    assert [(w.start_s, w.end_s) for w in parse_question(
        "Is there blur between 0:50 and 2:20?", (), 180.0).windows] == [(50.0, 140.0)]


def test_chinese_points_of_a_score_are_no_minutes():
    from agent.questions import parse_question
    q = parse_question("用1到5分给噪点的严重程度打分（5分最严重）。", ("1", "2", "3", "4", "5"),
                       180.0)
    assert q.windows == [] and q.type == "noise"


def test_chinese_first_and_last_thirty_seconds():
    from agent.questions import parse_question
    q = parse_question("开头30秒和结尾30秒，哪一段画质更差？", ("开头30秒", "结尾30秒", "一样"),
                       180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 30.0), (150.0, 180.0)]


def test_german_between_which_times_is_when():
    from agent.questions import parse_question
    q = parse_question("Im Clip wirkt die Helligkeit irgendwann falsch (Gamma). Zwischen welchen "
                       "Zeitpunkten?", ("0:49-1:11", "1:36-2:01", "2:30-3:00", "nirgends"), 180.0)
    assert q.kind == "localization"


@pytest.mark.parametrize("question,options", [
    ("Does the noise appear in the first or in the second half?",
     ("first half", "second half", "there is no noise")),
    ("¿El ruido aparece en la primera o en la segunda mitad del programa?",
     ("primera mitad", "segunda mitad", "no hay ruido")),
])
def test_which_of_the_halves_offered(question, options, tmp_path):
    idx = make_index(1800.0, [Event("noise", 1364.5, 1388.5, 0.31, 3.0, "grain", {})], fps=1.0)
    assert ask(idx, question, options, tmp_path).choice == "B"


def test_a_named_defects_drops_stepping_milder_say_it_gets_better(tmp_path):
    idx = make_index(180.0, [Event("corruption", 67.2, 75.0, 0.98, 3.0, "decoder errors", {}),
                             Event("corruption", 139.6, 150.0, 0.6, 3.0, "decoder errors", {})],
                     fps=5.0)
    ans = ask(idx, "Is the corruption getting worse or better over the course of the clip?",
              ("getting worse", "getting better", "stays the same"), tmp_path)
    assert ans.choice == "B" and "fading" in ans.answer, ans.answer


@pytest.mark.parametrize("question,options", [
    ("There's a colour cast somewhere in the middle - is it before or after the 1-minute "
     "mark?", ("before 1:00", "after 1:00", "no colour cast")),
    ("Is the colour cast before or after 1:00?", ("before", "after")),
])
def test_a_defect_across_an_instant_lies_mostly_on_one_side(question, options, tmp_path):
    idx = make_index(180.0, [Event("colour", 47.0, 65.0, 0.32, 3.0, "colour cast", {})],
                     fps=5.0)
    ans = ask(idx, question, options, tmp_path)
    assert ans.choice == "A", ans.answer


def test_a_window_clean_but_for_an_events_edge_says_so(tmp_path):
    idx = make_index(180.0, [Event("compression", 116.0, 146.0, 0.6, 3.0, "macroblocking", {})],
                     fps=5.0)
    ans = ask(idx, "any macroblocking artifacts in the 2nd minute?", (), tmp_path)
    assert ans.answer.startswith("No") and "Only 4.0 s of a 30.0-s stretch" in ans.answer, \
        ans.answer


def test_the_worst_problem_rated_on_the_scale_asked(tmp_path):
    idx = make_index(180.0, [Event("noise", 108.5, 146.0, 0.95, 3.0, "grain", {})], fps=5.0)
    ans = ask(idx, "Noise severity on a 0-10 scale during its worst stretch?", (), tmp_path)
    assert "On the 0-10 scale asked for: 10 (severe)" in ans.answer, ans.answer


def test_compared_moments_say_what_is_there_and_why(tmp_path):
    idx = make_index(180.0, [Event("blur", 39.0, 69.0, 0.8, 3.0, "softness", {}),
                             Event("exposure", 133.0, 153.0, 0.4, 3.0, "low contrast", {})],
                     fps=5.0)
    ans = ask(idx, "Compare 0:50 and 2:20: which frame would a viewer consider worse, and why?",
              (), tmp_path)
    assert "00:00:48.0-00:00:52.0: blur" in ans.answer and "exposure problems" in ans.answer
    assert "Blur: fine detail" in ans.answer, ans.answer


def test_ranked_from_the_mildest_up_to_the_worst(tmp_path):
    idx = make_index(180.0, [Event("blur", 39.0, 69.0, 1.0, 3.0, "softness", {}),
                             Event("noise", 100.0, 120.0, 0.5, 3.0, "grain", {})], fps=5.0)
    ans = ask(idx, "Rank the problems, going up to the worst.", (), tmp_path)
    assert ans.answer.index("noise") < ans.answer.index("blur"), ans.answer


@pytest.mark.parametrize("question,window", [
    ("Y a-t-il de la pixellisation entre la minute 1 et la minute 2 ?", (60.0, 120.0)),
    ("Dans les 20 premières secondes, y a-t-il du flou ?", (0.0, 20.0)),
    ("Gibt es Rauschen in der ersten halben Minute?", (0.0, 30.0)),
    ("¿Hay ruido del minuto 2 al 2:50?", (120.0, 170.0)),
])
def test_windows_said_in_other_languages(question, window):
    from agent.questions import parse_question
    q = parse_question(question, (), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [window]


@pytest.mark.parametrize("question,options", [
    ("Können wir das Video so an den Kunden rausgeben?", ("Ja, passt", "Nein")),
    ("Est-ce bon pour diffusion ?", ("oui", "non")),
    ("¿Lo podemos subir a YouTube así?", ("sí", "no")),
    ("能交付给客户吗？", ("能", "不能")),
])
def test_release_questions_in_other_languages(question, options, tmp_path):
    assert ask(_flicker_and_gamma(), question, options, tmp_path).choice == "B"


@pytest.mark.parametrize("question,options", [
    ("Lässt das Rauschen mit der Zeit nach?", ("Ja", "Nein")),
    ("Le bruit diminue-t-il avec le temps ?", ("oui", "non")),
    ("¿El ruido va a menos con el tiempo?", ("sí", "no")),
])
def test_subsiding_is_getting_better(question, options, tmp_path):
    ans = ask(_noise_fading(), question, options, tmp_path)
    assert ans.choice == "A", ans.answer


def test_not_severe_is_a_mild_level(tmp_path):
    idx = make_index(180.0, [Event("blur", 140.5, 158.5, 0.98, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "画面虚焦严重吗？", ("不严重", "一般", "很严重"), tmp_path)
    assert ans.choice == "C", ans.answer


def test_a_defect_ending_just_before_the_end_is_at_the_end(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 127.0, 161.4, 0.8, 3.0, "frame-rate drop", {})],
                     fps=5.0)
    assert ask(idx, "Ruckelt es am Ende?", ("Ja", "Nein"), tmp_path).choice == "A"
    assert ask(idx, "Is it choppy at the start?", ("yes", "no"), tmp_path).choice == "B"


def test_mild_in_an_is_there_question_describes_not_claims(tmp_path):
    idx = make_index(180.0, [Event("compression", 111.0, 143.0, 0.7, 3.0, "blocking", {})],
                     fps=5.0)
    ans = ask(idx, "Is there mild JPEG-type compression somewhere in the second half?",
              ("yes", "no"), tmp_path)
    assert ans.choice == "A", ans.answer
    assert ask(idx, "Is the compression mild?", ("yes", "no"), tmp_path).choice == "B"


def test_x_then_y_options_are_an_order(tmp_path):
    idx = make_index(180.0, [Event("exposure", 20.0, 40.0, 0.7, 3.0, "too bright", {}),
                             Event("blur", 100.0, 130.0, 0.7, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "Order of events?", ("blur then gamma", "gamma then blur"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("question,kind", [
    ("Localise the blur.", "localization"),
    ("Localize the noise in time.", "localization"),
    ("Temporal grounding: flicker", "localization"),
    ("flicker start time?", "localization"),
    ("blur 0:43-1:08 — what level would you give it, 1-5 (5 worst)?", "severity"),
    ("go/no-go for broadcast?", "overall"),
])
def test_terse_and_benchmark_shapes(question, kind):
    from agent.kinds import question_kind
    assert question_kind(question) == kind


def test_covering_more_of_the_running_time_compares_lengths(tmp_path):
    idx = make_index(180.0, [Event("exposure", 13.5, 46.5, 0.3, 3.0, "too dark", {}),
                             Event("noise", 141.0, 170.5, 0.86, 3.0, "grain", {})], fps=5.0)
    ans = ask(idx, "Which of the two problems covers more of the running time?",
              ("the dark section", "the noisy section"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_really_dark_is_too_dark():
    from agent.questions import parse_question
    q = parse_question("the picture gets really dark for a bit. when?", (), 180.0)
    assert (q.type, q.subtype, q.kind) == ("exposure", "too dark", "localization")


def test_colour_options_are_told_apart_by_which_way_saturation_goes(tmp_path):
    idx = make_index(180.0, [Event("colour", 53.0, 75.4, 0.71, 3.0, "oversaturation", {})],
                     fps=5.0)
    opts = ("washed out, desaturated", "too vivid, oversaturated", "normal", "tinted green")
    assert ask(idx, "In 0:53-1:15 the colours look...", opts, tmp_path).choice == "B"


@pytest.mark.parametrize("question,etype", [
    ("Wann tritt die Weichzeichnung auf?", "blur"), ("Gibt es Wackler im Video?", "jitter"),
    ("Y a-t-il des halos ?", "sharpening"), ("画面颗粒感重吗？", "noise"),
    ("画面什么时候变糊？", "blur"), ("Est-ce que ça rame ?", "stutter"),
    ("¿Se queda pillado el vídeo?", "freeze"), ("¿Hay efecto peine?", "interlace"),
])
def test_picture_words_of_other_languages(question, etype):
    from agent.questions import parse_question
    assert parse_question(question, (), 180.0).type == etype


@pytest.mark.parametrize("question,options", [
    ("¿Cuántas veces parpadea la imagen?", ("una", "dos", "tres")),
    ("Combien de fois l'image se fige ?", ("une", "deux", "trois")),
    ("Wie oft friert das Bild ein?", ("eins", "zwei", "drei")),
])
def test_a_bare_one_option_is_the_count_one(question, options):
    from agent.questions import parse_question
    assert parse_question(question, options, 180.0).options[0].numbers == [1]


def test_options_saying_which_type_is_stronger(tmp_path):
    idx = make_index(180.0, [Event("exposure", 18.6, 46.6, 1.0, 3.0, "too bright", {}),
                             Event("blur", 145.6, 171.7, 0.45, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "Is the blur at the end stronger or weaker than the overexposure at the "
              "start?", ("blur is stronger", "overexposure is stronger", "about the same"),
              tmp_path)
    assert ans.choice == "B", ans.answer


def test_the_other_type_compared_is_named_too(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 31.0, 44.2, 0.8, 3.0, "frame-rate drop", {}),
                             Event("blur", 114.5, 142.0, 0.57, 3.0, "softness", {})], fps=5.0)
    ans = ask(idx, "Compare the frame-rate drop and the out-of-focus part: which one is worse?",
              ("frame-rate drop", "blur", "equal"), tmp_path)
    assert "frame drops" in ans.answer and "blur" in ans.answer, ans.answer


def test_which_of_two_stretches_is_longer_over_options(tmp_path):
    idx = make_index(180.0, [Event("corruption", 28.8, 35.5, 0.9, 3.0, "decoder errors", {}),
                             Event("corruption", 120.0, 131.5, 0.9, 3.0, "decoder errors", {})],
                     fps=5.0)
    ans = ask(idx, "Are the two glitch bursts the same length?",
              ("yes, roughly", "no, the first is much longer", "no, the second is much longer"),
              tmp_path)
    assert ans.choice == "C", ans.answer


def test_a_hue_shift_is_not_washed_out(tmp_path):
    idx = make_index(180.0, [Event("colour", 48.5, 69.5, 0.78, 3.0, "hue shift", {}),
                             Event("exposure", 106.0, 131.5, 1.0, 3.0, "too bright", {})],
                     fps=5.0)
    ans = ask(idx, "The picture looks washed out at some point. When does that start?",
              ("around 0:49", "around 1:46", "around 2:30", "never"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_no_x_right_claims_absence(tmp_path):
    idx = make_index(180.0, [Event("compression", 55.0, 77.5, 0.53, 3.0, "blocking", {})],
                     fps=5.0)
    assert ask(idx, "no blocking in 2:30-2:50, right?", (), tmp_path).answer.startswith("Yes")
    assert ask(idx, "no blocking in 1:00-1:10, right?", (), tmp_path).answer.startswith("No")


@pytest.mark.parametrize("question,options,choice", [
    ("Wie stark ist das Flackern gegen Ende des Videos?", ("leicht", "mittel", "stark"), "C"),
    ("结尾有闪烁吗？", ("有", "没有"), "A"),
])
def test_towards_the_end_holds_a_defect_just_before_it(question, options, choice, tmp_path):
    idx = make_index(180.0, [Event("flicker", 132.6, 160.4, 1.0, 3.0, "brightness oscillation",
                                   {})], fps=5.0)
    assert ask(idx, question, options, tmp_path).choice == choice


def test_a_defect_starting_where_the_beginning_ends(tmp_path):
    idx = make_index(180.0, [Event("exposure", 18.0, 30.5, 0.84, 3.0, "low contrast", {})],
                     fps=5.0)
    assert ask(idx, "Ist der Kontrast am Anfang zu flau?", ("Ja", "Nein"), tmp_path).choice == "A"


@pytest.mark.parametrize("question,options", [
    ("Können wir das so freigeben oder muss das nochmal überarbeitet werden?",
     ("freigeben", "überarbeiten")),
    ("Es para subirlo a YouTube. ¿Se puede publicar así o hay que arreglarlo?",
     ("se puede publicar", "hay que arreglarlo")),
    ("画质过关吗？", ("过关", "不过关")),
    ("客户明天要上线，这个片子能直接发布吗？", ("可以发布", "需要返工")),
])
def test_release_options_in_other_languages(question, options, tmp_path):
    assert ask(_flicker_and_gamma(), question, options, tmp_path).choice == "B"


@pytest.mark.parametrize("question,options", [
    ("Wie schlimm ist der Farbstich?", ("nicht schlimm", "mittel", "schlimm")),
    ("画面抖得厉害吗？", ("不厉害", "一般", "很厉害")),
])
def test_severity_words_bad_and_intense(question, options, tmp_path):
    idx = make_index(180.0, [Event("colour", 100.0, 130.0, 1.0, 3.0, "hue shift", {}),
                             Event("jitter", 20.0, 50.0, 1.0, 3.0, "camera shake", {})],
                     fps=5.0)
    assert ask(idx, question, options, tmp_path).choice == "C"


def test_listed_from_shortest_to_longest(tmp_path):
    idx = make_index(180.0, [Event("freeze", 56.0, 58.0, 0.64, 3.0, "frozen picture", {}),
                             Event("freeze", 66.5, 74.0, 1.0, 3.0, "frozen picture", {}),
                             Event("freeze", 125.7, 129.4, 0.84, 3.0, "frozen picture", {})],
                     fps=5.0)
    ans = ask(idx, "List the freezes from longest to shortest.", (), tmp_path)
    said = ans.answer.split("By length:")[1]
    assert said.index("7.5 s") < said.index("3.7 s") < said.index("2.0 s"), ans.answer


def test_worse_as_bad_or_milder_of_the_questions_subject(tmp_path):
    idx = make_index(180.0, [Event("compression", 20.0, 45.0, 0.9, 3.0, "macroblocking", {}),
                             Event("exposure", 130.0, 150.0, 0.3, 3.0, "low contrast", {})],
                     fps=5.0)
    ans = ask(idx, "Is the later washed-out section as bad as the compression section?",
              ("worse", "about as bad", "milder"), tmp_path)
    assert ans.choice == "C", ans.answer
