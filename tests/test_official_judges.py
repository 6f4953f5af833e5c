"""The papers' official judges over real HTTP (a scripted judge on 127.0.0.1 giving the scores a
careful judge would), strict parsing of their replies, and the papers' aggregation."""

from __future__ import annotations

import json

import pytest
import scripted_server as ss
from judge_examples import LONGVQU, MMBENCH, QBENCH, CarefulJudge
from typer.testing import CliRunner

from bench.cli import app
from bench.score.judge_client import Judge, JudgeSettings, judge_settings
from bench.score.official import (
    LONGVQU as LVQ_SCORER,
)
from bench.score.official import (
    MMBENCH as MM_SCORER,
)
from bench.score.official import (
    QBENCH as QB_SCORER,
)
from bench.score.official import (
    InvalidReply,
    judge_answer,
    parse_completeness_relevance,
    parse_score,
    prompt_parts,
    round_total,
)

SECRET = "sk-judge-secret-0123456789"


@pytest.fixture()
def judge_server(monkeypatch):
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    careful = CarefulJudge()
    with ss.ScriptedServer([careful] * 200) as srv:
        yield srv, careful


def _judge(srv) -> Judge:
    return Judge(JudgeSettings(model="judge-1", base_url=srv.url, retries=0))


def test_qbench_video_judge_scores_ten_hand_scored_answers(judge_server) -> None:
    srv, _ = judge_server
    judge = _judge(srv)
    for question, ref, answer, rounds in QBENCH:
        got = judge_answer(QB_SCORER, judge, question, ref, answer)
        assert got["rounds"] == rounds
        assert got["score"] == pytest.approx(sum(rounds) / 10)
    assert len(srv.chat_requests) == 5 * len(QBENCH)
    first = srv.chat_requests[0]
    system, user = first.messages[0]["content"], first.messages[1]["content"]
    assert system.startswith("You are a helpful assistant that grades answers related to visual")
    assert user.endswith("Please only provide the result in the following format: Score:")
    assert f'the correct answer ["{QBENCH[0][1]}"]' in user
    assert "temperature" not in first.body  # 5 rounds sample at the endpoint's temperature


def test_paper_example_scores_one_tenth(judge_server) -> None:
    srv, _ = judge_server
    question, ref, answer, _ = QBENCH[0]
    assert judge_answer(QB_SCORER, _judge(srv), question, ref, answer)["score"] == 0.1


def test_mmbench_video_judge_scores_ten_hand_scored_answers(judge_server) -> None:
    srv, _ = judge_server
    judge = _judge(srv)
    got = [judge_answer(MM_SCORER, judge, q, r, a)["score"] for q, r, a, _ in MMBENCH]
    assert got == [float(s) for *_, s in MMBENCH]
    assert srv.chat_requests[0].body["temperature"] == 0.0
    assert "Ground-truth answer: He picks up the package" in \
        srv.chat_requests[0].messages[1]["content"]


def test_longvqubench_judge_scores_ten_hand_scored_answers(judge_server) -> None:
    srv, _ = judge_server
    judge = _judge(srv)
    for q, ref, answer, c, r, _ in LONGVQU:
        got = judge_answer(LVQ_SCORER, judge, q, ref, answer)
        assert (got["completeness"], got["relevance"]) == (c, r)
    user = srv.chat_requests[0].messages[-1]["content"]
    assert user.startswith("You are an evaluator for the Video Quality Understanding open-ended")
    assert f"Answer (from dataset): {LONGVQU[0][1]}" in user
    assert len(srv.chat_requests[0].messages) == 1  # the paper's prompt has no system part


@pytest.mark.parametrize("reply,scale,expected", [
    ("Score: 2", (0, 1, 2), 2), ("score:0", (0, 1, 2), 0), ("**Score:** 1", (0, 1, 2), 1),
    ("1", (0, 1, 2), 1), ("Score: 3", (0, 1, 2, 3), 3), ("The answer is fine.\nScore: 2",
                                                         (0, 1, 2), 2),
])
def test_parse_score_reads_one_score(reply, scale, expected) -> None:
    assert parse_score(reply, scale) == expected


