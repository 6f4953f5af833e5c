"""Questions as people write them: distortion names and question kinds in everyday wording,
in English, German, French, Spanish and Chinese, read through the vocabulary data file; other
languages are not understood (and say so); end to end through the local brain."""

from __future__ import annotations

import pytest
from test_toolbox import BLUR, FLICKER, make_index

from agent.language import detect
from agent.questions import KINDS, parse_question
from agent.run import answer_question
from agent.vocabulary import vocabulary
from tools.model import EVENT_TYPES, Event

# ---------------------------------------------------------------- distortion names

TYPE_PHRASINGS: dict[str, list[str]] = {
    "blur": [
        "When does the picture lose its sharpness?",
        "The footage looks out of focus near the end, when exactly?",
        "Is the image soft in the second half?",
        "At what point does everything go fuzzy?",
        "Does the camera drift out of focus at some point?",
        "Where does the video turn smeared and mushy?",
        "Does the fine detail get lost anywhere?",
        "Is it less sharp after the cut?",
        "Wann wird das Bild unscharf?",
        "À quel moment l'image devient-elle floue ?",
        "¿En qué momento se ve borrosa la imagen?",
        "视频什么时候变模糊？",
    ],
    "noise": [
        "Is there grain in the dark scenes?",
        "When does the picture get noisy?",
        "Does the footage look grainy anywhere?",
        "I see speckles all over the image - when?",
        "Is there sensor noise in the first half?",
        "When do the white dots of salt and pepper noise show up?",
        "How bad is the film grain?",
        "Does the sky show digital noise?",
        "Gibt es Bildrauschen am Anfang?",
        "Y a-t-il du bruit dans la seconde moitié ?",
        "¿Hay ruido en la imagen?",
        "画面有噪点吗？",
    ],
    "compression": [
        "When does the video get blocky?",
        "Is there macroblocking in the dark areas?",
        "Do you see compression artifacts at 1:30?",
        "Where does the picture break into big squares?",
        "Is the stream starved of bits in the action scene?",
        "When does it look pixelated?",
        "Is there banding in the sky?",
        "Does the low bitrate show anywhere?",
        "Ist das Video stark überkomprimiert?",
        "Y a-t-il des artefacts de compression ?",
        "¿Cuándo aparece la pixelación?",
        "画面什么时候出现马赛克？",
    ],
    "exposure": [
        "When is the picture washed out?",
        "Is the footage overexposed at the start?",
        "Are the highlights blown out?",
        "When does it get too dark to see anything?",
        "Is the night scene underexposed?",
        "Does the contrast drop anywhere?",
        "When does the image look flat and milky?",
        "Is there black crush in the night scene?",
        "Wann ist das Bild überbelichtet?",
        "L'image est-elle surexposée ?",
        "¿Está la imagen demasiado oscura?",
        "画面什么时候过曝？",
    ],
    "colour": [
        "When do the colours shift?",
        "Is there a green tint on the faces?",
        "The skin tones look strange, are the colours off?",
        "When is the picture oversaturated?",
        "Are the colours washed-out and pale?",
        "Is the white balance off in the first minute?",
        "Is there a colour cast at the end?",
        "When do the colors look garish?",
        "Gibt es einen Farbstich?",
        "Les couleurs sont-elles fausses ?",
        "¿Los colores se ven extraños?",
        "画面偏色吗？",
    ],
    "sharpening": [
        "Are there halos around the edges?",
        "Does the image look oversharpened?",
        "When do the edges get crunchy?",
        "Is there ringing along the text?",
        "Do you see white outlines around objects?",
        "Is the picture too sharp in the close-ups?",
        "Has excessive edge enhancement been applied?",
        "When does the over-sharpening start?",
        "Ist das Bild überschärft?",
        "Y a-t-il des halos autour des contours ?",
        "¿Hay exceso de nitidez?",
        "画面是否锐化过度？",
    ],
    "flicker": [
        "When does the picture flicker?",
        "Is the brightness pulsing?",
        "Does the image keep flashing?",
        "When do the lights strobe?",
        "Is there a strobing effect in the second half?",
        "Does the exposure keep pumping up and down?",
        "Are there rapid brightness changes?",
        "Wann flackert das Bild?",
        "L'image scintille-t-elle ?",
        "¿Cuándo parpadea la imagen?",
        "画面什么时候闪烁？",
    ],
    "frame_drop": [
        "Does the video drop frames?",
        "When does the motion get choppy?",
        "Are there skipped frames during the pan?",
        "Is the frame rate dropping anywhere?",
        "When does the playback look like a slideshow?",
        "Does the video skip ahead during the chase?",
        "Are frames missing in the second half?",
        "Is the motion jerky when the camera pans?",
        "Gibt es Bildaussetzer?",
        "Y a-t-il des images perdues ?",
        "¿Hay pérdida de fotogramas?",
        "视频有没有掉帧？",
    ],
    "stutter": [
        "When does the video stutter?",
        "Is there judder in the pans?",
        "Does playback hitch at some point?",
        "Do you notice micro-stutter?",
        "Are there repeated frames?",
        "When do the motion hiccups happen?",
        "Does the video lag?",
        "Is there stuttering in the first minute?",
        "Wann ruckelt das Video?",
        "La vidéo bégaie-t-elle ?",
        "¿Se traba el vídeo?",
        "视频什么时候卡顿？",
    ],
    "freeze": [
        "When does the picture freeze?",
        "Is the image frozen for a few seconds?",
        "When does the video get stuck?",
        "Does the picture stop moving at some point?",
        "Is there a still image in the middle?",
        "When does playback stall?",
        "Does the video hang around 2:00?",
        "Is there a freeze-frame?",
        "Wann friert das Bild ein?",
        "À quel moment l'image est-elle figée ?",
        "¿Cuándo se congela la imagen?",
        "画面什么时候定格？",
    ],
    "jitter": [
        "Is the camera shaky?",
        "When does the image wobble?",
        "Does the picture shake in the second half?",
        "Is there camera shake during the walk?",
        "Is the handheld footage unsteady?",
        "When does the frame jitter?",
        "Is there a jello effect from the rolling shutter?",
        "Does the image tremble?",
        "Wann wackelt das Bild?",
        "L'image tremble-t-elle ?",
        "¿Tiembla la cámara?",
        "画面抖动吗？",
    ],
    "corruption": [
        "When does the picture glitch?",
        "Are there corrupted frames?",
        "Do you see green blocks anywhere?",
        "When does the stream show data moshing?",
        "Are there grey slices across the picture?",
        "Is there packet loss damage at 1:30?",
        "When is the image broken?",
        "Do decoding errors appear?",
        "Wann ist das Bild beschädigt?",
        "L'image est-elle corrompue ?",
        "¿Hay imágenes dañadas?",
        "画面什么时候花屏？",
    ],
    "interlace": [
        "Is the video interlaced?",
        "When do combing artifacts appear?",
        "Are there comb artifacts on moving objects?",
        "Do moving edges show mouse teeth?",
        "Was this deinterlaced badly?",
        "Are there jagged lines on motion?",
        "When does the interlacing show?",
        "Is there feathering on fast motion?",
        "Ist das Video im Zeilensprungverfahren?",
        "La vidéo est-elle entrelacée ?",
        "¿Hay efecto peine en el vídeo?",
        "画面有梳状纹吗？",
    ],
}


