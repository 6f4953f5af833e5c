"""Two-video items (Q-Bench-Video's "a.mp4_cat_b.mp4"): compared from measured events, given
half the frames each on the uniform track, skipped with a reason where unsupported; a run
never stops on them."""

from __future__ import annotations

import json

import pytest
import scripted_server as ss
from typer.testing import CliRunner

from bench.cli import app
from bench.importers import from_qbench_video
from bench.items import Item, write_items
from bench.pair_rules import answer_pair, asks_worse, option_video
from bench.runner import read_results

WHICH = ["The first video", "The second video", "About the same"]


def ev(t: str, a: float, b: float, sev: float) -> dict:
    return {"type": t, "start_s": a, "end_s": b, "severity": sev}


def test_pair_rules() -> None:
    clean, blurred = ([], 10.0), ([ev("blur", 0, 8, 0.8)], 10.0)
    assert answer_pair("Which video has better quality?", WHICH, [clean, blurred]).choice == "A"
    assert answer_pair("Which video has better quality?", WHICH, [blurred, clean]).choice == "B"
    assert answer_pair("Which video is blurrier?", WHICH, [clean, blurred]).choice == "B"
    assert answer_pair("Which video looks better?", WHICH, [clean, clean]).choice == "C"
    noisy = ([ev("noise", 0, 2, 0.5)], 10.0)
    # the named distortion decides: video 2 is worse overall but has no noise
    assert answer_pair("Which video has more noise?", WHICH, [noisy, blurred]).choice == "A"
    yes_no = ["Yes", "No"]
    q = "Is the second video clearer than the first video?"
    assert answer_pair(q, yes_no, [clean, blurred]).choice == "B"
    assert answer_pair(q, yes_no, [blurred, clean]).choice == "A"
    ans = answer_pair("Which video has better quality?", WHICH, [clean, blurred])
    assert ans.impairment == (0.0, 0.64) and "Video 1 is better" in ans.text
    assert option_video("Video 2") == 2 and option_video("the left one") == 1
    assert option_video("Both are similar") == 0 and option_video("Blur") is None
    assert asks_worse("Which video has lower quality?")
    assert not asks_worse("Which video has higher quality?")


@pytest.fixture(scope="module")
def pair_set(tmp_path_factory):
    """A clean and a blurred 12 s video, one pair item (as imported) and one single item."""
    from bench.synth import make_video, needle

    root = tmp_path_factory.mktemp("pairs")
    make_video(root / "a.mp4", 12, width=320, height=180, seed=3, preset="ultrafast")
    make_video(root / "b.mp4", 12, width=320, height=180, seed=3, preset="ultrafast",
               needles=[needle("gaussian_blur", 3, 1, 11)])
    pair = from_qbench_video({"video_name": "a.mp4_cat_b.mp4", "id": "p1",
                              "question": "Which video has better quality?",
                              "answers": WHICH, "correct_choice": 0,
                              "question_type": "comparison"}, index=0, split="dev")[0]
    single = Item(id="s1", benchmark="t", videos=["a.mp4"], format="mcq",
                  question="Is there any blur in the video?", options=["Yes", "No"], gold="B")
    assert pair.videos == ["a.mp4", "b.mp4"] and pair.gold == "A"
    path = root / "items.jsonl"
    write_items(path, [pair, single])
    return root, path, pair


def run(*args: object):
    return CliRunner().invoke(app, ["run", *map(str, args), "--no-open-score", "--quiet"])


def test_uniform_local_answers_the_pair_with_half_the_frames_each(pair_set, tmp_path):
    root, items, pair = pair_set
    out = tmp_path / "u.jsonl"
    res = run("--items", items, "--track", "uniform", "--out", out, "--frames", 8)
    assert res.exit_code == 0, res.output
    recs = read_results(out)
    assert set(recs) == {pair.id, "s1"} and not any(r["error"] for r in recs.values())
    p = recs[pair.id]
    assert p["pair"] and p["path"].endswith("b.mp4") and " + " in p["path"]
    assert len(p["frames"]) == 8 and p["sent"]["frames"] == 8  # 4 + 4
    assert len(recs["s1"]["frames"]) == 8


