"""Question kinds, times and options as people write them, in five languages; other
languages are not understood (and say so)."""

from __future__ import annotations

import pytest

from agent.language import detect
from agent.questions import parse_question

# ---------------------------------------------------------------- question kinds

YES_NO = ["Yes", "No"]
LEVELS = ["Mild", "Moderate", "Severe"]
GRADES = ["Excellent", "Good", "Fair", "Poor"]
TYPES3 = ["Noise", "Blur", "Flicker"]

KIND_PHRASINGS: dict[str, list[tuple[str, list[str]]]] = {
    "localization": [
        ("When does the flicker start?", []),
        ("At which moment does the blur show up?", []),
        ("Can you tell me when the picture freezes?", []),
        ("Give me the timestamps of the noisy parts.", []),
        ("Where in the video is the picture blurry?", []),
        ("During what time range is there camera shake?", []),
        ("Point out the moment the picture gets blocky.", []),
        ("How far into the video does the image start to stutter?", []),
        ("Wann flackert das Bild?", []),
        ("À quel moment la vidéo se fige-t-elle ?", []),
        ("¿Cuándo aparece el ruido?", []),
        ("画面什么时候模糊？", []),
    ],
    "detection": [
        ("Does the picture ever freeze?", YES_NO),
        ("Can you see any grain between 1:00 and 1:30?", YES_NO),
        ("Are there dropped frames at the end?", YES_NO),
        ("Have you noticed any flicker?", YES_NO),
        ("Was the footage shaky during the walk?", YES_NO),
        ("Do the edges show halos?", YES_NO),
        ("Any combing in there?", YES_NO),
        ("Gibt es Rauschen in der zweiten Hälfte?", ["Ja", "Nein"]),
        ("Y a-t-il des saccades ?", ["Oui", "Non"]),
        ("¿Hay parpadeo en el último minuto?", ["Sí", "No"]),
        ("前半段有没有卡顿？", ["有", "没有"]),
    ],
    "classification": [
        ("What kind of problem is visible at 2:15?", TYPES3),
        ("Which defect shows up in the last minute?", TYPES3),
        ("Identify the artifact in the opening scene.", TYPES3),
        ("What is wrong with the picture at 0:45?", TYPES3),
        ("What sort of degradation hits the middle part?", TYPES3),
        ("Name the distortion between 1:00 and 1:20.", TYPES3),
        ("What's going on with the image around 3:10?", TYPES3),
        ("Welche Art von Fehler tritt um 2:15 auf?", ["Rauschen", "Unschärfe", "Flackern"]),
        ("Quel type de défaut voit-on à la fin ?", ["Bruit", "Flou", "Scintillement"]),
        ("¿Qué tipo de problema aparece al principio?", ["Ruido", "Desenfoque", "Parpadeo"]),
        ("2分15秒出现的是什么问题？", ["噪点", "模糊", "闪烁"]),
    ],
    "severity": [
        ("How bad is the blur?", LEVELS),
        ("How strong is the flicker in the last minute?", LEVELS),
        ("How noticeable are the compression artifacts?", LEVELS),
        ("To what degree does the noise disturb the viewer?", LEVELS),
        ("How serious is the freeze?", LEVELS),
        ("Rate the severity of the camera shake.", LEVELS),
        ("How intense is the oversaturation?", LEVELS),
        ("Wie stark ist das Rauschen?", ["Leicht", "Mittel", "Stark"]),
        ("Quelle est la gravité du flou ?", ["Léger", "Modéré", "Sévère"]),
        ("¿Qué tan fuerte es el parpadeo?", ["Leve", "Moderado", "Grave"]),
        ("卡顿有多严重？", ["轻微", "中等", "严重"]),
    ],
    "comparison": [
        ("Which half of the video looks worse?", ["The first half", "The second half"]),
        ("Is the first minute noisier than the last?", YES_NO),
        ("Which segment is the most degraded?", ["Segment 1", "Segment 2", "Segment 3"]),
        ("Compare the blur at the start with the blur at the end.", []),
        ("Where is the picture worst, at the beginning or at the end?",
         ["At the beginning", "At the end"]),
        ("Which is more annoying, the flicker or the shake?", ["The flicker", "The shake"]),
        ("Is the freeze at 1:00 longer than the one at 2:00?", YES_NO),
        ("Is the noise or the dark part longer?", []),
        ("Is blur or noise the bigger problem here?", []),
        ("Welcher Abschnitt ist schlechter?", ["Abschnitt 1", "Abschnitt 2"]),
        ("Quelle partie est la plus dégradée ?", ["La première moitié", "La seconde moitié"]),
        ("¿Qué mitad se ve peor?", ["La primera mitad", "La segunda mitad"]),
        ("哪一段画质更差？", ["第1段", "第2段"]),
    ],
    "trend": [
        ("Does the quality deteriorate as the video goes on?", YES_NO),
        ("Is the picture getting worse over time?", YES_NO),
        ("Does the image improve towards the end?", YES_NO),
        ("How does the quality evolve from start to finish?",
         ["It improves", "It gets worse", "It stays the same"]),
        ("Is there a downward trend in quality?", YES_NO),
        ("How does the quality develop over the course of the video?",
         ["It gets worse", "It stays the same", "It gets better"]),
        ("Does the picture change over time?", YES_NO),
        ("Does the video degrade gradually?", YES_NO),
        ("Does it get better or worse later on?", ["Better", "Worse", "Neither"]),
        ("Wird die Bildqualität mit der Zeit schlechter?", ["Ja", "Nein"]),
        ("La qualité se dégrade-t-elle au fil du temps ?", ["Oui", "Non"]),
        ("¿La calidad empeora con el tiempo?", ["Sí", "No"]),
        ("画质是否随着时间变差？", ["是", "否"]),
    ],
    "temporal_relation": [
        ("Which comes first, the blur or the noise?", ["The blur", "The noise"]),
        ("Which problem develops first?", ["Blur", "Noise"]),
        ("Does the freeze happen before the flicker?", YES_NO),
        ("Do the noise and the blur overlap?", YES_NO),
        ("Does the shake follow the blocking?", YES_NO),
        ("In which order do the problems appear?", ["Blur then noise", "Noise then blur"]),
        ("Is the flicker after the colour shift?", YES_NO),
        ("Do the blur and the flicker happen at the same time?", YES_NO),
        ("Are the glitches clustered together?", YES_NO),
        ("Tritt das Flackern vor der Unschärfe auf?", ["Ja", "Nein"]),
        ("Le bruit apparaît-il avant le flou ?", ["Oui", "Non"]),
        ("¿El ruido aparece antes que el desenfoque?", ["Sí", "No"]),
        ("模糊是在闪烁之前出现的吗？", ["是", "否"]),
    ],
    "dominant_factor": [
        ("What is the main problem with this video?", TYPES3),
        ("Which distortion dominates?", TYPES3),
        ("What is the biggest issue with the picture?", TYPES3),
        ("Which artifact hurts the quality the most?", TYPES3),
        ("What is the primary cause of the poor quality?", TYPES3),
        ("Which defect is most prominent?", TYPES3),
        ("What degrades the picture the most?", TYPES3),
        ("Was ist die vorherrschende Störung?", ["Rauschen", "Unschärfe"]),
        ("Quel est le défaut principal ?", ["Bruit", "Flou"]),
        ("¿Cuál es el problema principal?", ["Ruido", "Desenfoque"]),
        ("这个视频的主要问题是什么？", ["噪点", "模糊"]),
    ],
    "stability": [
        ("Is the picture quality consistent throughout?", YES_NO),
        ("Does the quality fluctuate?", YES_NO),
        ("How steady is the image quality?", []),
        ("Is the quality uniform over the whole clip?", YES_NO),
        ("Does the quality vary a lot?", YES_NO),
        ("Is the viewing experience stable from start to end?", YES_NO),
        ("Does the image quality stay even throughout?", YES_NO),
        ("Ist die Bildqualität gleichmäßig?", ["Ja", "Nein"]),
        ("La qualité est-elle stable ?", ["Oui", "Non"]),
        ("¿La calidad es estable durante todo el vídeo?", ["Sí", "No"]),
        ("画质稳定吗？", ["是", "否"]),
    ],
    "overall": [
        ("How good is the video overall?", GRADES),
        ("Rate the picture quality of this clip.", GRADES),
        ("What score would you give this video?", GRADES),
        ("How would you judge the quality of the entire video?", GRADES),
        ("Evaluate the video's quality.", GRADES),
        ("Give an overall rating.", GRADES),
        ("Is the general quality acceptable?", YES_NO),
        ("Wie würden Sie die Gesamtqualität bewerten?", ["Ausgezeichnet", "Gut", "Schlecht"]),
        ("Comment évaluez-vous la qualité globale de la vidéo ?", ["Excellente", "Bonne",
                                                                   "Mauvaise"]),
        ("¿Cómo calificarías la calidad general del vídeo?", ["Excelente", "Buena", "Mala"]),
        ("请评价这个视频的整体画质。", ["优秀", "良好", "较差"]),
    ],
}


