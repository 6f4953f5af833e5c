"""Phrasings the session-28 probes found misread (part 3): the second, multilingual round and
the terse and benchmark shapes of the English one."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_phrasings_s28_verdicts import _flicker_and_gamma, _noise_fading
from test_toolbox import make_index

from tools.model import Event


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


@pytest.mark.parametrize("question,options", [
    ("¿Qué falla primero, el color o la estabilidad de la cámara?",
     ("el color", "la estabilidad de la cámara")),
    ("What fails first, the colour or the camera stability?",
     ("the colour", "the camera stability")),
])
def test_the_cameras_stability_failing_is_shake(question, options, tmp_path):
    idx = make_index(180.0, [Event("jitter", 57.6, 78.8, 0.5, 3.0, "camera shake", {}),
                             Event("colour", 132.5, 155.0, 0.6, 3.0, "oversaturation", {})],
                     fps=5.0)
    assert ask(idx, question, options, tmp_path).choice == "B"


def test_badly_blown_out_is_the_top_level(tmp_path):
    idx = make_index(180.0, [Event("exposure", 18.6, 46.6, 1.0, 3.0, "too bright", {})],
                     fps=5.0)
    ans = ask(idx, "How overexposed is the bright section?",
              ("slightly", "noticeably", "badly blown out"), tmp_path)
    assert ans.choice == "C", ans.answer