@pytest.mark.parametrize("reply,scale,why", [
    ("Score: 3", (0, 1, 2), "not one of 0, 1, 2"), ("Score: 4", (0, 1, 2, 3), "not one of"),
    ("Score: -1", (0, 1, 2), "not one of"), ("Score: 1.5", (0, 1, 2), "not one of"),
    ("Score: 1\nScore: 2", (0, 1, 2), "several scores"), ("Looks good to me.", (0, 1, 2),
                                                          "no score"),
    ("", (0, 1, 2, 3), "no score"),
])
def test_parse_score_refuses_what_is_off_the_scale(reply, scale, why) -> None:
    with pytest.raises(InvalidReply, match=why):
        parse_score(reply, scale)


def test_parse_completeness_relevance_is_strict() -> None:
    assert parse_completeness_relevance(
        'x {"completeness_score": 0.5, "relevance_score": 0.75} y') == (0.5, 0.75)
    for bad, why in [('{"completeness_score": 1.5, "relevance_score": 1}', "outside 0..1"),
                     ('{"completeness_score": 0.5}', "no relevance"),
                     ('{"completeness_score": "high", "relevance_score": 1}', "not a number"),
                     ("completeness 0.5, relevance 1", "no JSON")]:
        with pytest.raises(InvalidReply, match=why):
            parse_completeness_relevance(bad)


def test_round_total_and_prompt_files() -> None:
    assert round_total([0, 0, 1, 0, 0], 2) == pytest.approx(0.1)
    assert round_total([2] * 5, 2) == 1.0
    for scorer in (QB_SCORER, MM_SCORER, LVQ_SCORER):
        system, user = prompt_parts(scorer.prompt)
        assert "<!--" not in user and "<!--" not in (system or "")


def test_judge_settings_come_from_the_environment(monkeypatch) -> None:
    monkeypatch.delenv("LVQ_JUDGE_MODEL", raising=False)
    assert judge_settings() is None
    monkeypatch.setenv("LVQ_JUDGE_MODEL", "j-2")
    monkeypatch.setenv("LVQ_JUDGE_BASE_URL", "http://127.0.0.1:9/v1")
    s = judge_settings()
    assert (s.model, s.base_url) == ("j-2", "http://127.0.0.1:9/v1")


# ---------------------------------------------------------------- offline re-scoring + summary


def _results(path) -> None:
    """A finished run's results: the 30 hand-scored open answers, one video per question."""
    recs = []
    for k, (q, ref, a, _) in enumerate(QBENCH):
        recs.append({"id": f"qbench_video-test-{k:05d}", "video": f"qb{k % 4}.mp4",
                     "format": "open", "question": q, "gold": ref, "prediction": a})
    for k, (q, ref, a, _) in enumerate(MMBENCH):
        recs.append({"id": f"mmbench_video-{k}", "video": f"mm{k % 3}.mp4", "format": "open",
                     "question": q, "gold": ref, "prediction": a})
    for k, (q, ref, a, _, _, level) in enumerate(LONGVQU):
        recs.append({"id": f"ndqa-{k}", "video": f"lv{k % 5}.mp4", "format": "open",
                     "question": q, "gold": ref, "prediction": a, "level": level})
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))