def test_every_question_kind_has_ten_phrasings():
    for kind, phrasings in KIND_PHRASINGS.items():
        assert len(phrasings) >= 10, kind


@pytest.mark.parametrize(("kind", "question", "options"),
                         [(k, q, o) for k, qs in KIND_PHRASINGS.items() for q, o in qs])
def test_question_kind_phrasings(kind, question, options):
    q = parse_question(question, options, 180.0)
    assert q.kind == kind, q.text


# ---------------------------------------------------------------- times and options

@pytest.mark.parametrize(("question", "span"), [
    ("Gibt es in der ersten Hälfte Rauschen?", (0, 90)),
    ("Ist das Bild in der letzten Minute unscharf?", (120, 180)),
    ("Gibt es zwischen 1:00 und 1:30 Flackern?", (60, 90)),
    ("Flackert das Bild um 2:15?", (133, 137)),
    ("Y a-t-il du flou dans la première moitié ?", (0, 90)),
    ("L'image est-elle floue dans la dernière minute ?", (120, 180)),
    ("Y a-t-il du bruit entre 1:00 et 1:30 ?", (60, 90)),
    ("L'image scintille-t-elle à 2:15 ?", (133, 137)),
    ("¿Hay ruido en la primera mitad?", (0, 90)),
    ("¿Está borrosa la imagen en el último minuto?", (120, 180)),
    ("¿Hay parpadeo entre 1:00 y 1:30?", (60, 90)),
    ("¿Parpadea la imagen a las 2:15?", (133, 137)),
    ("前半段有噪点吗？", (0, 90)),
    ("最后一分钟画面模糊吗？", (120, 180)),
    ("1:00到1:30之间有闪烁吗？", (60, 90)),
    ("2分15秒画面闪烁吗？", (133, 137)),
])
def test_time_words_in_four_languages(question, span):
    q = parse_question(question, [], 180.0)
    assert q.window and (q.window.start_s, q.window.end_s) == pytest.approx(span), q.text


