"""Scoring: letter extraction, clustered accuracy, temporal IoU, judge parsing and HTTP, and
offline embedding similarity."""

from __future__ import annotations

import itertools
import json
import math
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from bench.items import Item, Span
from bench.scoring import (
    McqResult,
    accuracy,
    accuracy_report,
    clustered_mean,
    extract_choice,
    fill_prompt,
    grade_mcq,
    judge_open,
    judge_prompt,
    load_prompt,
    mean_by,
    merge_spans,
    minilm_token_f1,
    parse_judge_reply,
    semantic_similarities,
    semantic_similarity,
    temporal_iou,
)

OPTS = ["Much higher", "Slightly higher", "About the same", "Much lower"]


@pytest.mark.parametrize(
    ("response", "expected"),
    [
        ("B", "B"),
        ("b", "B"),
        ("B.", "B"),
        ("(B)", "B"),
        ("B) Slightly higher", "B"),
        ("B. Slightly higher", "B"),
        ("The answer is B", "B"),
        ("The answer is B, not C.", "B"),
        ("Answer: b", "B"),
        ("**B**", "B"),
        ("Answer: **c**", "C"),
        ("I choose (D) because the second is darker", "D"),
        ("The best option is (D).", "D"),
        ("B because the first clip is brighter", "B"),
        ("Much lower", "D"),
        ("It is slightly higher than the second.", "B"),
        # refused: absent, ambiguous or out of range
        ("", None),
        (None, None),
        ("A or B", None),
        ("I think it is B or C", None),
        ("Answer: A. Final answer: C", None),
        ("A. Much higher\nB. Slightly higher", None),
        ("Between (A) and (B), hard to say", None),
        ("E", None),
        ("The answer is E", None),
        ("the answer is a mild blur", None),
        ("A blur is visible", None),
    ],
)
def test_extract_choice(response: str | None, expected: str | None) -> None:
    assert extract_choice(response, OPTS) == expected


def test_extract_choice_by_option_text() -> None:
    assert extract_choice("Yes, clearly.", ["Yes", "No"]) == "A"
    assert extract_choice("No, it is not.", ["Yes", "No"]) == "B"
    assert extract_choice("Very poor", ["Poor", "Very poor"]) == "B"
    assert extract_choice("not very poor, just poor", ["Poor", "Very poor"]) is None
    assert extract_choice("C", n_options=2) is None
    assert extract_choice("C", n_options=3) == "C"


_IDS = itertools.count()


def _r(video: str, correct: bool | None, level: str = "LQU", dim: str = "detection") -> McqResult:
    pred = None if correct is None else ("A" if correct else "B")
    return McqResult(f"q{next(_IDS)}", video, "A", pred, level, dim)


def test_accuracy_hand_computed() -> None:
    # v1: right, right; v2: wrong, unanswered; v3: right.
    rs = [_r("v1", True), _r("v1", True), _r("v2", False), _r("v2", None), _r("v3", True)]
    acc = accuracy(rs)
    assert (acc.n, acc.answered, acc.correct, acc.videos) == (5, 4, 3, 3)
    assert acc.acc == pytest.approx(0.6)
    assert acc.acc_answered == pytest.approx(0.75)
    # residual sums per video: 0.8, -1.2, 0.4 -> sqrt(3/2 * 2.24) / 5
    assert acc.se == pytest.approx(math.sqrt(1.5 * 2.24) / 5)
    # answered: v1 0.5, v2 -0.75, v3 0.25 -> sqrt(3/2 * 0.875) / 4
    assert acc.se_answered == pytest.approx(math.sqrt(1.5 * 0.875) / 4)


def test_clustering_changes_the_standard_error() -> None:
    values = [1.0, 1.0, 0.0, 0.0, 1.0]
    mean, se_one_video_each = clustered_mean(values, ["a", "b", "c", "d", "e"])
    sd = math.sqrt(sum((v - 0.6) ** 2 for v in values) / 4)
    assert mean == pytest.approx(0.6)
    assert se_one_video_each == pytest.approx(sd / math.sqrt(5))
    _, se_clustered = clustered_mean(values, ["v1", "v1", "v2", "v2", "v3"])
    assert se_clustered > se_one_video_each
    assert math.isnan(clustered_mean(values, ["x"] * 5)[1])
    assert math.isnan(clustered_mean([], [])[0])


def test_accuracy_report_per_level_and_dimension() -> None:
    rs = [
        _r("v1", True, "LQU", "detection"),
        _r("v1", False, "LQU", "localization"),
        _r("v2", True, "GQU", "trend"),
        _r("v3", None, "GQU", "trend"),
        _r("v4", True, "CQR", "comparison"),
    ]
    rep = accuracy_report(rs)
    assert list(rep["level"]) == ["LQU", "CQR", "GQU"]
    assert list(rep["dimension"]) == ["detection", "localization", "comparison", "trend"]
    assert rep["overall"].acc == pytest.approx(0.6)
    assert rep["level"]["LQU"].acc == pytest.approx(0.5)
    assert rep["level"]["GQU"].acc == pytest.approx(0.5)
    assert rep["level"]["GQU"].acc_answered == pytest.approx(1.0)
    assert rep["dimension"]["trend"].answered == 1


def test_grade_mcq_from_item() -> None:
    item = Item(
        id="q",
        benchmark="b",
        videos=["v.mp4"],
        question="?",
        format="mcq",
        options=OPTS,
        gold="D",
        tags={"level": "CQR", "dimension": "comparison"},
    )
    r = grade_mcq(item, "The answer is D.")
    assert r.correct and r.level == "CQR" and r.dimension == "comparison"
    assert not grade_mcq(item, "no idea").answered