def test_every_event_type_has_ten_phrasings_and_a_name():
    assert set(TYPE_PHRASINGS) == set(EVENT_TYPES)
    for etype, phrasings in TYPE_PHRASINGS.items():
        assert len(phrasings) >= 10, etype
        assert vocabulary().types[etype].name


@pytest.mark.parametrize(("etype", "question"),
                         [(t, q) for t, qs in TYPE_PHRASINGS.items() for q in qs])
def test_distortion_phrasings(etype, question):
    q = parse_question(question, [], 180.0)
    assert q.type == etype, (q.text, q.types)


def test_ambiguous_words_accept_every_type_they_can_mean():
    macro = parse_question("Is there macroblocking?", [], 60.0).types[0]
    assert macro.type == "compression" and "corruption" in macro.accepts
    frozen = parse_question("When is the picture frozen?", [], 60.0).types[0]
    assert frozen.type == "freeze" and frozen.fallback == ("stutter",)
    jerky = parse_question("Is the motion jerky?", [], 60.0).types[0]
    assert set(jerky.accepts) >= {"frame_drop", "stutter", "jitter"}


def test_the_data_file_is_consistent():
    v = vocabulary()
    assert list(v.types) == list(EVENT_TYPES)
    for group in v.data["phrases"]:
        assert group["type"] in EVENT_TYPES
        assert set(group.get("also", ())) <= set(EVENT_TYPES)
        assert group.get("en"), group  # every group has English words
    assert all(set(info.fallback) <= set(EVENT_TYPES) for info in v.types.values())
    assert set(v.kind_order) == set(v.kinds) and set(v.kind_order) <= set(KINDS)
    assert set(v.gloss) <= set(v.supported) and {"de", "fr", "es", "zh"} <= set(v.supported)


def test_the_data_file_ships_with_the_package():
    from importlib.resources import files

    assert files("agent.brains.local").joinpath("vocabulary.toml").is_file()


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


# ---------------------------------------------------------------- end to end

def ask(idx, question, options=(), tmp_path=None):
    return answer_question(idx.info.path, question, list(options), index=idx,
                           cache_dir=tmp_path, max_steps=12)


def spans(ans):
    return [(s.start_s, s.end_s) for s in ans.segments]


