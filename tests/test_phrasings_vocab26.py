"""Words a session-26 probe found unknown or misread: detail that "is lost", a picture that
"looks dim", "there's no ...", "neither ... nor", "only one kind of problem?", "other than"."""

from __future__ import annotations

import pytest

from agent.distortions import distortions


@pytest.mark.parametrize("question,etype", [
    ("Is detail lost anywhere?", "blur"),
    ("Are the fine details gone in the second half?", "blur"),
    ("Does the image look dim in the beginning?", "exposure"),
    ("Is the scene poorly lit at some point?", "exposure"),
    ("Does the picture get a bit dim after a minute?", "exposure"),
])
def test_defect_words(question, etype):
    assert [m.type for m in distortions(question)] == [etype]


def test_dim_reads_as_too_dark():
    (m,) = distortions("Does the image look dim in the beginning?")
    assert m.subtype == "too dark"


def _two():
    from test_toolbox import make_index

    from tools.model import Event
    return make_index(180.0, [Event("sharpening", 58.0, 68.5, 0.61, 3.0, "halo", {}),
                              Event("jitter", 100.0, 130.0, 0.8, 3.0, "camera shake", {})],
                      fps=5.0)


@pytest.mark.parametrize("question,options,letter", [
    ("There's no sharpening problem in this video, correct?", ("Correct", "Incorrect"), "B"),
    ("Neither blur nor blocking appears in the first 40 seconds, does it?",
     ("Yes, neither appears", "No, at least one appears"), "A"),
    ("Neither halos nor shake appear in the video, right?", ("Yes", "No"), "B"),
    ("Is there only one kind of problem in the video?", ("Yes", "No"), "B"),
    ("Does the video have more than one type of distortion?", ("Yes", "No"), "A"),
    ("Are there any issues other than the halos?", ("Yes", "No"), "A"),
])
def test_absence_and_counts_of_kinds(tmp_path, question, options, letter):
    from test_local_brain import ask
    ans = ask(_two(), question, options, tmp_path)
    assert ans.choice == letter, ans.answer


def test_other_than_is_no_comparison():
    from agent.kinds import question_kind
    assert question_kind("Are there any issues other than flicker?", ["Yes", "No"]) != \
        "comparison"


def test_re_encoded_names_compression_and_cut_is_an_ordinary_word(tmp_path):
    from test_local_brain import ask
    from test_toolbox import make_index

    from tools.model import Event
    idx = make_index(180.0, [Event("compression", 10.0, 22.5, 0.58, 3.0, "blocking", {}),
                             Event("exposure", 96.0, 126.0, 0.68, 3.0, "too bright", {})],
                     fps=5.0)
    ans = ask(idx, "Which segment should be re-encoded?", ("0:10-0:22", "1:36-2:06", "Neither"),
              tmp_path)
    assert ans.choice == "A" and "do not know" not in ans.answer, ans.answer
    cut = ask(idx, "Which part of the video would you cut to improve quality the most?",
              ("0:10-0:22", "1:36-2:06"), tmp_path)
    assert "do not know" not in cut.answer, cut.answer


@pytest.mark.parametrize("question,fault", [
    ("Is there moire or aliasing in the video?", "moire"),
    ("Are there lens flares?", "lens flares"),
    ("Do you see chromatic aberration anywhere?", "chromatic aberration"),
])
def test_picture_faults_without_a_measure_are_said_so(tmp_path, question, fault):
    from test_local_brain import ask
    from test_toolbox import make_index

    from agent.kinds import question_kind
    assert question_kind(question, ["Yes", "No"]) == "out_of_scope"
    ans = ask(make_index(180.0, [], fps=5.0), question, ("Yes", "No"), tmp_path)
    assert ans.answer.startswith(f"'{fault}' is a picture fault I have no measure of"), \
        ans.answer
    assert ans.choice is None


@pytest.mark.parametrize("question,etype", [
    ("Is the cadence broken anywhere?", "stutter"),
    ("Does the autofocus hunt at some point?", "blur"),
    ("Is there telecine judder?", "stutter"),
])
def test_trade_words_for_timing_and_focus(question, etype):
    assert [m.type for m in distortions(question)] == [etype]


def test_properly_deinterlaced_is_praise(tmp_path):
    from test_local_brain import ask
    from test_toolbox import make_index

    from tools.model import Event
    idx = make_index(180.0, [Event("interlace", 125.0, 153.0, 0.74, 3.0, "combing", {})],
                     fps=5.0)
    ans = ask(idx, "Is the video deinterlaced properly throughout?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize("question", [
    "Warum sieht das Video bei 2:00 schlecht aus?",
    "Pourquoi l'image est-elle bizarre vers 0:45 ?",
    "¿Por qué se ve mal el video en 0:45?",
    "Why does the picture look odd around 0:45?",
])
def test_looks_bad_is_understood_in_four_languages(tmp_path, question):
    from test_local_brain import ask
    from test_toolbox import make_index

    from tools.model import Event
    idx = make_index(180.0, [Event("colour", 37.0, 52.5, 1.0, 5.0, "desaturation", {}),
                             Event("colour", 116.0, 128.0, 1.0, 5.0, "hue shift", {})],
                     fps=5.0)
    ans = ask(idx, question, (), tmp_path)
    assert "do not know" not in ans.answer and "Colour distortion" in ans.answer, ans.answer