@pytest.mark.parametrize(
    ("pred", "gold", "iou"),
    [
        ([(0, 10)], [(0, 10)], 1.0),
        ([(0, 10)], [(20, 30)], 0.0),
        ([(0, 10)], [(5, 15)], 5 / 15),
        ([(0, 5), (10, 15)], [(0, 15)], 10 / 15),
        ([(0, 6), (4, 10)], [(0, 10)], 1.0),  # overlapping predictions merge, not double count
        ([(0, 4), (6, 10)], [(2, 8)], 4 / 10),
        ([], [], 1.0),
        ([], [(0, 1)], 0.0),
        ([(3, 3)], [(0, 1)], 0.0),
    ],
)
def test_temporal_iou(pred, gold, iou) -> None:
    assert temporal_iou(pred, gold) == pytest.approx(iou)
    assert temporal_iou(gold, pred) == pytest.approx(iou)


def test_span_forms() -> None:
    spans = [Span(start_s=10, end_s=20), {"start_s": 15, "end_s": 25}, {"start": 40, "end": 50}]
    assert merge_spans(spans) == [(10.0, 25.0), (40.0, 50.0)]
    assert temporal_iou([{"start": 10, "end": 25}], spans) == pytest.approx(15 / 25)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('{"completeness_score": 0.5, "relevance_score": 0.75}', (0.5, 0.75)),
        ('```json\n{\n  "completeness_score": 1,\n  "relevance_score": 0.25\n}\n```', (1.0, 0.25)),
        ("Scores: {'completeness_score': 0.0, 'relevance_score': 1.0}", (0.0, 1.0)),
        ('{"completeness": "0.5", "relevance": "75%"}', (0.5, 0.75)),
        ("Completeness score: 0.5\nRelevance Score: 0.75", (0.5, 0.75)),
        ("**Completeness_score**: 1.0, **relevance_score**: 0.5", (1.0, 0.5)),
        ('{"completeness_score": 7, "relevance_score": 0.5}', (None, 0.5)),
        ("I cannot evaluate this.", (None, None)),
        ("", (None, None)),
    ],
)
def test_parse_judge_reply(reply: str, expected) -> None:
    assert parse_judge_reply(reply) == expected


def test_prompts_have_the_documented_placeholders() -> None:
    mcq = load_prompt("uniform_mcq.md")
    for key in ("duration_s", "fps", "num_frames", "question", "choices", "letters"):
        assert "{" + key + "}" in mcq
    filled = fill_prompt(
        load_prompt("uniform_open.md"), duration_s=120, fps=1, num_frames=120, question="Why?"
    )
    assert "120 seconds" in filled and "Why?" in filled and "{" not in filled
    with pytest.raises(KeyError):
        fill_prompt(mcq, question="only one")
    jp = judge_prompt("When is it blurry?", "At 10-20 s.", "Around 15 s.")
    assert "When is it blurry?" in jp and "At 10-20 s." in jp and "Around 15 s." in jp
    assert '"completeness_score"' in jp and "{response}" not in jp


class _ChatHandler(BaseHTTPRequestHandler):
    """A loopback OpenAI-compatible /chat/completions endpoint with a canned judge reply."""

    requests: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append({"path": self.path, "body": body})
        content = 'Here you go:\n```json\n{"completeness_score": 0.5, "relevance_score": 1.0}\n```'
        payload = json.dumps(
            {
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:
        pass


def test_judge_open_over_loopback_http(monkeypatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    server = HTTPServer(("127.0.0.1", 0), _ChatHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        score = judge_open(
            "Which half is blurrier?",
            "The second half, from 60 s on.",
            "The second half.",
            model="judge-model",
            base_url=f"http://127.0.0.1:{server.server_port}/v1",
        )
    finally:
        server.shutdown()
        server.server_close()
    assert score.ok and (score.completeness, score.relevance) == (0.5, 1.0)
    req = _ChatHandler.requests[-1]
    assert req["path"] == "/v1/chat/completions"
    assert req["body"]["model"] == "judge-model"
    prompt = req["body"]["messages"][0]["content"]
    assert "Which half is blurrier?" in prompt and "The second half, from 60 s on." in prompt


def test_mean_by_groups_and_skips_missing() -> None:
    out = mean_by([1.0, 0.5, None, 0.0], ["v1", "v1", "v2", "v3"], ["LQU", "LQU", "GQU", "GQU"])
    assert out["overall"][0] == pytest.approx(0.5) and out["overall"][2] == 3
    assert out["LQU"][0] == pytest.approx(0.75) and out["GQU"][2] == 1


@pytest.fixture(scope="module")
def offline():
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("TRANSFORMERS_OFFLINE", "1")
        yield


def test_semantic_similarity_offline(offline) -> None:
    ref = "The video becomes blurry in the middle section."
    para = "Halfway through, the footage turns out of focus."
    unrelated = "The recipe needs two cups of flour and an egg."
    close, far = semantic_similarities([para, unrelated], [ref, ref])
    assert close > far + 0.2
    assert semantic_similarity(ref, ref) == pytest.approx(1.0, abs=1e-4)
    same = minilm_token_f1(ref, ref)
    assert same.f1 == pytest.approx(1.0, abs=1e-4)
    assert minilm_token_f1(para, ref).f1 > minilm_token_f1(unrelated, ref).f1
    assert minilm_token_f1("", ref).f1 == 0.0
