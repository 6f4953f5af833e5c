"""Questions in words nobody wrote the rules for: word forms, trade jargon by type, counting,
duration, growth and absence shapes, spoken times. One test per class of misreading found on
an independently phrased question set (its wordings are not reused here)."""

from __future__ import annotations

import pytest
from test_toolbox import make_index

from agent.questions import parse_question
from agent.run import answer_question
from agent.wordforms import stem
from tools.model import Event

YN = ["Yes", "No"]


def parsed(question: str, options=YN, duration: float = 180.0):
    return parse_question(question, list(options), duration)


# ---------------------------------------------------------------- misread type: word forms

@pytest.mark.parametrize(("question", "etype"), [
    ("Is the picture pixelating near 1:00?", "compression"),  # "pixelated" listed
    ("Were frames dropped at 0:40?", "frame_drop"),           # "dropped frames" listed
    ("Does the image soften around 0:40?", "blur"),           # "softened" listed
    ("Is the footage flickering lights at 1:10?", "flicker"),
])
def test_other_forms_of_a_listed_word_are_recognised(question, etype):
    assert parsed(question).type == etype


def test_a_word_form_never_reaches_a_shorter_base_word():
    # "darkness" is listed for underexposure; the plain "dark" of a scene is no defect
    q = parsed("In the dark forest scene, is there noise?")
    assert [m.type for m in q.types] == ["noise"]
    assert stem("darkness") == stem("dark")  # the stems alone would have matched


# ---------------------------------------------------------------- misread type: jargon

@pytest.mark.parametrize(("question", "etype"), [
    ("Is there a loss of definition around 1:10?", "blur"),
    ("Are the whites clipping in the second half?", "exposure"),
    ("Does the scene look gloomy near the end?", "exposure"),
    ("Are there raised blacks at 0:50?", "exposure"),
    ("Is there a greenish tinge at 2:00?", "colour"),
    ("Has the video gone monochrome by 1:30?", "colour"),
    ("Does the image sparkle between 0:10 and 0:20?", "noise"),
    ("Is it a bad encode in the first minute?", "compression"),
    ("Is there fringing along the edges at 1:20?", "sharpening"),
    ("Does the picture lock up at 1:05?", "freeze"),
    ("Is the motion steppy in the last minute?", "frame_drop"),
    ("Is the lighting pulsing at 0:30?", "flicker"),
    ("Is the footage quivering at 0:45?", "jitter"),
    ("Are there jaggies on moving edges?", "interlace"),
    ("Are there dropouts around 1:12?", "corruption"),
])
def test_trade_words_of_each_type(question, etype):
    assert parsed(question).type == etype


def test_stutter_accepts_frame_drops():
    m = parsed("Is there micro-stutter at 0:30?").types[0]
    assert "frame_drop" in m.accepts


# ---------------------------------------------------------------- wrong answer kind

@pytest.mark.parametrize("question", [
    "Tally up how many stalls occur.", "What's the count of glitches?",
    "Count up the freezes, please.", "How often does the picture hang?",
])
def test_counting_shapes(question):
    assert parsed(question, ["1", "2", "3"]).kind in ("cumulative_effect", "integration")


@pytest.mark.parametrize("question", [
    "For how many minutes is it shaky?", "Over how long does the grain persist?",
    "What is the length of the frozen section?",
])
def test_duration_shapes(question):
    q = parsed(question, ["About 5 seconds", "About 20 seconds", "About 1 minute"])
    assert q.kind == "severity" and "how long" in q.text


@pytest.mark.parametrize(("question", "claim"), [
    ("Does the footage grow grainier later on?", "degrading"),
    ("Is the macroblocking getting heavier as the video continues?", "degrading"),
    ("Does the image turn crisper towards the end?", "improving"),
])
def test_growth_shapes_are_trends_over_the_whole_video(question, claim):
    q = parsed(question)
    assert q.kind == "trend" and q.claim == claim and q.windows == []


def test_a_side_of_an_instant_is_a_window_not_an_order():
    q = parsed("Is there noise after 1:30?")
    assert q.kind == "detection" and q.window.span == (90.0, 180.0)


@pytest.mark.parametrize("question", [
    "Is it noisier at 2:00 than at 0:30?", "Is the opening half crisper than the closing half?",
])
def test_comparatives_apart_from_than_compare(question):
    q = parsed(question)
    assert q.kind == "comparison" and len(q.windows) == 2


def test_a_quality_comparative_claims_better():
    assert "better than" in parsed("Is the opening half crisper than the closing half?").text


@pytest.mark.parametrize(("question", "options", "kind"), [
    ("At which moment does the picture start breaking up?", ["0:10-0:20", "1:00-1:10"],
     "localization"),
    ("Does the picture quality tail off toward the end?", YN, "trend"),
    ("Is the footage heading downhill over the clip?", YN, "trend"),
    ("How does the picture hold up over the whole runtime?",
     ["It declines", "It improves", "It stays constant"], "trend"),
    ("What drags the picture down most?", ["Blur", "Noise", "Flicker"], "dominant_factor"),
])
def test_kinds_by_structure(question, options, kind):
    assert parsed(question, options).kind == kind


