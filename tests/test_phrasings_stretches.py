"""Questions about the stretches of one type, found misread by the last session-26 probe:
"which stop is the longest? the first / the second / the third", "what is the total frozen
time?", "where is the compression heaviest?", and "when is the flicker worst?" of a video
with no flicker; statements of two timed claims, "only blur", "no defects"."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.kinds import question_kind
from tools.model import Event


def _freezes():
    return make_index(180.0, [Event("freeze", 49.0, 51.0, 0.64, 2.0, "frozen picture", {}),
                              Event("freeze", 90.0, 94.0, 0.86, 3.0, "frozen picture", {}),
                              Event("freeze", 140.0, 148.0, 1.0, 5.0, "frozen picture", {})],
                      fps=5.0)


@pytest.mark.parametrize("question,letter", [
    ("The picture stops moving three times. Which stop is the longest?", "C"),
    ("Which freeze is the shortest?", "A"),
])
def test_the_longest_one_named_by_its_place(tmp_path, question, letter):
    ans = ask(_freezes(), question, ("The first", "The second", "The third"), tmp_path)
    assert ans.choice == letter, ans.answer


def test_the_total_frozen_time(tmp_path):
    assert question_kind("What is the total frozen time?", ["About 6 s", "About 14 s"]) == \
        "cumulative_effect"
    ans = ask(_freezes(), "What is the total frozen time?",
              ("About 6 s", "About 14 s", "About 30 s"), tmp_path)
    assert ans.choice == "B", ans.answer


def test_where_it_is_heaviest_ranks_the_options(tmp_path):
    idx = make_index(180.0, [Event("compression", 14.5, 18.0, 0.31, 2.0, "macroblocking", {}),
                             Event("compression", 81.5, 98.0, 0.35, 2.0, "macroblocking", {}),
                             Event("compression", 127.0, 135.5, 0.48, 3.0, "macroblocking",
                                   {})], fps=5.0)
    ans = ask(idx, "Where is the compression heaviest?", ("0:12-0:26", "1:19-1:39", "2:02-2:24"),
              tmp_path)
    assert ans.choice == "C", ans.answer


def test_the_worst_moment_of_a_type_that_is_not_there(tmp_path):
    ans = ask(_freezes(), "When is the flicker worst?", (), tmp_path)
    assert ans.answer.startswith("No flicker was detected"), ans.answer


def _two_timed():
    return make_index(180.0, [Event("exposure", 13.0, 46.0, 1.0, 4.0, "too bright", {}),
                              Event("blur", 118.5, 133.5, 0.48, 2.0, "softness", {})], fps=5.0)


@pytest.mark.parametrize("question,options,right", [
    ("Which timeline is correct?", ("Brightness issue at 0:13, blur at 1:58",
                                    "Blur at 0:13, brightness issue at 1:58", "Only blur"), 0),
    ("Which best describes the video?", ("Too bright early on, blurry later",
                                         "Blurry early on, too bright later",
                                         "Blurry throughout", "No problems"), 0),
    ("Pick the correct summary.", ("Overexposed in the first quarter, blurry in the second "
                                   "half", "Blurry in the first quarter, overexposed in the "
                                   "second half", "No defects"), 0),
])
@pytest.mark.parametrize("reverse", [False, True])
def test_statements_of_two_timed_claims(tmp_path, question, options, right, reverse):
    opts = tuple(reversed(options)) if reverse else options
    ans = ask(_two_timed(), question, opts, tmp_path)
    assert ans.choice == chr(65 + opts.index(options[right])), ans.answer


def test_only_and_no_defects_as_statements(tmp_path):
    opts = ("Only blur", "No defects", "Blur at 1:58", "Blur at 0:13")
    ans = ask(_two_timed(), "Which statement is correct?", opts, tmp_path)
    assert ans.choice == "C", ans.answer


def _colour_then_blur():
    return make_index(180.0, [Event("colour", 23.5, 48.0, 0.35, 2.0, "oversaturation", {}),
                              Event("blur", 95.0, 127.0, 1.0, 5.0, "softness", {})], fps=5.0)


@pytest.mark.parametrize("question,options", [
    ("Quelle affirmation est correcte ?",
     ("Les couleurs sont trop saturées au début, l'image est floue à la fin",
      "L'image est floue au début, les couleurs sont trop saturées à la fin", "Aucun problème")),
    ("以下哪个说法正确？",
     ("先出现颜色过饱和，后出现模糊", "先出现模糊，后出现颜色过饱和", "没有问题")),
    ("Welche Aussage stimmt?", ("Erst sind die Farben übersättigt, dann ist das Bild unscharf",
                                "Erst ist das Bild unscharf, dann sind die Farben übersättigt",
                                "Keine Probleme")),
])
@pytest.mark.parametrize("reverse", [False, True])
def test_statements_in_other_languages(tmp_path, question, options, reverse):
    opts = tuple(reversed(options[:2])) + options[2:] if reverse else options
    ans = ask(_colour_then_blur(), question, opts, tmp_path)
    assert ans.choice == chr(65 + opts.index(options[0])), ans.answer


def test_single_word_parts_in_german(tmp_path):
    ans = ask(_colour_then_blur(), "In welchem Teil des Videos ist das Bild unscharf?",
              ("Anfang", "Mitte", "Ende"), tmp_path)
    assert ans.choice == "B", ans.answer


def _ends_bad():
    return make_index(180.0, [Event("exposure", 13.0, 46.0, 0.3, 2.0, "too dark", {}),
                              Event("noise", 141.0, 169.0, 0.86, 4.0, "grain", {})], fps=5.0)


def test_which_part_has_the_best_quality_over_part_options(tmp_path):
    q = "Of the three parts (beginning, middle, end), which has the best quality?"
    ans = ask(_ends_bad(), q, ("Beginning", "Middle", "End"), tmp_path)
    assert ans.choice == "B" and "Read 'three'" not in ans.answer, ans.answer


def test_which_is_better_asks_for_the_least(tmp_path):
    ans = ask(_ends_bad(), "Between the first and last minutes, which is better?",
              ("The first minute", "The last minute"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_windows_ranked_best_first(tmp_path):
    ans = ask(_ends_bad(), "Rank these windows from best to worst: 0:10-0:40, 1:00-1:30, "
              "2:20-2:50.", (), tmp_path)
    assert ans.answer.startswith("Ranked, best first: 1. 00:01:00.0-00:01:30.0"), ans.answer
    assert ans.answer.index("00:00:10.0") < ans.answer.index("00:02:20.0"), ans.answer