def test_losing_sharpness_is_the_blur_not_a_stronger_colour_event(tmp_path):
    idx = make_index(events=[BLUR, Event("colour", 140.0, 160.0, 0.95, 9.0, "hue shift")])
    ans = ask(idx, "When does the picture lose its sharpness?", tmp_path=tmp_path)
    assert spans(ans) == [(60.0, 75.0)] and ans.segments[0].label.startswith("blur")


@pytest.mark.parametrize("question", [
    "Wann flackert das Bild?", "Quand l'image scintille-t-elle ?",
    "¿Cuándo parpadea la imagen?", "画面什么时候闪烁？", "At what moment does it strobe?",
])
def test_flicker_localised_in_every_language(tmp_path, question):
    ans = ask(make_index(events=[BLUR, FLICKER]), question, tmp_path=tmp_path)
    assert spans(ans) == [(140.0, 150.0)] and "flicker" in ans.answer.lower()


@pytest.mark.parametrize(("question", "options", "choice"), [
    ("Gibt es zwischen 1:00 und 1:15 Unschärfe?", ["Ja", "Nein"], "A"),
    ("Y a-t-il du flou dans la seconde moitié ?", ["Oui", "Non"], "B"),
    ("¿Qué tipo de distorsión aparece entre 2:20 y 2:30?",
     ["Ruido", "Desenfoque", "Parpadeo"], "C"),
    ("1:00到1:15之间的模糊有多严重？", ["轻微", "中等", "严重"], "C"),  # 0.6: severe blur
])
def test_multiple_choice_in_other_languages(tmp_path, question, options, choice):
    assert ask(make_index(events=[BLUR, FLICKER]), question, options, tmp_path).choice == choice


FREEZE = Event("freeze", 90.0, 96.0, 1.0, 6.0, "frozen picture")
STUTTER = Event("stutter", 30.0, 40.0, 0.8, 20.0, "repeated frames")


def test_a_freeze_question_takes_freeze_events_then_stutter_as_fallback(tmp_path):
    both = make_index(events=[STUTTER, FREEZE])
    assert spans(ask(both, "When does the picture freeze?", tmp_path=tmp_path)) == [(90.0, 96.0)]
    old = make_index(events=[STUTTER])  # an index from before the freeze detector
    ans = ask(old, "When does the picture freeze?", tmp_path=tmp_path)
    assert spans(ans) == [(30.0, 40.0)] and "stutter" in ans.segments[0].label
    assert ask(old, "Is the image frozen at any point?", YES_NO, tmp_path).choice == "A"


def test_new_types_are_named_as_options(tmp_path):
    idx = make_index(events=[FREEZE, Event("interlace", 150.0, 170.0, 0.8, 5.0, "combing")])
    opts = ["Flicker", "Frozen picture", "Interlacing (combing)", "Corrupted picture"]
    assert ask(idx, "What kind of problem shows between 1:30 and 1:36?", opts,
               tmp_path).choice == "B"
    assert ask(idx, "Which defect appears between 2:30 and 2:50?", opts, tmp_path).choice == "C"
    ans = ask(idx, "When do combing artifacts appear?", tmp_path=tmp_path)
    assert spans(ans) == [(150.0, 170.0)]


def test_macroblocking_accepts_codec_blocks_and_decoder_damage(tmp_path):
    damage = make_index(events=[Event("corruption", 100.0, 104.0, 0.9, 5.0, "smeared blocks")])
    ans = ask(damage, "When is there macroblocking?", tmp_path=tmp_path)
    assert spans(ans) == [(100.0, 104.0)]
    assert ask(damage, "Do you see macroblocking between 1:35 and 1:50?", YES_NO,
               tmp_path).choice == "A"
    codec = make_index(events=[Event("compression", 20.0, 35.0, 0.9, 5.0, "blocking")])
    assert spans(ask(codec, "When is there macroblocking?", tmp_path=tmp_path)) == [(20.0, 35.0)]
    glitch = ask(damage, "When does the picture glitch?", tmp_path=tmp_path)
    assert spans(glitch) == [(100.0, 104.0)]


@pytest.mark.parametrize("question", ["Quando l'immagine è sfocata?", "いつ画面がちらつきますか？"])
def test_a_foreign_question_is_not_understood_but_the_evidence_is_reported(tmp_path, question):
    ans = ask(make_index(events=[BLUR, FLICKER]), question, tmp_path=tmp_path)
    assert "did not understand" in ans.answer and "cannot measure" not in ans.answer
    assert "00:01:00.0" in ans.answer and "00:02:20.0" in ans.answer
    assert spans(ans) == [(60.0, 75.0), (140.0, 150.0)] and ans.choice is None


def test_an_unknown_term_is_named_and_answered_from_the_strongest_evidence(tmp_path):
    idx = make_index(events=[BLUR, FLICKER])
    ans = ask(idx, "When does the picture look psychedelic?", tmp_path=tmp_path)
    assert "'psychedelic'" in ans.answer and "did not guess" in ans.answer
    assert (140.0, 150.0) in spans(ans)  # the strongest event, whatever its type