def test_a_growth_word_at_an_explicit_time_stays_a_detection():
    assert parsed("Does the picture get darker at 1:10?").kind == "detection"


@pytest.mark.parametrize(("question", "absent"), [
    ("Is 1:00-1:20 free from flicker?", True), ("Is the intro judder-free?", True),
    ("Is the stretch 0:10-0:30 without any grain?", True),
    ("Is there flicker between 1:00 and 1:20?", False),
])
def test_yes_no_questions_asking_for_absence(question, absent):
    q = parsed(question)
    assert q.kind == "detection" and q.absent is absent


@pytest.mark.parametrize("question", [
    "Which of the following ranges is unaffected?", "Which span looks pristine?",
    "Which of these windows has no visible flaws?",
])
def test_which_window_is_clean_asks_for_the_least(question):
    q = parsed(question, ["0:10-0:20", "1:00-1:10", "2:00-2:10"])
    assert q.kind == "comparison" and q.least


# ---------------------------------------------------------------- misread time

@pytest.mark.parametrize(("question", "span"), [
    ("Is there blur around the 3-minute mark?", (165, 195)),  # a loose whole minute
    ("Any noise at the 45 second mark?", (43, 47)),
    ("Is it soft half a minute in?", (28, 32)),
    ("Is it soft a minute and a half in?", (88, 92)),
    ("Is it blurry at 1m05?", (63, 67)),
    ("Is there grain from 2:00 onwards?", (120, 240)),
    ("Is there grain from 1:00 to the end?", (60, 240)),
    ("Is there grain up to 0:45?", (0, 45)),
    ("Is the picture shaky early on?", (0, 80)),
    ("Is the picture shaky late in the clip?", (160, 240)),
    ("Any flicker in minute 3?", (120, 180)),
    ("Any grain in the last 20s?", (220, 240)),
    ("Is it soft between 1 and 2 minutes?", (60, 120)),
    ("Is it soft at roughly 95s?", (93, 97)),
    ("Any blur in the 2nd half?", (120, 240)),
    ("Any blur in the closing seconds?", (230, 240)),
])
def test_spoken_times(question, span):
    w = parsed(question, duration=240.0).windows
    assert len(w) == 1 and (round(w[0].start_s), round(w[0].end_s)) == span


# ---------------------------------------------------------------- end to end, local brain

def ask(idx, question, options, tmp_path):
    return answer_question(idx.info.path, question, list(options), index=idx,
                           cache_dir=tmp_path, max_steps=12)


def test_absence_question_answers_yes_only_when_nothing_is_there(tmp_path):
    idx = make_index(events=[Event("flicker", 60.0, 80.0, 0.8, 20.0, "brightness oscillation")])
    assert ask(idx, "Is 1:00-1:20 free from strobing?", YN, tmp_path).choice == "B"
    assert ask(idx, "Is 2:00-2:20 free from strobing?", YN, tmp_path).choice == "A"


def test_which_window_is_clean_picks_the_clean_one(tmp_path):
    idx = make_index(events=[Event("noise", 20.0, 40.0, 0.9, 9.0, "grain"),
                             Event("blur", 100.0, 120.0, 0.7, 5.0, "softness")])
    opts = ["0:22 - 0:38", "1:02 - 1:18", "1:42 - 1:58"]
    assert ask(idx, "Which of the following ranges is unaffected?", opts, tmp_path).choice == "B"


def test_counting_freezes_counts_them(tmp_path):
    idx = make_index(events=[Event("freeze", s, s + 3.0, 0.8, 3.0, "") for s in (30, 90, 150)])
    assert ask(idx, "Tally up how many stalls occur.", ["1", "2", "3", "4"],
               tmp_path).choice == "C"


def test_frame_drops_answer_a_stutter_question(tmp_path):
    idx = make_index(events=[Event("frame_drop", 70.0, 72.0, 0.7, 8.0, "repeated frames")])
    ans = ask(idx, "At what point does playback micro-stutter?",
              ["0:10 - 0:13", "1:09 - 1:13", "2:30 - 2:33"], tmp_path)
    assert ans.choice == "B"


def test_phrases_use_the_data_files_own_optional_syntax():
    # "(a )?b" is regex, not phrase syntax (optional words are "[a] b"): it never matches
    from agent.vocabulary import vocabulary
    bad = [p for g in vocabulary().data["phrases"] for lang in ("en", "de", "fr", "es")
           for p in g.get(lang, ()) if ")?" in p and not p.startswith("re:")]
    assert bad == []


def test_optional_words_in_new_phrases_match_with_and_without_them():
    assert parsed("Is the picture lacking fine detail at 1:00?").type == "blur"
    assert parsed("Is there digital garbage at 1:00?").type == "corruption"


@pytest.mark.parametrize(("question", "spans"), [
    ("Is the last third blurrier than the first one?", [(160, 240), (0, 80)]),
    ("Is the opening half noisier than the other?", [(0, 120), (120, 240)]),
])
def test_a_part_named_once_is_understood_when_its_noun_is_left_out(question, spans):
    w = parsed(question, duration=240.0).windows
    assert [(round(x.start_s), round(x.end_s)) for x in w] == spans

