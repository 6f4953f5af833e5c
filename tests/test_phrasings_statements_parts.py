"""Benchmark-style option sets a probe on the ffmpeg track found misread (session 24): options
that are parts of the video ("At the beginning", "In the middle", "Towards the end"),
statements to judge ("The video gets darker around 0:15-0:45"), "compared with A, is B
worse?", two sections named in the question ("the first section"), and "when does it appear
first?"."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.brains.local.claims import reference_first
from agent.questions import parse_question
from tools.model import Event

PARTS = ("At the beginning", "In the middle", "Towards the end", "Throughout the video")


def test_part_options_split_the_video_into_thirds():
    q = parse_question("In which part of the video does the picture become blurry?", PARTS,
                       1800.0)
    spans = [(w.start_s, w.end_s) for o in q.options for w in o.windows]
    assert spans == [(0.0, 600.0), (600.0, 1200.0), (1200.0, 1800.0)]


def test_a_blur_in_the_first_third_is_at_the_beginning(tmp_path):
    idx = make_index(1800.0, [Event("blur", 327.0, 361.5, 0.58, 3.0, "softness", {})])
    ans = ask(idx, "In which part of the video does the picture become blurry?", PARTS,
              tmp_path)
    assert ans.choice == "A", ans.answer


def _dark_then_noisy():
    return make_index(180.0, [Event("exposure", 13.5, 46.5, 0.3, 2.0, "too dark", {}),
                              Event("noise", 140.5, 170.0, 0.86, 5.0, "grain", {})])


STATEMENTS = ("The video gets darker around 0:15-0:45", "The video is noisy around 0:15-0:45",
              "The video is blurry at the end", "The video has no problems")


def test_statements_are_each_judged_against_the_events(tmp_path):
    q = parse_question("Which statement is true?", STATEMENTS, 180.0)
    assert q.kind == "classification"
    ans = ask(_dark_then_noisy(), "Which statement is true?", STATEMENTS, tmp_path)
    assert ans.choice == "A", ans.answer  # not the noise, the strongest event, elsewhere


def test_which_statement_is_false_picks_the_one_least_borne_out(tmp_path):
    opts = ("The video gets darker around 0:15-0:45", "The video is noisy near the end",
            "The video is blurry between 1:00 and 1:30")
    q = parse_question("Which of these statements is false?", opts, 180.0)
    assert (q.kind, q.unknown) == ("classification", [])
    ans = ask(_dark_then_noisy(), "Which of these statements is false?", opts, tmp_path)
    assert ans.choice == "C", ans.answer


def test_statements_of_types_at_one_time_pick_the_type_there(tmp_path):
    opts = ("Noise appears between 2:20 and 2:50", "Blur appears between 2:20 and 2:50",
            "Flicker appears between 2:20 and 2:50")
    ans = ask(_dark_then_noisy(), "Which of the following is correct?", opts, tmp_path)
    assert ans.choice == "A", ans.answer


@pytest.mark.parametrize(("question", "first_is_reference"), [
    ("Compared with the first half, is the second half noisier?", True),
    ("In comparison with the start, is the end darker?", True),
    ("Relative to the blur, is the noise worse?", True),
    ("Is the first half noisier than the second half?", False),
])
def test_the_reference_of_a_comparison(question, first_is_reference):
    q = parse_question(question, ("Yes", "No"), 180.0)
    first = min([w.pos for w in q.windows] + [m.pos for m in q.types])
    assert reference_first(q.text, first) == first_is_reference


@pytest.mark.parametrize(("question", "choice"), [
    ("Compared with the first half, is the second half of the video noisier?", "A"),
    ("Compared with the first half, is the second half of the video less noisy?", "B"),
    ("Is the first half noisier than the second half?", "B"),
    ("Is the second half noisier than the first half?", "A"),
])
def test_a_yes_no_comparison_claims_of_its_subject(tmp_path, question, choice):
    ans = ask(_dark_then_noisy(), question, ("Yes", "No"), tmp_path)
    assert ans.choice == choice, ans.answer
    assert "00:01:30.0-00:03:00.0 is the more severe" in ans.answer


@pytest.mark.parametrize(("question", "choice"), [
    ("Compared with the darkness, is the noise more severe?", "A"),
    ("Is the darkness more severe than the noise?", "B"),
])
def test_a_yes_no_type_comparison_claims_of_its_subject(tmp_path, question, choice):
    ans = ask(_dark_then_noisy(), question, ("Yes", "No"), tmp_path)
    assert ans.choice == choice, ans.answer


def _damage():
    return make_index(180.0, [Event("corruption", 70.7, 78.7, 0.87, 5.0, "decoder errors", {}),
                              Event("corruption", 102.7, 112.2, 1.0, 6.0, "decoder errors", {})])


@pytest.mark.parametrize(("question", "options", "choice", "said"), [
    ("At roughly what time do decoding errors appear first?", ("0:30", "1:12", "1:44", "2:30"),
     "B", "00:01:10.7"),
    ("When does the picture corruption first appear?", (), None, "00:01:10.7"),
    ("When do decoding errors appear for the last time?", (), None, "00:01:42.7"),
    ("When is the corruption seen last?", (), None, "00:01:42.7"),
])
def test_appearing_first_or_last_is_that_one_event(tmp_path, question, options, choice, said):
    assert parse_question(question, options, 180.0).kind == "localization"
    ans = ask(_damage(), question, options, tmp_path)
    assert ans.choice == choice and said in ans.answer, ans.answer
    other = "00:01:42.7" if said == "00:01:10.7" else "00:01:10.7"
    assert other not in ans.answer.split("It is the")[0], ans.answer


def test_how_long_a_freeze_lasts_is_still_a_length_question():
    assert parse_question("How long does the freeze last?", (), 180.0).kind == "severity"
    assert parse_question("Which appears first, the blur or the noise?", (),
                          180.0).kind == "temporal_relation"


@pytest.mark.parametrize(("options", "spans"), [
    (("The first section", "The second section", "They are about the same"),
     [[(40.0, 70.0)], [(130.0, 150.0)], []]),
    (("The former", "The latter"), [[(40.0, 70.0)], [(130.0, 150.0)]]),
])
def test_options_pointing_back_at_the_questions_sections(options, spans):
    q = parse_question("Which is worse: the section from 0:40 to 1:10 or the section from "
                       "2:10 to 2:30?", options, 180.0)
    assert [[(w.start_s, w.end_s) for w in o.windows] for o in q.options] == spans


def test_the_worse_of_two_named_sections_is_chosen_by_its_place(tmp_path):
    idx = make_index(180.0, [Event("blur", 39.0, 72.0, 0.9, 5.0, "softness", {}),
                             Event("exposure", 129.0, 147.0, 0.4, 2.0, "low contrast", {})])
    question = ("Which is worse: the section from 2:10 to 2:30 or the section from 0:40 to "
                "1:10?")
    ans = ask(idx, question, ("The first section", "The second section"), tmp_path)
    assert ans.choice == "B", ans.answer


@pytest.mark.parametrize(("question", "span"), [
    ("Is there any blur between one and two minutes?", (60.0, 120.0)),
    ("Is it noisy from thirty to ninety seconds?", (30.0, 90.0)),
    ("Is there flicker between 1 and 2 minutes?", (60.0, 120.0)),
])
def test_spelt_numbers_in_a_range(question, span):
    q = parse_question(question, ("Yes", "No"), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [span]
    assert "  " not in q.windows[0].label


def test_whens_is_when():
    assert parse_question("whens the blurry bit?", (), 180.0).kind == "localization"


@pytest.mark.parametrize(("option", "span"), [
    ("[30, 60]", (30.0, 60.0)), ("[43.5, 68.0]", (43.5, 68.0)), ("(0:30, 1:00)", (30.0, 60.0)),
    ("[30s, 60s]", (30.0, 60.0)),
])
def test_interval_notation_in_options(option, span):
    q = parse_question("When does the blur occur?", (option, "[150, 170]"), 180.0)
    assert [(w.start_s, w.end_s) for w in q.options[0].windows] == [span]


def test_a_pair_of_numbers_in_parentheses_is_no_interval():
    assert parse_question("Rate the blur, options (1, 2)", (), 180.0).windows == []


@pytest.mark.parametrize(("question", "spans"), [
    ("Is the second minute cleaner than the first?", [(60.0, 120.0), (0.0, 60.0)]),
    ("Is the first half noisier than the second?", [(0.0, 90.0), (90.0, 180.0)]),
    ("Which is worse, the last third or the first?", [(120.0, 180.0), (0.0, 60.0)]),
])
def test_the_unit_said_once_holds_for_both_parts(question, spans):
    q = parse_question(question, ("Yes", "No"), 180.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == spans


def test_edges_too_crisp_are_over_sharpened():
    q = parse_question("Where are the edges too crisp?", (), 180.0)
    assert (q.type, q.least) == ("sharpening", False)


def test_the_best_thumbnail_asks_for_the_cleanest_part():
    q = parse_question("Which part would make the best thumbnail?", (), 180.0)
    assert q.least and q.unknown == []
