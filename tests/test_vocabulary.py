"""Distortion names as people write them, in English, German, French, Spanish and Chinese,
read through the vocabulary data file; end to end through the local brain."""

from __future__ import annotations

import pytest
from test_toolbox import BLUR, FLICKER, make_index

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
        "When does the frame jump around?",
        "Is there gate weave in this film scan?",
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


# ---------------------------------------------------------------- end to end

YES_NO = ["Yes", "No"]

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