def test_agent_local_compares_the_indexed_videos(pair_set, tmp_path):
    root, items, pair = pair_set
    out = tmp_path / "a.jsonl"
    res = run("--items", items, "--track", "agent", "--out", out, "--cache-dir",
              tmp_path / "cache")
    assert res.exit_code == 0, res.output
    p = read_results(out)[pair.id]
    assert p["error"] is None and p["prediction"] == "A" and p["correct"] is True
    assert "Video 1" in p["response"] and "Video 2" in p["response"]


def test_agent_model_skips_pairs_with_a_reason_and_carries_on(pair_set, tmp_path):
    root, items, pair = pair_set
    only_pairs = tmp_path / "pairs.jsonl"
    write_items(only_pairs, [pair.model_copy(update={"id": f"p{k}"}) for k in range(3)])
    out = tmp_path / "o.jsonl"
    res = run("--items", only_pairs, "--track", "agent", "--brain", "openai", "--model", "m",
              "--base-url", "http://127.0.0.1:9/v1", "--out", out, "--video-dir", root)
    assert res.exit_code == 0, res.output
    assert "3 items skipped: pair item" in res.output
    recs = read_results(out)
    assert all(r["skipped"].startswith("pair item") and r["error"] is None
               for r in recs.values())
    summary = json.loads((tmp_path / "o.summary.json").read_text())
    assert summary["skipped"] == 3 and summary["mcq"]["overall"]["n"] == 0
    assert summary["skip_reasons"] == {recs["p0"]["skipped"]: 3}
    again = run("--items", only_pairs, "--track", "agent", "--brain", "openai", "--model", "m",
                "--out", out, "--video-dir", root)
    assert again.exit_code == 0 and "0 answered now" in again.output  # skipped is final


def test_uniform_model_gets_both_videos_labelled(pair_set, tmp_path, monkeypatch):
    root, items, pair = pair_set
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real-000000")
    out = tmp_path / "m.jsonl"
    with ss.ScriptedServer([ss.text("Red"), ss.text("A"), ss.text("B")]) as srv:
        res = run("--items", items, "--track", "uniform", "--brain", "openai", "--model",
                  "vlm", "--base-url", srv.url, "--out", out, "--frames", 6)
        _probe, *asked = srv.chat_requests
    assert res.exit_code == 0, res.output
    recs = read_results(out)
    p = recs[pair.id]
    assert p["error"] is None and p["sent"]["per_video"] == [3, 3] and p["sent"]["frames"] == 6
    req = next(r for r in asked if "Video 2" in json.dumps(r.messages))
    parts = req.messages[0]["content"]
    kinds = ["img" if x["type"] == "image_url" else x["text"].split(" lasts")[0][:8]
             for x in parts]
    assert kinds[1:] == ["img", "img", "img", "Video 2", "img", "img", "img", "Question"]
    assert "two videos to compare" in parts[0]["text"]  # the intro, then Video 1's label
    assert parts[0]["text"].endswith("Video 1 lasts 12 seconds; its 3 frames:")
    assert "Choices:\nA. The first video\nB. The second video" in parts[-1]["text"]


def test_uniform_numbers_gives_both_tables(pair_set, tmp_path, monkeypatch):
    root, items, pair = pair_set
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-not-real-000000")
    monkeypatch.setenv("LVQ_UNIFORM_NUMBERS", "")  # the flag sets it; restored afterwards
    out = tmp_path / "n.jsonl"
    with ss.ScriptedServer([ss.text("A"), ss.text("B")]) as srv:
        res = run("--items", items, "--track", "uniform", "--brain", "openai", "--model",
                  "txt", "--base-url", srv.url, "--out", out, "--frames", 6,
                  "--uniform-numbers")
        asked = srv.chat_requests
    assert res.exit_code == 0, res.output
    prompt = next(r.messages[0]["content"] for r in asked if "Video 2" in str(r.messages))
    assert isinstance(prompt, str) and prompt.count("per frame:\n\ntime_s ") == 2
    assert prompt.index("Video 1 lasts") < prompt.index("Video 2 lasts") < prompt.index(
        "What the columns measure") < prompt.index("Question:")
    assert read_results(out)[pair.id]["sent"]["mode"] == "numbers"
