"""Phrasings a probe of fresh questions on the ffmpeg track found unread (session 23): tone
words of other languages ("dunkler", "se oscurece", "plus claire", "变亮"), "what goes wrong
first", and "which freeze lasts the longest?" (one event picked by its length)."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import make_index

from agent.questions import parse_question
from tools.model import Event


@pytest.mark.parametrize(("question", "subtype"), [
    ("Wann wird das Bild dunkler?", "too dark"),
    ("¿En qué momento la imagen se oscurece?", "too dark"),
    ("Quand l'image devient-elle plus sombre ?", "too dark"),
    ("Wann wird das Bild heller?", "too bright"),
    ("¿Cuándo la imagen se vuelve más brillante?", "too bright"),
    ("¿Cuándo se aclara demasiado la imagen?", "too bright"),
    ("Quand l'image devient-elle plus claire ?", "too bright"),
    ("视频的画面什么时候变亮？", "too bright"),
])
def test_tone_words_in_other_languages(question, subtype):
    q = parse_question(question, [], 180.0)
    assert (q.type, q.subtype, q.kind, q.unknown) == ("exposure", subtype, "localization", [])


def test_losing_sharpness_with_the_subject_between_verb_and_object():
    q = parse_question("Wann verliert das Bild an Schärfe?", [], 180.0)
    assert (q.type, q.kind) == ("blur", "localization")


@pytest.mark.parametrize("question", [
    "What goes wrong first: the shaking or the flickering?",
    "Which goes bad earlier, the grain or the blur?",
    "Does the blur or the noise show up sooner?",
])
def test_goes_wrong_first_asks_for_the_order(question):
    assert parse_question(question, [], 180.0).kind == "temporal_relation"


def _freezes():
    return make_index(180.0, [Event("freeze", 56.0, 58.0, 0.6, 3.0, "frozen picture", {}),
                              Event("freeze", 66.5, 70.2, 0.8, 4.0, "frozen picture", {}),
                              Event("freeze", 125.7, 132.9, 0.7, 5.0, "frozen picture", {})])


def test_which_freeze_lasts_the_longest_names_that_one_and_its_length(tmp_path):
    assert parse_question("Which freeze lasts the longest?", [], 180.0).kind == "localization"
    ans = ask(_freezes(), "Which freeze lasts the longest?", (), tmp_path)
    assert "00:02:05.7" in ans.answer and "00:00:56.0" not in ans.answer, ans.answer
    assert "7.2 s, the longest of 3" in ans.answer
    ans = ask(_freezes(), "When is the shortest freeze?", (), tmp_path)
    assert "00:00:56.0" in ans.answer and "2.0 s, the shortest of 3" in ans.answer


def test_which_freeze_is_longest_picks_the_option_at_its_time(tmp_path):
    opts = ("From 0:55 to 1:00", "From 1:05 to 1:12", "From 2:04 to 2:15")
    ans = ask(_freezes(), "Which freeze lasts the longest?", opts, tmp_path)
    assert ans.choice == "C", ans.answer


def test_how_long_is_the_longest_still_asks_for_a_length():
    # answered by the severity reader, which states the duration
    assert parse_question("How long is the longest freeze?", [], 180.0).kind != "localization"


@pytest.mark.parametrize("question", ["Is the footage clean enough to publish?",
                                      "Does anything look off in this cartoon?",
                                      "Is the webcam recording OK?",
                                      "Is this clip good enough to upload?",
                                      "Is the video acceptable for broadcast?"])
def test_fitness_for_use_words_are_not_unknown_quality_terms(question):
    q = parse_question(question, ["Yes", "No"], 180.0)
    assert q.unknown == [] and q.kind in ("detection", "overall")


@pytest.mark.parametrize("question", ["Are there any coding artefacts, and where?",
                                      "Any encoding artifacts?",
                                      "Are there transcoding artefacts?"])
def test_coding_artefacts_are_compression(question):
    assert parse_question(question, [], 180.0).type == "compression"


def test_the_other_type_of_a_comparison_gets_its_level_word(tmp_path):
    from agent.brains.local.levels import events_level, level_word

    comp = {"type": "compression", "subtype": "blocking", "severity": 0.69}
    idx = make_index(180.0, [Event("blur", 96.0, 119.0, 0.59, 4.0, "softness", {}),
                             Event("compression", 48.0, 71.0, 0.69, 4.0, "blocking", {})])
    ans = ask(idx, "Is the blockiness worse than the blur?", ("Yes", "No"), tmp_path)
    other = "blur" if ans.answer.startswith("The most severe distortion is compression") \
        else "compression artifacts"
    assert f"The {other} is" in ans.answer or f"The {other} are" in ans.answer, ans.answer
    if other == "compression artifacts":  # its level in words, not a bare severity
        word = level_word(0.69, events_level([comp]))
        assert f"are {word} at their worst (severity 0.69" in ans.answer, ans.answer


@pytest.mark.parametrize("question", ["Rate the noise from 1 (invisible) to 5 (overwhelming).",
                                      "How would you rate the blur, 1-5?",
                                      "Score the flicker from 0 to 10.",
                                      "How overexposed is the video, from 0 to 10?"])
def test_rating_one_named_distortion_asks_for_its_severity(question):
    assert parse_question(question, [], 180.0).kind == "severity"


@pytest.mark.parametrize("question", ["Rate the overall quality from 1 to 5.",
                                      "Rate the video quality."])
def test_rating_the_whole_video_stays_overall(question):
    assert parse_question(question, [], 180.0).kind == "overall"


def _grain(severity: float):
    return make_index(180.0, [Event("noise", 130.0, 165.0, severity, 3.0, "grain", {})])


def test_a_rated_distortion_is_said_on_the_scale_asked_for(tmp_path):
    from agent.brains.local.levels import events_level

    lv = events_level([{"type": "noise", "subtype": "grain", "severity": 0.3}])
    ans = ask(_grain(0.3), "Rate the noise from 1 (invisible) to 5 (overwhelming).", (),
              tmp_path)
    assert f"On a 1-5 scale (1 none, 5 the most severe): {round(1 + lv / 3 * 4, 1):g}." \
        in ans.answer, ans.answer
    opts = ("1", "2", "3", "4", "5")
    ans = ask(_grain(0.3), "On a scale of 1 to 5, how noisy is the video?", opts, tmp_path)
    assert ans.choice == "ABCDE"[int(round(1 + lv / 3 * 4)) - 1], ans.answer
    # none found: the bottom of the scale
    none = ask(make_index(180.0, []), "Score the noise from 0 to 10.", (), tmp_path)
    assert none.answer.endswith("On a 0-10 scale (0 none, 10 the most severe): 0."), none.answer


@pytest.mark.parametrize("question", ["Welche Störung dominiert?", "Welcher Fehler überwiegt?",
                                      "Quelle distorsion domine ?",
                                      "¿Qué distorsión predomina?"])
def test_dominates_in_other_languages(question):
    assert parse_question(question, [], 180.0).kind == "dominant_factor"


@pytest.mark.parametrize("question", ["What is the most annoying defect?",
                                      "Quel est le défaut le plus gênant ?",
                                      "¿Qué defecto es el más molesto?",
                                      "Is the blur more annoying than the noise?"])
def test_most_annoying_ranks_the_distortions(question):
    assert parse_question(question, [], 180.0).kind == "comparison"


@pytest.mark.parametrize(("question", "window"), [
    ("Is there blur shortly before the end?", (162.0, 180.0)),
    ("Is there noise right before the end of the video?", (162.0, 180.0)),
    ("Does it freeze just after the start?", (0.0, 18.0)),
])
def test_shortly_before_the_end_is_a_window_not_an_order(question, window):
    q = parse_question(question, [], 180.0)
    assert q.kind == "detection" and [(w.start_s, w.end_s) for w in q.windows] == [window]


def _blurs():
    return make_index(180.0, [Event("blur", 28.0, 60.0, 0.7, 3.0, "softness", {}),
                              Event("blur", 132.0, 147.0, 0.9, 3.0, "softness", {})])


def test_only_in_a_window_is_no_when_it_is_also_elsewhere(tmp_path):
    ans = ask(_blurs(), "Is the blur only in the last minute?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B" and "but not only there: also blur" in ans.answer, ans.answer
    assert "00:00:28.0" in ans.answer
    plain = ask(_blurs(), "Is there blur in the last minute?", ("Yes", "No"), tmp_path)
    assert plain.choice == "A"
    one = make_index(180.0, [Event("blur", 132.0, 147.0, 0.9, 3.0, "softness", {})])
    assert ask(one, "Is the blur confined to the last minute?", ("Yes", "No"),
               tmp_path).choice == "A"


@pytest.mark.parametrize("question", ["Is there no flicker at all?", "Are there no freezes?",
                                      "Are there not any freezes?",
                                      "Does the video show no flicker?"])
def test_is_there_no_x_asks_whether_it_is_absent(question):
    q = parse_question(question, ["Yes", "No"], 180.0)
    assert q.kind == "detection" and q.absent


def test_is_there_no_flicker_is_no_when_there_is(tmp_path):
    idx = make_index(180.0, [Event("flicker", 122.0, 144.0, 0.7, 3.0, "", {})])
    assert ask(idx, "Is there no flicker at all?", ("Yes", "No"), tmp_path).choice == "B"
    assert ask(idx, "Is there no blur?", ("Yes", "No"), tmp_path).choice == "A"


def test_when_is_there_no_flicker_gives_the_free_stretches(tmp_path):
    idx = make_index(180.0, [Event("flicker", 122.0, 144.0, 0.7, 3.0, "", {})])
    ans = ask(idx, "When is there no flicker?", (), tmp_path)
    assert ans.answer.startswith("Free of flicker: 00:00:00.0 to 00:02:02.0"), ans.answer


def test_time_between_the_first_and_the_last_freeze(tmp_path):
    q = "How much time passes between the first and the last freeze?"
    assert parse_question(q, [], 180.0).kind == "temporal_relation"
    ans = ask(_freezes(), q, (), tmp_path)
    assert "From the end of the first frozen picture (00:00:58.0) to the start of the last " \
           "(00:02:05.7): 00:01:07.7" in ans.answer, ans.answer
    opts = ("About 10 seconds", "About 1 minute", "About 2 minutes")
    gap = ask(_freezes(), "How long is the gap between the second and the third freeze?",
              opts, tmp_path)
    assert gap.choice == "B" and "(00:01:10.2) to the start of the third" in gap.answer


def test_before_or_after_an_instant_with_options(tmp_path):
    idx = make_index(180.0, [Event("noise", 140.5, 170.0, 0.8, 3.0, "grain", {})])
    ans = ask(idx, "Does the noise start before or after 2:00?", ("Before", "After"), tmp_path)
    assert ans.choice == "B" and ans.answer.startswith("After 00:02:00.0"), ans.answer


def test_a_ten_minute_block_is_a_part_of_the_video_not_blocking():
    q = parse_question("Which ten-minute block has the worst quality?", [], 1800.0)
    assert q.kind == "comparison" and q.types == []
    assert parse_question("Are there blocks in the picture?", [], 180.0).type == "compression"
    assert parse_question("Which 30-second block is the blockiest?", [], 180.0).type \
        == "compression"


@pytest.mark.parametrize(("question", "window"), [
    ("Is there blur in the 30 seconds after 1:00?", (60.0, 90.0)),
    ("Is there noise in the ten seconds before 2:00?", (110.0, 120.0)),
    ("Is there blur in the first 10% of the video?", (0.0, 18.0)),
    ("Is there blur in the last 25 percent?", (135.0, 180.0)),
])
def test_spans_named_by_length_or_share(question, window):
    q = parse_question(question, [], 180.0)
    assert [(round(w.start_s, 1), round(w.end_s, 1)) for w in q.windows] == [window]


SETS = ("Blur only", "Brightness only", "Both blur and brightness", "Neither")


def test_options_that_are_sets_with_only_both_neither(tmp_path):
    both = make_index(180.0, [Event("blur", 43.0, 68.0, 0.8, 3.0, "softness", {}),
                              Event("exposure", 112.0, 133.0, 0.4, 2.0, "too bright", {})])
    q = "Which problems appear in the video?"
    assert ask(both, q, SETS, tmp_path).choice == "C"
    one = make_index(180.0, [Event("blur", 43.0, 68.0, 0.8, 3.0, "softness", {})])
    assert ask(one, q, SETS, tmp_path).choice == "A"
    assert ask(make_index(180.0, []), q, SETS, tmp_path).choice == "D"


def _soft_and_bright():
    return make_index(180.0, [Event("blur", 43.0, 68.0, 0.84, 3.0, "softness", {}),
                              Event("exposure", 112.0, 133.0, 0.4, 2.0, "too bright", {})])


def test_shares_of_the_video_claimed_by_a_yes_no_question(tmp_path):
    idx = _soft_and_bright()
    more = ask(idx, "Does more than half of the video have problems?", ("Yes", "No"), tmp_path)
    assert more.choice == "B" and "covers 26% of the video (46 s of 180 s)" in more.answer
    assert ask(idx, "Is most of the video blurry?", ("Yes", "No"), tmp_path).choice == "B"
    assert ask(idx, "Is the video blurry for more than 10% of the time?", ("Yes", "No"),
               tmp_path).choice == "A"
    assert ask(idx, "Is the video mostly clean?", ("Yes", "No"), tmp_path).choice == "A"


def test_a_level_claimed_with_yes_no_options_is_judged(tmp_path):
    from agent.brains.local.levels import events_level, level_word

    word = level_word(0.84, events_level([{"type": "blur", "subtype": "softness",
                                           "severity": 0.84}]))
    ans = ask(_soft_and_bright(), "Is the blur barely noticeable?", ("Yes", "No"), tmp_path)
    assert ans.choice == ("A" if word == "mild" else "B"), ans.answer
    assert ask(_soft_and_bright(), "Is there blur?", ("Yes", "No"), tmp_path).choice == "A"


def _dark_then_noisy():
    return make_index(180.0, [Event("exposure", 13.5, 46.5, 0.5, 2.0, "too dark", {}),
                              Event("noise", 140.5, 170.0, 0.86, 3.0, "grain", {})])


@pytest.mark.parametrize("question", ["Is the dark part also noisy?", "Is the dark scene noisy?",
                                      "Is the noisy part also dark?",
                                      "Is the grainy section dark as well?"])
def test_a_part_named_by_its_defect_is_where_the_other_is_looked_for(tmp_path, question):
    ans = ask(_dark_then_noisy(), question, ("Yes", "No"), tmp_path)
    assert ans.choice == "B" and "elsewhere" in ans.answer, ans.answer
    both = make_index(180.0, [Event("exposure", 13.5, 46.5, 0.5, 2.0, "too dark", {}),
                              Event("noise", 20.0, 40.0, 0.86, 3.0, "grain", {})])
    assert ask(both, question, ("Yes", "No"), tmp_path).choice == "A"


def test_the_start_or_the_end_are_two_windows_of_a_comparison():
    q = parse_question("Is the noise heavier at the start or at the end?", [], 180.0)
    assert q.kind == "comparison" and len(q.windows) == 2
    q = parse_question("Which is better, the start or the end?", [], 180.0)
    # the two ends set against each other are its first and last thirds (session 25)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 60.0), (120.0, 180.0)]


@pytest.mark.parametrize(("question", "types"), [
    ("Is the dark clip noisy?", ["exposure", "noise"]),
    ("Which part is dark?", ["exposure"]),
    ("Is it dark and noisy?", ["exposure", "noise"]),
])
def test_dark_as_a_predicate_names_darkness(question, types):
    assert [m.type for m in parse_question(question, [], 180.0).types] == types
