"""More questions the session-26 probe found misread: options that are moments ("at what time
does the blur end? 0:45 / 1:08"), "stop being blurry" (no freeze), "which is milder?",
stutter asked of windows where the frame rate drops, and colour praised in German, French
and Spanish word order, codecs named with their artefacts, "which is first?"."""

from __future__ import annotations

import json

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.distortions import distortions
from agent.toolbox import Toolbox
from tools.model import Event

MOMENTS = ("0:45", "1:08", "1:35", "2:13")


def _blur():
    return make_index(180.0, [Event("blur", 43.5, 68.0, 0.8, 3.0, "softness", {})], fps=5.0)


@pytest.mark.parametrize("question,letter", [
    ("At what timestamp does the blur end?", "B"),
    ("When does the picture stop being blurry?", "B"),
    ("At what time does the blur go away?", "B"),
    ("When does the blur start?", "A"),
    ("At what time does the picture become blurry?", "A"),
    ("When is the blur near the end of the video?", "A"),  # "the end" is a place
])
def test_moment_options_name_the_onset_or_the_end(tmp_path, question, letter):
    ans = ask(_blur(), question, MOMENTS, tmp_path)
    assert ans.choice == letter, ans.answer


def test_stop_being_blurry_is_no_freeze():
    assert [m.type for m in distortions("When does the picture stop being blurry?")] == ["blur"]
    assert [m.type for m in distortions("When does the picture stop?")] == ["freeze"]


def _contrast_and_rate():
    return make_index(180.0, [Event("exposure", 18.0, 30.5, 0.84, 5.0, "low contrast", {}),
                              Event("frame_drop", 114.0, 131.0, 0.5, 2.0, "frame-rate drop",
                                    {})], fps=5.0)


@pytest.mark.parametrize("question,letter", [
    ("Which defect is milder, the contrast loss or the low frame rate?", "B"),
    ("Which is weaker: the contrast loss or the low frame rate?", "B"),
    ("Which is worse, the contrast loss or the low frame rate?", "A"),
])
def test_milder_asks_for_the_least(tmp_path, question, letter):
    ans = ask(_contrast_and_rate(), question, ("Contrast loss", "Low frame rate"), tmp_path)
    assert ans.choice == letter, ans.answer
    if letter == "B":
        assert ans.answer.startswith("The milder distortion is frame drops"), ans.answer


def test_stutter_weighs_the_frame_rate_drop_in_the_windows(tmp_path):
    idx = make_index(180.0, [Event("frame_drop", 103.0, 131.0, 0.67, 3.0, "frame-rate drop",
                                   {})], fps=5.0)
    opts = ("0:37-0:52", "1:43-2:11", "2:30-2:55")
    for question in ("In which segment does the video stutter?", "视频中哪一段出现卡顿？"):
        ans = ask(idx, question, opts, tmp_path)
        assert ans.choice == "B", ans.answer
    box = Toolbox(idx)
    both = json.loads(box.compare_windows([[37.0, 52.0], [103.0, 131.0]], "stutter,frame_drop"))
    alone = json.loads(box.compare_windows([[37.0, 52.0], [103.0, 131.0]], "stutter"))
    assert both["worst_first"][0] == 1 and both["windows"][1]["worst_severity"] == 0.67
    assert alone["windows"][1]["worst_severity"] == 0.0


@pytest.mark.parametrize("question", [
    "Es el color de la imagen correcto durante todo el video?",
    "La couleur de l'image est-elle correcte pendant toute la vidéo ?",
    "Ist die Farbe des Bildes im ganzen Video korrekt?",
])
def test_colour_praised_in_other_word_orders(tmp_path, question):
    idx = make_index(180.0, [Event("colour", 116.0, 128.0, 1.0, 5.0, "hue shift", {})],
                     fps=5.0)
    ans = ask(idx, question, ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("phrase", ["MPEG artefacts", "H.264 artifacts", "codec blocking",
                                    "x264 blocks", "MPEG-2 artifacting"])
def test_a_codec_named_with_its_artefacts_is_compression(phrase):
    assert [m.type for m in distortions(f"Are there {phrase}?")] == ["compression"]


@pytest.mark.parametrize("question", [
    "Which is first, shaking or oversaturation?",
    "Which one came later: the shake or the oversaturation?",
    "What was first, the shaking or the oversaturation?",
])
def test_which_is_first_is_a_temporal_relation(tmp_path, question):
    idx = make_index(180.0, [Event("jitter", 58.0, 78.0, 0.8, 3.0, "camera shake", {}),
                             Event("colour", 132.0, 159.0, 0.5, 2.0, "oversaturation", {})],
                     fps=5.0)
    ans = ask(idx, question, ("Shaking", "Oversaturation"), tmp_path)
    assert ans.choice == ("B" if "later" in question else "A"), ans.answer
    assert "comes first" in ans.answer, ans.answer
