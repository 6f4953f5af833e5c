"""Phrasings left misread after session 28's probes: "between the first and the second
minute" (in four languages), a level word in a sentence of context, and a part named in a
sentence of context for an "X or Y?" question."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent import times
from agent.language import read
from tools.model import Event


@pytest.mark.parametrize("question,window", [
    ("Ist das Bild zwischen der ersten und der zweiten Minute verpixelt?", (60, 120)),
    ("¿Hay pixelación entre el primer y el segundo minuto?", (60, 120)),
    ("第一分钟和第二分钟之间有马赛克吗？", (60, 120)),
    ("Entre la première et la deuxième minute, l'image est-elle floue ?", (60, 120)),
    ("Is there blur between the first and the third minute?", (60, 180)),
])
def test_between_two_ordinal_minutes_is_the_stretch_between_their_marks(question, window):
    wins = times.windows(read(question).gloss, 180.0)
    assert [(w.start_s, w.end_s) for w in wins] == [window], wins


@pytest.mark.parametrize("question", [
    "Is there a quality difference between the first and the second minute?",
    "Was ist der Unterschied zwischen der ersten und der zweiten Minute?",
    "Is there blur in the first and the second minute?",
])
def test_two_ordinal_minutes_compared_stay_two_windows(question):
    wins = times.windows(read(question).gloss, 180.0)
    assert [(w.start_s, w.end_s) for w in wins] == [(0, 60), (60, 120)], wins


def _drop_late():
    return make_index(180.0, [Event("frame_drop", 141.7, 164.5, 0.67, 2.0, "frame-rate drop",
                                    {"effective_fps": 6.7})], fps=5.0)


def test_a_level_word_in_the_context_is_no_claim(tmp_path):
    # the context says "heavily"; the question only asks whether it stutters there
    ans = ask(_drop_late(), "Beim Schwenk gegen Ende hab ich das Gefühl, dass es stark ruckelt. "
              "Ruckelt das Video in der zweiten Hälfte?",
              ("Ja, es ruckelt", "Nein, alles flüssig"), tmp_path)
    assert ans.choice == "A", ans.answer


def test_a_level_word_in_the_asking_sentence_still_claims(tmp_path):
    ans = ask(_drop_late(), "Ruckelt das Video stark in der zweiten Hälfte?", ("Ja", "Nein"),
              tmp_path)
    assert ans.choice == "B" and "not severe" in ans.answer, ans.answer


def test_a_context_level_claim_a_question_refers_to_still_counts(tmp_path):
    ans = ask(_drop_late(), "The stutter near the end looks severe to me. Is it?", (), tmp_path)
    assert ans.answer.startswith("No") and "not severe" in ans.answer, ans.answer


def _drop_early():
    return make_index(180.0, [Event("frame_drop", 31.0, 44.2, 0.8, 2.0, "frame-rate drop",
                                    {"effective_fps": 6.0}),
                              Event("blur", 114.3, 142.0, 0.9, 3.0, "softness", {})], fps=5.0)


@pytest.mark.parametrize("question,options", [
    ("Mon collègue dit que ça saute un peu au début. C'est du saccadé ou du flou ?",
     ("saccadé", "flou", "ni l'un ni l'autre")),
    ("It seems to jump a little at the beginning. Is it stutter or blur?",
     ("stutter", "blur", "neither")),
])
def test_x_or_y_at_a_part_in_words_takes_a_defect_starting_just_after_it(question, options,
                                                                         tmp_path):
    ans = ask(_drop_early(), question, options, tmp_path)
    assert ans.choice == "A", ans.answer
    assert "00:00:31.0" in ans.answer, ans.answer


def test_x_or_y_at_a_part_with_nothing_near_is_neither(tmp_path):
    ans = ask(_drop_early(), "Is it stutter or blur at the end?", ("stutter", "blur", "neither"),
              tmp_path)
    assert ans.choice == "C", ans.answer
