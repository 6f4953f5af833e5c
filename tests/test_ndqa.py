"""NDQA generator: seeded plans, needle layouts per level, balanced items with exact gold."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from bench import questions_ndqa as Q
from bench.cli import app
from bench.items import MCQ_DIMENSIONS, load_items
from bench.ndqa import GQU_PATTERNS, NdqaConfig, plan_videos
from bench.questions_ndqa import SEGMENT_S, build_items, summary


def make(seed: int = 7, videos: int = 30, minutes: float = 3.0, **kw):
    cfg = NdqaConfig(videos=videos, minutes=minutes, seed=seed, **kw)
    plans = plan_videos(cfg)
    return plans, build_items(plans, cfg.seed, cfg.pool, cfg.per_dimension, cfg.open_per_video)


@pytest.fixture(scope="module")
def full():
    return make()


def test_same_seed_same_set_other_seed_other_set(full):
    plans, items = full
    plans2, items2 = make()
    assert [p.to_dict() for p in plans] == [p.to_dict() for p in plans2]
    assert [i.model_dump() for i in items] == [i.model_dump() for i in items2]
    plans3, items3 = make(seed=8)
    assert [p.to_dict() for p in plans3] != [p.to_dict() for p in plans]
    assert len({i.id for i in items}) == len(items) == 300


def test_levels_and_needles_follow_the_design(full):
    plans, _ = full
    assert Counter(p.level for p in plans) == {"LQU": 10, "CQR": 10, "GQU": 10}
    for p in plans:
        assert p.duration_s == 180.0
        for n in p.needles:  # needles sit on 15-second segment boundaries
            assert n.start_s % SEGMENT_S == 0 and n.end_s % SEGMENT_S == 0
            assert 0 <= n.start_s < n.end_s <= p.duration_s and n.level in (1, 2, 3)
        if p.level == "LQU":
            assert len(p.needles) == 1 and p.needles[0].end_s - p.needles[0].start_s == 15
        if p.level == "CQR":
            assert 2 <= len(p.needles) <= 4
            cats = [n.category for n in p.needles]
            assert all(not Q.confusable(a, b) for i, a in enumerate(cats) for b in cats[i + 1:])
            starts = sorted(n.start_s for n in p.needles)
            assert all(b - a >= 2 * SEGMENT_S for a, b in zip(starts, starts[1:], strict=False))
            top = max(n.level for n in p.needles)
            assert sum(n.level == top for n in p.needles) == 1
    assert {p.pattern for p in plans if p.level == "GQU"} == set(GQU_PATTERNS)
    used = {n.distortion for p in plans for n in p.needles}
    assert len(used) >= 16  # the whole table-S5 pool is drawn from


def test_every_dimension_balanced_letters_and_yes_no(full):
    _, items = full
    s = summary(items)
    assert s["mcq"] == 240 and s["open"] == 60
    dims = Counter(i.tags["dimension"] for i in items)
    for d in MCQ_DIMENSIONS:
        assert dims[d.key] == 20, d.key
    assert abs(s["yes_no"]["Yes"] - s["yes_no"]["No"]) <= 2
    by_n: dict[int, Counter] = {}
    for it in items:
        if it.format == "mcq" and it.tags["dimension"] != "severity_comfort":
            by_n.setdefault(len(it.options), Counter())[it.gold] += 1
    for n, counts in by_n.items():
        assert len(counts) == n and max(counts.values()) - min(counts.values()) <= 2, (n, counts)


def test_gold_answers_match_the_needles(full):
    plans, items = full
    by_key = {p.key: p for p in plans}
    for it in items:
        p = by_key[it.tags["video_key"]]
        dim = it.tags["dimension"]
        gold = it.gold_text
        if dim == "localization":
            nd = p.needles[0]
            assert Q.clock(nd.start_s) in gold and Q.clock(nd.end_s) in gold
            assert [(s.start_s, s.end_s) for s in it.spans] == [(nd.start_s, nd.end_s)]
        elif dim == "classification":
            assert gold == Q.label(p.needles[0].distortion, p.needles[0].level)
        elif dim == "severity_comfort":
            assert it.gold == "ABC"[p.needles[0].level - 1]
        elif dim == "dominant_factor":
            top = Q.dominant_of(p)
            assert gold == (Q.label(top.distortion, top.level) if top else Q.NO_DISTORTION)
        elif dim == "trend" and it.question_type != "yes_no":
            assert gold == Q.TREND_OPTIONS[Q.trend_of(p)]
        elif dim == "temporal_relation" and it.tags.get("order") == "first":
            first = min(p.needles, key=lambda n: n.start_s)
            assert gold == Q.label(first.distortion, first.level)
        elif dim == "cumulative_effect" and "target_count" in it.tags:
            assert it.tags["target_count"] == len(p.needles)
        if it.format == "open":
            assert it.gold and it.options == []
        assert it.distortions == [] if not p.needles else len(it.distortions) == len(p.needles)


def test_questions_read_naturally(full):
    _, items = full
    texts = [i.question for i in items]
    assert not any("  " in t or "{" in t or " a a" in t for t in texts)
    assert not any(t.startswith(("Is there any frame drops", "Is there any dropped")) for t in
                   texts)  # plural nouns take plural verbs
    assert len({t for t in texts if t.startswith("When")}) >= 3  # several phrasings
    for it in items:  # one question per video is never asked twice
        same = [j for j in items if j.videos == it.videos and j.question == it.question]
        assert len(same) == 1


def test_cli_items_only_and_manifest(tmp_path):
    res = CliRunner().invoke(app, ["ndqa", "--out", str(tmp_path), "--videos", "6",
                                   "--minutes", "1", "--seed", "3", "--items-only"])
    assert res.exit_code == 0, res.output
    items, errors = load_items(tmp_path / "items.jsonl")
    assert not errors and len(items) == 60
    man = json.loads((tmp_path / "manifest.json").read_text())
    assert man["config"]["seed"] == 3 and len(man["videos"]) == 6
    assert man["summary"]["items"] == 60
    assert {v["level"] for v in man["videos"]} == {"LQU", "CQR", "GQU"}


@pytest.mark.parametrize("args", [
    ["--minutes", "0.5"], ["--pool", "gaussian_blur,no_such_thing"], ["--levels", "XYZ"],
    ["--videos", "0"], ["--size", "big"],
])
def test_cli_bad_input_is_one_line(tmp_path, args):
    res = CliRunner().invoke(app, ["ndqa", "--out", str(tmp_path), "--items-only", *args])
    assert res.exit_code == 2
    assert "Traceback" not in res.output and res.output.count("error:") == 1


def test_pool_and_needle_levels_restrict_the_needles():
    pool = ("gaussian_blur", "gaussian_noise", "jpeg", "flicker", "frame_drop", "jitter")
    plans, items = make(seed=4, videos=12, pool=pool, needle_levels=(2, 3))
    needles = [n for p in plans for n in p.needles]
    assert needles and {n.distortion for n in needles} <= set(pool)
    assert {n.level for n in needles} <= {2, 3}
    for p in plans:
        if p.level == "CQR":
            top = max(n.level for n in p.needles)
            assert sum(n.level == top for n in p.needles) == 1
    assert len(items) == 120
    with pytest.raises(ValueError, match="two needle levels"):
        NdqaConfig(needle_levels=(3,)).check()


def test_order_options_name_each_distortion_once(full):
    _, items = full
    order = [i for i in items if i.question.startswith("In what order")]
    assert order
    for it in order:
        assert "They occur at the same time" in it.options
        first, second = (o for o in it.options if "comes first" in o or "come first" in o)
        assert first.split(" first, then ")[1] != second.split(" first, then ")[1]
        assert "(" not in first