def test_options_in_other_languages_carry_their_claims():
    q = parse_question("Wie stark ist das Rauschen?", ["Leicht", "Mittel", "Stark"], 180.0)
    assert [o.level for o in q.options] == [1, 2, 3]
    q = parse_question("Y a-t-il du flou ?", ["Oui", "Non"], 180.0)
    assert q.options[0].yes and q.options[1].no
    q = parse_question("¿Cuándo parpadea?", ["La primera mitad", "La segunda mitad"], 180.0)
    assert [o.windows[0].span for o in q.options] == [(0, 90), (90, 180)]


# ---------------------------------------------------------------- languages

@pytest.mark.parametrize(("text", "code"), [
    ("When does the picture lose its sharpness?", "en"),
    ("Wann flackert das Bild?", "de"),
    ("Quand l'image scintille-t-elle ?", "fr"),
    ("¿Cuándo parpadea la imagen?", "es"),
    ("画面什么时候闪烁？", "zh"),
    ("Quando l'immagine è sfocata?", "it"),
    ("Quando a imagem fica desfocada?", "pt"),
    ("Wanneer is het beeld wazig?", "nl"),
    ("いつ画面がちらつきますか？", "ja"),
    ("Когда изображение мерцает?", "ru"),
    ("화면이 언제 깜박입니까?", "ko"),
])
def test_language_detection(text, code):
    assert detect(text) == code


@pytest.mark.parametrize("question", [
    "Quando l'immagine è sfocata?", "Quando a imagem fica desfocada?",
    "Wanneer is het beeld wazig?", "いつ画面がちらつきますか？", "Когда изображение мерцает?",
    "Görüntü ne zaman bulanık oluyor?", "Blorp zindle quax?",
])
def test_other_languages_and_gibberish_are_not_understood(question):
    assert parse_question(question, [], 180.0).kind == "not_understood"


def test_an_unknown_quality_word_is_named_not_guessed():
    q = parse_question("When does the picture look psychedelic?", [], 180.0)
    assert q.kind == "localization" and q.type is None and q.unknown == ["psychedelic"]
    assert parse_question("When does the picture lose its sharpness?", [], 180.0).unknown == []
    assert parse_question("How would you rate the overall quality?", [], 180.0).unknown == []