def test_bench_score_then_summary_aggregates_as_the_papers_do(judge_server, tmp_path,
                                                               monkeypatch) -> None:
    srv, _ = judge_server
    results = tmp_path / "run.jsonl"
    _results(results)
    monkeypatch.setenv("LVQ_JUDGE_MODEL", "judge-1")
    monkeypatch.setenv("LVQ_JUDGE_BASE_URL", srv.url)
    monkeypatch.setenv("LVQ_JUDGE_API_KEY", SECRET)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("LVQ_BERTSCORE_MODEL", "lvq-test/not-cached-model")
    r = CliRunner().invoke(app, ["score", str(results)])
    assert r.exit_code == 0, r.output
    assert "30 open answers: 30 judged now" in r.output
    assert srv.chat_requests[0].headers.get("authorization") == f"Bearer {SECRET}"
    scores = (tmp_path / "run.scores.jsonl").read_text()
    assert SECRET not in scores and "BERTScore missing" not in scores
    again = CliRunner().invoke(app, ["score", str(results)])
    assert "0 judged now" in again.output  # resumes: nothing is asked twice
    assert len(srv.chat_requests) == 5 * 10 + 10 + 10

    r = CliRunner().invoke(app, ["summary", str(results), "--json"])
    assert r.exit_code == 0, r.output
    s = json.loads(r.output)
    qb = s["qbench_video"]["types_concerns"]
    assert qb["Open-ended"]["mean"] == pytest.approx(sum(sum(x[3]) / 10 for x in QBENCH) / 10)
    mm = s["mmbench_video"]["capability_score"]["Overall"]
    assert mm["mean"] == pytest.approx(sum(x[3] for x in MMBENCH) / 10) and mm["n"] == 10
    lv = s["longvqubench"]
    for level in ("LQU", "GQU"):
        rows = [x for x in LONGVQU if x[5] == level]
        assert lv["open_completeness_pct"][level]["mean"] == pytest.approx(
            100 * sum(x[3] for x in rows) / len(rows))
        assert lv["open_relevance_pct"][level]["mean"] == pytest.approx(
            100 * sum(x[4] for x in rows) / len(rows))
    assert lv["open_relevance_pct"]["Overall"]["n"] == 10
    assert lv["open_bertscore_f1"] == {}
    assert any(m.startswith("BERTScore missing: 10 of 10") and "lvq-test/not-cached-model" in m
               for m in lv["missing"])
    text = CliRunner().invoke(app, ["summary", str(results)]).output
    assert "Q-Bench-Video" in text and "MMBench-Video" in text and "BERTScore missing" in text


def test_invalid_replies_and_no_judge_leave_scores_missing(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    results = tmp_path / "run.jsonl"
    _results(results)
    monkeypatch.delenv("LVQ_JUDGE_MODEL", raising=False)
    r = CliRunner().invoke(app, ["score", str(results), "--no-bert"])
    assert r.exit_code == 0 and "no judge endpoint configured" in r.output
    s = json.loads(CliRunner().invoke(app, ["summary", str(results), "--json"]).output)
    assert any("10 answer(s) have no 0/1/2 judge score (no judge endpoint configured" in m
               for m in s["qbench_video"]["missing"])
    assert s["mmbench_video"]["capability_score"] == {}

    off_scale = ([ss.text("Score: 3")] * 10 + [ss.text("Score: 7")] * 10
                 + [ss.text('{"completeness_score": 2, "relevance_score": 1}')] * 10)
    with ss.ScriptedServer(off_scale) as srv:
        r = CliRunner().invoke(app, ["score", str(results), "--no-bert", "--judge-model", "j",
                                     "--judge-base-url", srv.url])
    assert r.exit_code == 0, r.output
    lines = [json.loads(x) for x in (tmp_path / "run.scores.jsonl").read_text().splitlines()]
    bad = [x for x in lines if x.get("error")]
    assert len(bad) == 30 and all(x["score"] is None for x in bad)
    assert "score 3 is not one of 0, 1, 2" in bad[0]["error"]
    assert "completeness 2 is outside 0..1" in bad[-1]["error"]
    s = json.loads(CliRunner().invoke(app, ["summary", str(results), "--json"]).output)
    assert any("10 of 10 open answers unscored (invalid judge replies" in m
               for m in s["longvqubench"]["missing"])


def test_a_dead_judge_endpoint_exits_4_with_one_line(tmp_path, monkeypatch) -> None:
    results = tmp_path / "run.jsonl"
    _results(results)
    monkeypatch.setenv("LVQ_JUDGE_API_KEY", SECRET)
    r = CliRunner().invoke(app, ["score", str(results), "--no-bert", "--judge-model", "j",
                                 "--judge-base-url", "http://127.0.0.1:9/v1"])
    assert r.exit_code == 4 and "judge j at http://127.0.0.1:9/v1" in r.output
    assert SECRET not in r.output
