"""End to end: a small NDQA set (three 1-minute videos), both tracks with the local brain,
resume after an interrupted run, the summary, and the comparison chart."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bench.cli import app
from bench.items import MCQ_DIMENSIONS, load_items
from bench.runner import read_results

runner = CliRunner()


def bench(*args: str) -> object:
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def ndqa(tmp_path_factory):
    root = tmp_path_factory.mktemp("ndqa")
    res = bench("ndqa", "--out", root, "--videos", 3, "--minutes", 1, "--seed", 5,
                "--size", "320x180", "--preset", "ultrafast", "--workers", 1)
    assert res.exit_code == 0, res.output
    items, errors = load_items(root / "items.jsonl")
    assert not errors and len(items) == 30
    assert all((root / it.videos[0]).is_file() for it in items)
    return root, items


@pytest.fixture(scope="module")
def agent_run(ndqa):
    root, items = ndqa
    out = root / "results" / "agent.jsonl"
    res = bench("run", "--items", root / "items.jsonl", "--track", "agent", "--brain", "local",
                "--out", out, "--workers", 2, "--cache-dir", root / "cache", "--quiet")
    assert res.exit_code == 0, res.output
    return out, res.output


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def test_agent_track_end_to_end(ndqa, agent_run):
    root, items = ndqa
    out, output = agent_run
    recs = lines(out)
    assert sorted(r["id"] for r in recs) == sorted(it.id for it in items)
    for r in recs:
        assert r["track"] == "agent" and r["brain"] == "local" and not r["error"]
        assert r["steps"] >= 2 and r["windows"] and r["latency_s"] >= 0
        if r["format"] == "mcq":
            assert r["prediction"] in "ABCD" and isinstance(r["correct"], bool)
        else:
            assert r["open"]["similarity"] is not None and r["response"]
        if r["dimension"] == "localization":
            assert 0.0 <= r["iou"] <= 1.0
    summary = json.loads((root / "results" / "agent.summary.json").read_text())
    assert summary["mcq"]["overall"]["n"] == 24 and set(summary["mcq"]["level"]) == {
        "LQU", "CQR", "GQU"}
    assert summary["localization"]["n"] == 2 and summary["open"]["n"] == 6
    assert summary["timing"]["prep_s_total"] > 0  # indexes were built in this run
    ov = summary["mcq"]["overall"]
    assert ov["videos"] == 3 and ov["ci_lo"] <= ov["acc"] <= ov["ci_hi"]
    prov = summary["provenance"]
    assert prov["track"] == "agent" and prov["max_steps"] == 12 and prov["analyzer_version"]
    assert prov["items_sha256"] and prov["prompts"] and prov["wall_s"] > 0
    assert "95% CI" in output
    for d in MCQ_DIMENSIONS:  # the table-4 layout names every dimension
        assert d.abbr in output
    # a second run finds everything done and answers nothing
    again = bench("run", "--items", root / "items.jsonl", "--track", "agent", "--out", out,
                  "--cache-dir", root / "cache", "--quiet")
    assert again.exit_code == 0 and "0 answered now" in again.output
    assert len(lines(out)) == len(recs)


def test_uniform_resumes_after_interruption(ndqa):
    root, items = ndqa
    out = root / "results" / "uniform.jsonl"
    args = ["run", "--items", root / "items.jsonl", "--track", "uniform", "--out", out,
            "--frames", 16, "--no-open-score", "--quiet"]
    first = bench(*args, "--limit", 7)
    assert first.exit_code == 0, first.output
    head = out.read_bytes()
    assert len(lines(out)) == 7
    with open(out, "ab") as fh:  # a kill in the middle of writing a line
        fh.write(b'{"id": "ndqa-s5-v0')
    rest = bench(*args)
    assert rest.exit_code == 0, rest.output
    assert out.read_bytes().startswith(head)  # appended, never rewritten
    done = read_results(out)
    assert sorted(done) == sorted(it.id for it in items)
    ids = [r["id"] for r in lines_tolerant(out)]
    assert len(ids) == len(set(ids)) == len(items)  # nothing redone
    for r in done.values():
        assert r["track"] == "uniform" and len(r["frames"]) == 16 and r["steps"] == 1


def lines_tolerant(path: Path) -> list[dict]:
    out = []
    for x in path.read_text().splitlines():
        try:
            out.append(json.loads(x))
        except ValueError:
            pass
    return out


def test_killed_run_resumes(ndqa, tmp_path):
    root, items = ndqa
    out = tmp_path / "killed.jsonl"
    cmd = [sys.executable, "-m", "bench.cli", "run", "--items", str(root / "items.jsonl"),
           "--track", "uniform", "--out", str(out), "--frames", "8", "--no-open-score",
           "--quiet", "--fsync"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None:
        if out.exists() and len(out.read_bytes().splitlines()) >= 3:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.05)
    proc.wait(timeout=60)
    partial = read_results(out)
    assert 0 < len(partial) <= len(items)
    res = bench(*cmd[3:])
    assert res.exit_code == 0, res.output
    recs = lines_tolerant(out)
    assert sorted({r["id"] for r in recs}) == sorted(it.id for it in items)
    assert len(recs) == len(items)  # ids done before the kill were not answered again


def test_compare_writes_chart_and_table(ndqa, agent_run, tmp_path):
    root, _ = ndqa
    uni = root / "results" / "uniform.jsonl"
    if not uni.exists():
        bench("run", "--items", root / "items.jsonl", "--track", "uniform", "--out", uni,
              "--no-open-score", "--quiet")
    png = tmp_path / "cmp.png"
    res = bench("compare", uni, agent_run[0], "--png", png, "--names", "uniform,agent")
    assert res.exit_code == 0, res.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert "Δ (B−A)" in res.output and "Localisation mean IoU" in res.output
    for d in MCQ_DIMENSIONS:
        assert d.name in res.output
    report = bench("report", agent_run[0], "--json")
    assert report.exit_code == 0 and json.loads(report.output)["mcq"]["overall"]["n"] == 24


def test_wrong_track_for_results_file_and_bad_input(ndqa, agent_run, tmp_path):
    root, _ = ndqa
    res = bench("run", "--items", root / "items.jsonl", "--track", "uniform", "--out",
                agent_run[0], "--quiet")
    assert res.exit_code == 2 and "agent/local" in res.output and "Traceback" not in res.output
    for code, args in (
            (3, ["run", "--items", tmp_path / "none.jsonl", "--track", "agent"]),
            (2, ["run", "--items", root / "items.jsonl", "--track", "sideways"]),
            (2, ["run", "--items", root / "items.jsonl", "--track", "agent", "--brain", "x"]),
            (3, ["compare", tmp_path / "a.jsonl", tmp_path / "b.jsonl"]),
            (3, ["report", tmp_path / "none.jsonl"])):
        r = bench(*args)
        assert r.exit_code == code, (args, r.output)  # 2 usage, 3 input (README: Exit codes)
        assert r.output.count("error:") == 1 and "Traceback" not in r.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\nnot json\n')
    r = bench("run", "--items", bad, "--track", "agent")
    assert r.exit_code == 3 and "no valid items" in r.output


def test_import_command(tmp_path):
    src = tmp_path / "lvq.json"
    src.write_text(json.dumps([{"video": "a.mp4", "question": "Is there blur?",
                                "options": ["A. Yes", "B. No"], "answer": "A",
                                "level": "LQU", "dimension": "Detection"}]))
    res = bench("import", src, "--format", "longvqubench", "--out", tmp_path / "out.jsonl")
    assert res.exit_code == 0, res.output
    items, errors = load_items(tmp_path / "out.jsonl")
    assert len(items) == 1 and items[0].gold == "A" and items[0].options == ["Yes", "No"]
    bad = bench("import", tmp_path / "missing.json")
    assert bad.exit_code == 3 and "Traceback" not in bad.output
