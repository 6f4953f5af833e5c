"""Faults a reviewer-style probe found on real clips (session 18): vague times, past-tense
order questions, two words for one defect, doubled labels, "or" in other languages, colours
that look washed out, and answers that contradicted themselves."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.brains.local.common import ev_line
from agent.questions import parse_question
from tools.model import Event


def test_somewhere_in_the_middle_is_the_middle_third():
    q = parse_question("The image hangs somewhere in the middle - for how many seconds?",
                       [], 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(60.0, 120.0)]
    q = parse_question("Does it freeze at some point near the end?", [], 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(120.0, 180.0)]
    # a plain "in the middle" stays the narrow middle
    assert parse_question("Is there blur in the middle?", [], 180.0).windows[0].start_s == 81.0


@pytest.mark.parametrize("question", [
    "Which came first: the image getting grainy or it going out of focus?",
    "Which happened first, the colour tint problem or the picture freezing?",
    "Which problem started earlier, the noise or the blur?",
])
def test_order_questions_in_the_past_tense(question):
    assert parse_question(question, [], 180.0).kind == "temporal_relation"


def test_which_came_first_names_both_and_the_order(tmp_path):
    idx = make_index(200.0, [Event("jitter", 30.0, 50.0, 1.0, 9.0, "camera shake", {}),
                             Event("frame_drop", 100.0, 120.0, 0.8, 5.0, "frame-rate drop", {})])
    ans = ask(idx, "Which came first, the shaky camera or the choppy motion?", (), tmp_path)
    assert ans.answer.startswith("The jitter (camera shake) comes first"), ans.answer
    assert "(camera shake) (camera shake)" not in ans.answer


def test_two_words_for_one_defect_are_answered_once(tmp_path):
    idx = make_index(200.0, [Event("frame_drop", 100.0, 120.0, 0.8, 5.0, "frame-rate drop", {}),
                             Event("jitter", 30.0, 50.0, 1.0, 9.0, "camera shake", {})])
    ans = ask(idx, "Does the video drop frames or stutter?", (), tmp_path)
    assert ans.answer.startswith("Yes."), ans.answer
    assert len(ans.segments) == 1 and ans.segments[0].start_s == 100.0, ans.segments
    # "the frame rate dropped" names frame drops, not the camera's shake
    ans = ask(idx, "Does the motion stutter at some point, as if the frame rate dropped?", (),
              tmp_path)
    assert [s.start_s for s in ans.segments] == [100.0], ans.answer


def test_a_type_name_that_says_its_subtype_is_not_doubled():
    e = {"type": "jitter", "subtype": "camera shake", "start_s": 1.0, "end_s": 2.0,
         "severity": 0.5}
    assert ev_line(e).startswith("jitter (camera shake) from"), ev_line(e)


@pytest.mark.parametrize(("question", "types"), [
    ("视频中有没有噪点或者画面变暗的地方？", ["noise", "exposure"]),
    ("L'image est-elle floue ou bruitée ?", ["blur", "noise"]),
    ("Ist das Bild unscharf oder verrauscht?", ["blur", "noise"]),
    ("When do the colours look washed out?", ["colour"]),
    ("When does the image look washed out?", ["exposure"]),
])
def test_or_in_other_languages_and_washed_out_colours(question, types):
    q = parse_question(question, [], 180.0)
    assert [m.type for m in q.types] == types, question
    if len(types) == 2:
        assert " or " in q.text, q.text


def test_where_in_french_still_locates():
    assert parse_question("Où l'image est-elle floue ?", [], 180.0).kind == "localization"


def test_a_stretch_is_no_unknown_word():
    q = parse_question("Is there a stretch where the picture goes purple?", [], 180.0)
    assert q.unknown == [] and q.types[0].type == "colour"


def test_the_chosen_option_is_said_when_the_main_type_is_another(tmp_path):
    idx = make_index(200.0, [Event("colour", 2.0, 75.0, 0.45, 3.0, "hue shift", {}),
                             Event("interlace", 64.0, 77.0, 0.4, 4.0, "combing", {})])
    ans = ask(idx, "Which defect is present around 1:00-1:20?",
              ["interlacing artefacts", "a frozen picture", "noise", "darkening"], tmp_path)
    assert ans.choice == "A"
    assert "Of the options' distortions, interlacing (combing) is the one present" \
        in ans.answer, ans.answer


def test_a_choice_no_evidence_supports_is_said_to_be_a_guess(tmp_path):
    idx = make_index(200.0, [Event("colour", 130.0, 135.0, 0.6, 3.0, "hue shift", {})])
    ans = ask(idx, "What is the main problem in 2:00-2:30?",
              ["heavy compression", "overexposure", "freeze", "noise"], tmp_path)
    assert ans.choice is not None
    assert f"Option {ans.choice} is a guess" in ans.answer, ans.answer
    # a choice the evidence supports is no guess
    ans = ask(idx, "What is the main problem in 2:00-2:30?",
              ["heavy compression", "a colour shift", "freeze", "noise"], tmp_path)
    assert ans.choice == "B" and "guess" not in ans.answer, ans.answer


def test_how_long_at_the_start_is_no_order_question():
    q = parse_question("How long does the blurring at the start last, in seconds?", [], 150.0)
    assert q.kind == "severity"


def test_a_range_written_backwards_is_the_same_window():
    q = parse_question("What is wrong between 2:00 and 1:30?", [], 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(90.0, 120.0)]


def test_options_naming_only_a_part_are_its_thirds(tmp_path):
    q = parse_question("Which third is the worst?", ["beginning", "middle", "end"], 150.0)
    assert [[(w.start_s, w.end_s) for w in o.windows] for o in q.options] == [
        [(0.0, 50.0)], [(50.0, 100.0)], [(100.0, 150.0)]]
    idx = make_index(150.0, [Event("sharpening", 60.0, 90.0, 0.3, 2.0, "halo", {})])
    ans = ask(idx, "Which third is the worst?", ["beginning", "middle", "end"], tmp_path)
    assert ans.choice == "B" and "guess" not in ans.answer, ans.answer


def test_near_the_end_is_vaguer_than_at_the_end():
    near = parse_question("Does the image hang near the end?", [], 150.0).windows[0]
    at = parse_question("Does the image hang at the end?", [], 150.0).windows[0]
    assert (near.start_s, near.end_s) == (112.5, 150.0) and (at.start_s, at.end_s) == (135.0, 150.0)


def test_a_time_past_the_end_is_said(tmp_path):
    ans = ask(make_index(180.0, []), "Is the footage blurry at 3:30?", (), tmp_path)
    assert ans.answer.startswith("The video is only 00:03:00.0 long: '3:30' lies past its end.")


def test_overlapping_events_count_their_seconds_once(tmp_path):
    idx = make_index(200.0, [Event("blur", 0.0, 40.0, 0.6, 2.0, "softness", {}),
                             Event("blur", 30.0, 50.0, 0.6, 2.0, "motion", {})])
    ans = ask(idx, "How long does the blur last?", (), tmp_path)
    assert "lasting 50.0 s" in ans.answer, ans.answer


def test_one_isolated_drop_is_no_trend_and_not_called_stable(tmp_path):
    idx = make_index(180.0, [Event("colour", 95.0, 120.0, 1.0, 3.0, "hue shift", {})])
    ans = ask(idx, "Does the picture quality degrade toward the end of the video?",
              ["Yes", "No"], tmp_path)
    assert ans.choice == "B"
    assert "shows no overall trend over the video, only an isolated drop" in ans.answer, \
        ans.answer


def test_a_level_option_chosen_for_nothing_found_is_said_to_be_the_nearest(tmp_path):
    ans = ask(make_index(150.0, []), "How severe is the blur in this video?",
              ["mild", "moderate", "severe"], tmp_path)
    assert ans.choice == "A" and "None of the options says so; 'mild' is the nearest." \
        in ans.answer, ans.answer


@pytest.mark.parametrize("question,types", [
    ("Is the dark scene noisy?", ["exposure", "noise"]),
    ("Is the blurry part grainy?", ["blur", "noise"]),
    ("Is the bright section blurry?", ["exposure", "blur"]),
    ("Are there washed out colours?", ["colour"]),  # one name, not two
    ("Any salt and pepper noise?", ["noise"]),
])
def test_a_part_named_by_its_look_and_a_second_defect_are_two_mentions(question, types):
    from agent.distortions import distortions
    assert [m.type for m in distortions(question)] == types
