"""Question shapes outside the templates, as people write them: each maps to the kind, type and
windows its words ask for (found by trying a few hundred free phrasings on track videos)."""

from __future__ import annotations

import pytest
from test_local_brain import ask
from test_toolbox import BLUR, FLICKER, make_index

from agent.questions import parse_question


@pytest.mark.parametrize(("question", "kind", "etype"), [
    ("Are frames being dropped at some point?", "detection", "frame_drop"),
    ("Are any frames getting skipped?", "detection", "frame_drop"),
    ("Does the video look too warm?", "detection", "colour"),
    ("Is the image too cold and blue?", "detection", "colour"),
    ("When does the picture turn green?", "localization", "colour"),
    ("Does the image jump at some point?", "detection", "jitter"),
    ("Which distortion lasts the longest?", "dominant_factor", None),
    ("What is the first problem that appears?", "temporal_relation", None),
    ("Is the ending more blurry than the opening?", "comparison", "blur"),
    ("画面在哪里模糊？", "localization", "blur"),
    ("¿La imagen está borrosa?", "detection", "blur"),
    ("Das Bild flackert?", "detection", "flicker"),
])
def test_shapes(question, kind, etype):
    q = parse_question(question, [], 600.0)
    assert (q.kind, q.type) == (kind, etype), q.text
    assert not q.unknown


@pytest.mark.parametrize("question", ["When does the quality drop?",
                                      "Is there a sudden drop in quality?",
                                      "Where does the picture quality dip?"])
def test_a_quality_drop_is_a_generic_question_not_an_unknown_word(question):
    q = parse_question(question, [], 600.0)
    assert q.type is None and q.unknown == []


