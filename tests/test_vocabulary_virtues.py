"""Questions about a picture FREE of a defect ("is the image sharp?", "does it play smoothly?"):
they name the type by its good state and ask for its absence, in every supported language."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import BLUR, FLICKER, make_index

from agent.questions import parse_question

PRAISE = {
    "blur": ["Is the image sharp?", "Is the video in focus?", "Is the footage crisp?",
             "Are the details well defined?", "Does the picture stay sharp throughout?",
             "Is everything properly focused?", "Ist das Bild scharf?",
             "L'image est-elle nette ?", "¿La imagen es nítida?", "画面清晰吗？"],
    "frame_drop": ["Is playback smooth throughout?", "Does the video play smoothly?",
                   "Is the motion fluid?", "Is the motion smooth?",
                   "Does it run seamlessly?", "Läuft das Video flüssig?",
                   "La vidéo est-elle fluide ?", "¿El vídeo se reproduce con fluidez?",
                   "视频播放流畅吗？", "Is the movement fluid from start to end?"],
    "jitter": ["Is the camera steady?", "Is the picture stable?", "Was it shot on a tripod?",
               "Is the footage stabilised?", "Does the framing stay steady?",
               "Is it a steady shot?", "Ist das Bild stabilisiert?",
               "La caméra est-elle stable ?", "¿La cámara está estable?", "镜头稳吗？"],
    "exposure": ["Is the exposure correct?", "Is the video well exposed?",
                 "Is the footage properly exposed?", "Is the brightness fine?",
                 "Does the exposure look right?", "Is it correctly exposed?",
                 "Ist das Bild richtig belichtet?", "L'image est-elle bien exposée ?",
                 "¿La imagen está bien expuesta?", "曝光正常吗？"],
    "colour": ["Are the colours natural?", "Do the colors look accurate?",
               "Are the skin tones natural?", "Are the colours true to life?",
               "Is the colour fidelity good?", "Are the colours correct throughout?",
               "Sind die Farben natürlich?", "Les couleurs sont-elles naturelles ?",
               "¿Los colores son naturales?", "颜色正常吗？"],
    "flicker": ["Is the brightness stable throughout?", "Is the lighting constant?",
                "Does the brightness stay steady?", "Is the luminance even?",
                "Is the exposure stable?", "Is the illumination uniform?",
                "Bleibt die Helligkeit konstant?", "La luminosité est-elle stable ?",
                "¿El brillo es estable?", "亮度稳定吗？"],
}


@pytest.mark.parametrize(("etype", "question"),
                         [(t, q) for t, qs in PRAISE.items() for q in qs])
def test_a_good_state_asks_for_the_types_absence(etype, question):
    q = parse_question(question, [], 180.0)
    assert q.type == etype, (q.text, q.types)
    assert q.kind == "detection" and q.absent and q.least, (q.kind, q.text)


@pytest.mark.parametrize(("question", "etype"), [
    ("Is the image too sharp?", "sharpening"),         # a defect phrase holds the good word
    ("Is the picture not sharp anymore?", "blur"),
    ("Is there a still image in the middle?", "freeze"),
    ("Is the image sharp or is there noise?", "noise"),  # a named defect is what is asked
])
def test_defect_words_win_over_good_words(question, etype):
    q = parse_question(question, [], 180.0)
    assert q.type == etype and not q.absent


def test_stability_of_quality_is_not_a_camera_question():
    for text in ("How steady is the image quality?", "Is the quality stable?", "画质稳定吗？"):
        q = parse_question(text, [], 180.0)
        assert q.kind == "stability" and not q.types, text


@pytest.fixture
def idx():
    return make_index(events=[BLUR, FLICKER])


def test_yes_no_answers_follow_the_good_state(idx, tmp_path):
    sharp = ask(idx, "Is the image sharp?", tmp_path=tmp_path)
    assert sharp.answer.startswith("No: blur is present") and "00:01:00.0" in sharp.answer
    assert ask(idx, "Is the image sharp?", ["Yes", "No"], tmp_path).choice == "B"
    smooth = ask(idx, "Is playback smooth throughout?", tmp_path=tmp_path)
    assert smooth.answer.startswith("Yes: no frame drops")
    assert ask(idx, "Is the camera steady?", ["Yes", "No"], tmp_path).choice == "A"
    assert ask(idx, "Is the brightness stable throughout?", ["Yes", "No"],
               tmp_path).choice == "B"


def test_when_is_it_sharp_gives_the_stretches_free_of_blur(idx, tmp_path):
    ans = ask(idx, "When is the picture in focus?", tmp_path=tmp_path)
    spans = [(s.start_s, s.end_s) for s in ans.segments]
    assert spans == [(0.0, 60.0), (75.0, 200.0)]
    assert ans.answer.startswith("Free of blur: 00:01:15.0 to 00:03:20.0; 00:00:00.0")
    mcq = ask(idx, "When is the picture sharp?",
              ["00:01:00 - 00:01:15", "00:02:00 - 00:02:15"], tmp_path)
    assert mcq.choice == "B"


def test_when_is_the_quality_best_avoids_every_event(idx, tmp_path):
    ans = ask(idx, "When is the quality best?",
              ["00:01:00 - 00:01:10", "00:02:20 - 00:02:30", "00:01:40 - 00:01:50"], tmp_path)
    assert ans.choice == "C"
    gaps = [(s.start_s, s.end_s) for s in ask(idx, "When is the quality best?",
                                               tmp_path=tmp_path).segments]
    assert gaps == [(0.0, 60.0), (75.0, 140.0), (150.0, 200.0)]
