"""Provenance in the summary JSON, and `bench compare` refusing runs over different items."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from typer.testing import CliRunner

import tools
from bench.cli import app
from bench.provenance import collect, mask_argv, prompt_hashes, setting_differences, url_host
from bench.runner import RunConfig, summary_path

runner = CliRunner()


def test_mask_argv_hides_key_values() -> None:
    argv = ["bench", "run", "--api-key", "sk-abc", "--openai-key=sk-def", "--token", "t0k",
            "--model", "gpt-x", "--frames", "16"]
    masked = mask_argv(argv)
    assert masked == ["bench", "run", "--api-key", "***", "--openai-key=***", "--token", "***",
                      "--model", "gpt-x", "--frames", "16"]
    assert not any("sk-" in a or "t0k" in a for a in masked)


def test_url_host_only() -> None:
    assert url_host("https://user:pw@api.example.com:8443/v1?key=x") == "api.example.com:8443"
    assert url_host("http://localhost/v1") == "localhost"
    assert url_host("api.example.com/v1") == "api.example.com"
    assert url_host(None) is None and url_host("") is None


def test_collect(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "https://secret-user:pw@llm.internal:9000/v1")
    monkeypatch.setenv("LVQ_OPENAI_MODEL", "m-1")
    items = tmp_path / "items.jsonl"
    items.write_text("{}\n")
    cfg = RunConfig(track="agent", brain="openai", max_steps=7, judge_model="judge-1")
    p = collect(cfg, wall_s=12.345, items_path=items,
                argv=["bench", "run", "--api-key", "sk-zzz"])
    assert p["analyzer_version"] == tools.ANALYZER_VERSION
    assert p["events_version"] == tools.EVENTS_VERSION
    assert p["package_version"] and p["model"] == "m-1" and p["judge_model"] == "judge-1"
    assert p["base_url_host"] == "llm.internal:9000"
    assert p["max_steps"] == 7 and p["frames"] is None and p["wall_s"] == 12.35
    assert p["command"] == ["bench", "run", "--api-key", "***"]
    assert p["items_sha256"] == hashlib.sha256(b"{}\n").hexdigest()
    assert p["host"]["cpu_count"] and p["date"][:2] == "20"
    assert p["git_commit"] is None or len(p["git_commit"]) >= 40
    assert "agent_system.md" in p["prompts"] and len(p["prompts"]["agent_system.md"]) == 64
    text = json.dumps(p)
    assert "sk-zzz" not in text and "secret-user" not in text and "pw@" not in text


def test_prompt_hashes_follow_the_files() -> None:
    here = Path(__file__).resolve().parent.parent / "prompts" / "uniform_mcq.md"
    assert prompt_hashes()["uniform_mcq.md"] == hashlib.sha256(here.read_bytes()).hexdigest()


def test_setting_differences() -> None:
    a = {"track": "uniform", "brain": "local", "frames": 32, "analyzer_version": "1",
         "prompts": {"x.md": "1", "y.md": "2"}}
    b = {**a, "frames": 16, "prompts": {"x.md": "1", "y.md": "3"}}
    assert setting_differences(a, b) == ["prompts: y.md differ", "frames: 32 vs 16"]
    c = {**b, "track": "agent", "max_steps": 12}
    assert setting_differences(b, c) == []  # frames do not apply to an agent run
    assert setting_differences(a, None) == []


def _results(path: Path, ids: list[str], prov: dict | None) -> Path:
    recs = [{"id": i, "video": f"v{k % 3}", "format": "mcq", "gold": "A",
             "prediction": "A" if k % 2 else "B", "correct": bool(k % 2), "track": "uniform",
             "brain": "local", "level": "LQU", "dimension": "detection"}
            for k, i in enumerate(ids)]
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    if prov is not None:
        summary_path(path).write_text(json.dumps({"provenance": prov}))
    return path


def test_compare_refuses_different_items_and_warns_on_settings(tmp_path: Path) -> None:
    prov = {"track": "uniform", "brain": "local", "frames": 32, "analyzer_version": "1"}
    ids = [f"q{k}" for k in range(6)]
    a = _results(tmp_path / "a.jsonl", ids, prov)
    b = _results(tmp_path / "b.jsonl", ids[:5] + ["other"], {**prov, "frames": 8})
    res = runner.invoke(app, ["compare", str(a), str(b), "--png", str(tmp_path / "c.png")])
    assert res.exit_code == 3 and res.output.count("error:") == 1
    assert "not over the same items" in res.output and "q5" in res.output
    assert "other" in res.output and not (tmp_path / "c.png").exists()
    res = runner.invoke(app, ["compare", str(a), str(b), "--common-items",
                              "--png", str(tmp_path / "c.png")])
    assert res.exit_code == 0, res.output
    assert "(5 items)" in res.output and "frames: 32 vs 8" in res.output
    same = _results(tmp_path / "same.jsonl", ids, prov)
    res = runner.invoke(app, ["compare", str(a), str(same), "--png", str(tmp_path / "d.png")])
    assert res.exit_code == 0 and "warning" not in res.output and "(6 items)" in res.output
    bare = _results(tmp_path / "bare.jsonl", ids, None)
    res = runner.invoke(app, ["compare", str(a), str(bare), "--png", str(tmp_path / "e.png")])
    assert res.exit_code == 0 and "no provenance" in res.output