def test_both_ends_are_windows_of_a_comparison():
    # set against each other, the two ends are the video's first and last thirds (a noise at
    # 0:22-0:51 of 3 minutes is "at the start" then); one end alone stays its first tenth
    q = parse_question("Is the ending more blurry than the opening?", [], 600.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(400.0, 600.0), (0.0, 200.0)]
    q = parse_question("Is the beginning sharper than the end?", [], 600.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 200.0), (400.0, 600.0)]
    q = parse_question("Is there noise at the start?", [], 600.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 60.0)]
    q = parse_question("Is the picture worse at the start or in the middle?", [], 600.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [(0.0, 60.0), (270.0, 330.0)]


def test_lasting_longest_counts_time_not_severity(tmp_path):
    from tools.model import Event
    long_mild = Event("noise", 10.0, 110.0, 0.25, 1.0, "grain", {})
    idx = make_index(events=[long_mild, FLICKER])  # flicker: 10 s at 0.8 (8 s-weighted)
    opts = ["Noise", "Flicker", "Blur"]
    assert ask(idx, "Which distortion lasts the longest?", opts, tmp_path).choice == "A"
    assert ask(idx, "Which distortion dominates?", opts, tmp_path).choice == "A"
    short_bad = make_index(events=[Event("noise", 10.0, 30.0, 0.25, 1.0, "grain", {}),
                                   FLICKER])
    assert ask(short_bad, "Which distortion lasts the longest?", opts, tmp_path).choice == "A"
    assert ask(short_bad, "What is the dominant distortion?", opts, tmp_path).choice == "B"


def test_the_same_type_in_two_windows_names_the_worse_window(tmp_path):
    idx = make_index(events=[BLUR, FLICKER])  # blur 1:00-1:15 of 3:20
    ans = ask(idx, "Is the first half blurrier than the second half?", ["Yes", "No"], tmp_path)
    assert ans.choice == "A" and ans.answer.startswith("The blur at 00:00:00.0-00:01:40.0")
    none = ask(idx, "Is the ending noisier than the opening?", tmp_path=tmp_path)
    assert none.answer.startswith("No: no lasting noise")  # a yes/no question: its no


@pytest.mark.parametrize(("question", "bounds"), [
    ("Is the longest freeze longer than 5 seconds?", (5.0, None)),
    ("Does the video ever stop moving for more than 3 seconds?", (3.0, None)),
    ("Are there freezes of at least two seconds?", (2.0, None)),
    ("Is any freeze shorter than 3 s?", (None, 3.0)),
    ("Does the picture freeze for over 1.5 minutes?", (90.0, None)),
])
def test_a_duration_bound_is_no_comparison(question, bounds):
    q = parse_question(question, [], 180.0)
    assert q.kind == "detection" and q.type == "freeze" and (q.least_s, q.most_s) == bounds


@pytest.mark.parametrize(("question", "strict"), [
    ("Would this video pass QC?", True), ("Is it good enough to broadcast?", True),
    ("Is the quality acceptable?", False), ("Is the video watchable?", False),
])
def test_qc_and_acceptable_questions(question, strict, tmp_path):
    q = parse_question(question, [], 200.0)
    assert q.kind == "overall"
    mild = make_index(events=[BLUR])  # one blur stretch: 15 s of 200, a good grade
    ans = ask(mild, question, ["Yes", "No"], tmp_path)
    assert ans.choice == ("B" if strict else "A")
    assert ask(mild, question, tmp_path=tmp_path).answer.startswith("No" if strict else "Yes")
    assert ask(make_index(), question, ["Yes", "No"], tmp_path).choice == "A"


def test_mild_moderate_or_severe_asks_the_level(tmp_path):
    q = parse_question("Is the flicker mild, moderate or severe?", [], 200.0)
    assert (q.kind, q.type) == ("severity", "flicker")
    ans = ask(make_index(events=[BLUR, FLICKER]), "Is the flicker mild, moderate or severe?",
              tmp_path=tmp_path)
    assert ans.answer.startswith("The flicker is ")


@pytest.mark.parametrize("question", ["Is the video clean?",
                                      "Is the clip clean between 1:00 and 1:20?",
                                      "Does the video look fine?", "Is the clip flawless?"])
def test_a_clean_claim_is_answered_by_the_absence_of_events(question, tmp_path):
    assert ask(make_index(), question, ["Yes", "No"], tmp_path).choice == "A"
    assert ask(make_index(events=[BLUR]), question, tmp_path=tmp_path).answer.startswith("No")


def test_artifacts_alone_name_no_type_but_artifacting_is_compression():
    assert parse_question("Are there any artifacts?", [], 180.0).type is None
    assert parse_question("Is there artifacting?", [], 180.0).type == "compression"
    assert parse_question("Does the stream have errors?", [], 180.0).type == "corruption"


@pytest.fixture
def pair():
    from tools.model import Event
    return make_index(duration=180.0, events=[
        Event("exposure", 13.5, 46.5, 0.3, 1.0, "too dark", {}),
        Event("noise", 140.5, 170.0, 0.86, 1.0, "grain", {})])


def test_order_of_two_named_types_in_words(pair, tmp_path):
    ans = ask(pair, "Does the noise come before or after the darkening?", tmp_path=tmp_path)
    assert ans.answer.startswith("The exposure problems come first (from 00:00:13.5), the "
                                 "noise later (from 00:02:20.5), 00:01:34.0 after")
    assert ask(pair, "Do the noise and the darkening overlap?",
               tmp_path=tmp_path).answer.startswith("No. ")
    gap = ask(pair, "How much time passes between the noise and the dark part?",
              tmp_path=tmp_path)
    assert "00:01:34.0 after" in gap.answer


def test_which_lasts_longer_compares_time(pair, tmp_path):
    assert ask(pair, "Is the dark part longer than the noisy part?", ["Yes", "No"],
               tmp_path).choice == "A"
    assert ask(pair, "Does the noise last longer than the darkening?", ["Yes", "No"],
               tmp_path).choice == "B"
    which = ask(pair, "Which lasts longer, the noise or the dark part?", tmp_path=tmp_path)
    assert which.answer.startswith("The exposure problems last longer.")
    # "Is A or B ...?" asks which, not whether: no yes/no lead
    either = ask(pair, "Is the noise or the dark part longer?", tmp_path=tmp_path)
    assert either.answer.startswith("The exposure problems last longer.")
    short = ask(pair, "Which is shorter, the noise or the dark part?", tmp_path=tmp_path)
    assert short.answer.startswith("The noise lasts a shorter time.")


@pytest.mark.parametrize(("question", "kind"), [
    ("What fraction of the video is affected?", "cumulative_effect"),
    ("How much of the clip is degraded?", "cumulative_effect"),
    ("Is the video mostly fine?", "overall"),
    ("What should I fix first?", "dominant_factor"),
    ("How dark does it get?", "severity"),
])
def test_more_free_shapes(question, kind):
    q = parse_question(question, [], 180.0)
    assert q.kind == kind and not q.unknown, q.text


def test_the_share_of_the_video(pair, tmp_path):
    ans = ask(pair, "What fraction of the video is affected?", tmp_path=tmp_path)
    assert "62 s in all (35% of the video)" in ans.answer


def test_two_types_named_in_the_question_are_compared(pair, tmp_path):
    ans = ask(pair, "Which is more severe, the dark part or the noise?", tmp_path=tmp_path)
    assert ans.answer.startswith("The most severe distortion is noise")
    assert ask(pair, "Is the darkening worse than the noise?", ["Yes", "No"],
               tmp_path).choice == "B"
    assert ask(pair, "Is the noise worse than the darkening?", ["Yes", "No"],
               tmp_path).choice == "A"


@pytest.mark.parametrize(("question", "etype"), [
    ("Are skin tones wrong anywhere?", "colour"), ("Do the faces look unnatural?", "colour"),
])
def test_skin_tones(question, etype):
    assert parse_question(question, [], 180.0).type == etype


def test_what_happens_at_an_instant_names_the_event(pair, tmp_path):
    ans = ask(pair, "What happens at 0:20?", tmp_path=tmp_path)
    assert "exposure problems" in ans.answer and "too dark" in ans.answer


def test_every_phrase_of_the_vocabulary_has_flat_balanced_groups():
    """The phrase syntax has no nested groups: "(a|is (b|c))" would silently match nothing."""
    import tomllib

    from agent.vocabulary import VOCAB_PATH

    def phrases(x):
        if isinstance(x, str):
            yield x
        elif isinstance(x, list):
            for i in x:
                yield from phrases(i)
        elif isinstance(x, dict):
            for v in x.values():
                yield from phrases(v)

    bad = []
    for p in phrases(tomllib.loads(VOCAB_PATH.read_text(encoding="utf-8"))):
        if p.startswith("re:"):
            continue
        depth = 0
        for ch in p:
            depth += ch in "([" and 1 or ch in ")]" and -1 or 0
            if depth > 1 or depth < 0:
                bad.append(p)
                break
        else:
            if depth:
                bad.append(p)
    assert bad == []


@pytest.mark.parametrize(("question", "absent"), [
    ("Is the frame rate constant?", True), ("Does the frame rate change?", False),
    ("Does the motion become less fluid at some point?", False),
])
def test_frame_rate_words(question, absent):
    q = parse_question(question, [], 180.0)
    assert (q.kind, q.type, q.absent) == ("detection", "frame_drop", absent)


def test_a_typed_trend_follows_that_type_only(tmp_path):
    from tools.model import Event
    idx = make_index(duration=180.0, events=[
        Event("blur", 28.0, 60.0, 0.66, 1.0, "softness", {}),
        Event("blur", 77.0, 102.0, 0.81, 1.0, "softness", {}),
        Event("blur", 132.0, 147.0, 0.92, 1.0, "softness", {}),
        Event("noise", 5.0, 20.0, 1.0, 1.0, "grain", {})])
    blur = ask(idx, "Does the blur get worse over time?", ["Yes", "No"], tmp_path)
    assert blur.choice == "A" and blur.answer.startswith("Yes. The blur is growing")
    noise = ask(idx, "Does the flicker get worse over time?", ["Yes", "No"], tmp_path)
    assert noise.choice == "B" and noise.answer.startswith("No flicker was found")


def test_darker_is_not_answered_by_a_picture_made_too_bright(tmp_path):
    from tools.model import Event
    idx = make_index(events=[Event("exposure", 9.0, 26.0, 1.0, 1.0, "too bright", {})])
    assert ask(idx, "Does the picture get darker at some point?", ["Yes", "No"],
               tmp_path).choice == "B"
    assert ask(idx, "Is the video too bright anywhere?", ["Yes", "No"], tmp_path).choice == "A"
    assert ask(idx, "Is there an exposure problem?", ["Yes", "No"], tmp_path).choice == "A"
    flat = make_index(events=[Event("exposure", 9.0, 26.0, 0.8, 1.0, "low contrast", {})])
    assert ask(flat, "Is the picture too dark anywhere?", ["Yes", "No"], tmp_path).choice == "A"
    text = ask(idx, "Does the picture get darker at some point?", tmp_path=tmp_path).answer
    assert text.startswith("No: no exposure problems were detected")


@pytest.mark.parametrize(("option", "etype"), [
    ("Dark image", "exposure"), ("Bright picture", "exposure"),
    ("Exposure fluctuation", "flicker"), ("Sudden brightness changes", "flicker"),
    ("Washed-out colours", "colour"), ("Green tint", "colour"), ("Low frame rate", "frame_drop"),
    ("Decoding errors", "corruption"), ("Soft picture", "blur"), ("Banding", "compression"),
])
def test_option_wordings(option, etype):
    q = parse_question("What kind of distortion is visible between 1:00 and 1:15?",
                       [option, "Flicker"], 180.0)
    assert q.options[0].types[0].type == etype


@pytest.mark.parametrize(("question", "kind", "absent"), [
    ("Ist das Video sauber?", "detection", True), ("La vidéo est-elle propre ?", "detection", True),
    ("¿El vídeo está limpio?", "detection", True), ("视频干净吗？", "detection", True),
    ("Welcher Anteil des Videos ist betroffen?", "cumulative_effect", False),
    ("Quelle part de la vidéo est affectée ?", "cumulative_effect", False),
    ("视频有多少比例受到影响？", "cumulative_effect", False),
    ("Ist die Qualität akzeptabel?", "overall", False),
])
def test_new_shapes_in_other_languages(question, kind, absent):
    q = parse_question(question, [], 180.0)
    assert (q.kind, q.absent) == (kind, absent), q.text


def test_brightness_itself_names_no_direction(tmp_path):
    from tools.model import Event
    idx = make_index(events=[Event("exposure", 13.5, 46.5, 0.3, 1.0, "too dark", {})])
    assert ask(idx, "Does the brightness look wrong between 0:13 and 0:46?", ["No", "Yes"],
               tmp_path).choice == "B"


@pytest.mark.parametrize(("question", "window"), [
    ("Is there blur after the first minute?", (60.0, 600.0)),
    ("Is there any noise past the first two minutes?", (120.0, 600.0)),
    ("Is there blur before the last 30 seconds?", (0.0, 570.0)),
    ("Is there blur halfway through?", (270.0, 330.0)),
    ("Does it freeze at the midpoint?", (270.0, 330.0)),
])
def test_the_rest_of_the_video_and_its_middle(question, window):
    q = parse_question(question, [], 600.0)
    assert q.kind == "detection" and [(w.start_s, w.end_s) for w in q.windows] == [window]


def test_a_duration_of_at_least_is_no_time_in_the_video():
    q = parse_question("Is there a freeze of at least 5 seconds?", [], 180.0)
    assert q.windows == [] and q.least_s == 5.0 and not q.least


@pytest.mark.parametrize(("question", "ranks"), [
    ("When does the second freeze happen?", [(2, "freeze")]),
    ("Where is the last glitch?", [(-1, "corruption")]),
    ("Is the first freeze shorter than the last?", [(1, "freeze"), (-1, "freeze")]),
    ("Is there blur in the first half?", []),
    ("Which comes first, the blur or the noise?", []),
])
def test_ranked_events(question, ranks):
    assert parse_question(question, [], 180.0).ranks == ranks


def test_two_types_in_one_yes_no_question(pair, tmp_path):
    either = ask(pair, "Is the clip blurry or noisy?", tmp_path=tmp_path)
    assert either.answer.startswith("Noise. In the video") and "blur: none" in either.answer
    assert ask(pair, "Is the clip blurry or noisy?", ["Yes", "No"], tmp_path).choice == "A"
    assert ask(pair, "Does the video have both noise and darkening?", ["Yes", "No"],
               tmp_path).choice == "A"
    assert ask(pair, "Does the video have both noise and blur?", ["Yes", "No"],
               tmp_path).choice == "B"
    at = ask(pair, "Is it noise or blur at 2:30?", tmp_path=tmp_path)
    assert at.answer.startswith("Noise. Between 00:02:28.0")


@pytest.mark.parametrize(("question", "window"), [
    ("Is there blur in the 15th minute?", (840.0, 900.0)),
    ("Is there blur in the second hour?", (3600.0, 7200.0)),
    ("Is there blur at 1h05m?", (3898.0, 3902.0)),
    ("Is there blur at 1 hour 5 minutes?", (3898.0, 3902.0)),
    ("Is there blur in minutes 10 to 15?", (600.0, 900.0)),
    ("Is there blur from minute 20 to minute 25?", (1200.0, 1500.0)),
    ("Is there blur during the credits?", (7140.0, 7200.0)),
    ("Is there blur in minute 3?", (120.0, 180.0)),
])
def test_times_in_long_videos(question, window):
    q = parse_question(question, [], 7200.0)
    assert [(w.start_s, w.end_s) for w in q.windows] == [window]
