"""Libraries and benchmark runs on Ray: one local Ray (2 CPUs) for the module; a run on Ray
gives the same rows and records as the serial run over the same videos and items."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from tiny_videos import tiny_video
from typer.testing import CliRunner

from agent.cli import app as agent_app
from bench.cli import app as bench_app
from tools.errors import EXIT_ENDPOINT, EXIT_INPUT, EXIT_USAGE
from tools.ray_pool import LOCAL, expand_ray_flag, ray_session

pytest.importorskip("ray")
runner = CliRunner()
# Fields that differ from run to run whatever runs them: clocks, and where a trace was kept.
TIMING = {"run_time", "latency_s", "prep_s", "prep_cached", "trace_id", "seconds", "status"}


def invoke(app, *args):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray with 2 CPUs for every test here (starting one costs seconds)."""
    with ray_session(LOCAL, 2) as ray:
        yield ray


def test_bare_ray_flag_means_a_local_ray():
    assert expand_ray_flag(["index", "d", "--ray"]) == ["index", "d", "--ray=local"]
    assert expand_ray_flag(["index", "--ray", "d", "e"]) == ["index", "--ray=local", "d", "e"]
    assert expand_ray_flag(["index", "--ray", "-q"]) == ["index", "--ray=local", "-q"]
    for address in ("auto", "ray://head:10001", "10.0.0.5:6379", "local"):
        assert expand_ray_flag(["--ray", address, "d"]) == ["--ray", address, "d"]


def test_ray_cpus_alone_is_refused(tmp_path):
    res = invoke(agent_app, "index", tmp_path, "--ray-cpus", 2)
    assert res.exit_code == EXIT_USAGE and "--ray-cpus needs --ray" in res.output


def _strip(recs: list[dict]) -> dict[str, dict]:
    return {r.get("id") or r["video"]: {k: v for k, v in r.items() if k not in TIMING}
            for r in recs}


def test_library_on_ray_gives_the_serial_rows(local_ray, tmp_path):
    lib = tmp_path / "lib"
    (lib / "sub").mkdir(parents=True)
    tiny_video(lib / "a.mp4", 1.0)
    tiny_video(lib / "sub" / "b.mkv", 1.6)
    tiny_video(lib / "c.mp4", 2.2, size="192x108")
    (lib / "broken.mp4").write_bytes(b"not a video " * 40)
    serial, on_ray = tmp_path / "serial.csv", tmp_path / "ray.csv"
    res = invoke(agent_app, "index", lib, "--summary", serial, "--cache-dir", tmp_path / "c1",
                 "-q", "--no-clip")
    assert res.exit_code == EXIT_INPUT, res.output
    res = invoke(agent_app, "index", lib, "--summary", on_ray, "--cache-dir", tmp_path / "c2",
                 "-q", "--no-clip", "--ray", LOCAL)
    assert res.exit_code == EXIT_INPUT, res.output
    assert "failed  " in res.stderr and "1 of 4 videos failed" in res.stderr
    a = json.loads(serial.with_suffix(".json").read_text())
    b = json.loads(on_ray.with_suffix(".json").read_text())
    assert [r["video"] for r in b] == [r["video"] for r in a]  # the videos' order, not Ray's
    assert _strip(b) == _strip(a)
    assert [r["status"] for r in b] == ["indexed", "failed", "indexed", "indexed"]
    assert [r["duration_s"] for r in b if r["duration_s"]] == pytest.approx([1.0, 2.2, 1.6],
                                                                            abs=0.1)
    rows = list(csv.DictReader(on_ray.open()))
    assert [r["video"] for r in rows] == [r["video"] for r in b]
    again = invoke(agent_app, "index", lib, "--cache-dir", tmp_path / "c2", "-q", "--no-clip",
                   "--json", "--ray", LOCAL)
    assert [r["status"] for r in json.loads(again.stdout)] == [
        "cached", "failed", "cached", "cached"]


@pytest.fixture(scope="module")
def ndqa(tmp_path_factory):
    root = tmp_path_factory.mktemp("ndqa-ray")
    res = invoke(bench_app, "ndqa", "--out", root, "--videos", 2, "--minutes", 1, "--seed", 3,
                 "--size", "160x90", "--preset", "ultrafast", "--per-dimension", 1,
                 "--open", 0)
    assert res.exit_code == 0, res.output
    return root / "items.jsonl"


def _records(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


@pytest.mark.parametrize("track", ["uniform", "agent"])
def test_bench_run_on_ray_gives_the_serial_records(local_ray, ndqa, tmp_path, track):
    serial, on_ray = tmp_path / "serial.jsonl", tmp_path / "ray.jsonl"
    common = ["run", "--items", ndqa, "--track", track, "--no-open-score", "-q",
              "--cache-dir", tmp_path / "cache"]
    res = invoke(bench_app, *common, "--out", serial)
    assert res.exit_code == 0, res.output
    half = invoke(bench_app, *common, "--out", on_ray, "--ray", LOCAL, "--limit", 3)
    assert half.exit_code == 0, half.output
    assert len(_records(on_ray)) == 3
    res = invoke(bench_app, *common, "--out", on_ray, "--ray", LOCAL)  # resumes
    assert res.exit_code == 0, res.output
    a, b = _records(serial), _records(on_ray)
    assert len(b) == len(a) >= 6  # nothing answered twice
    assert not any(r["error"] for r in b)
    assert _strip(b) == _strip(a)
    summary = json.loads((tmp_path / "ray.summary.json").read_text())
    assert summary["this_run"]["ray"] == LOCAL
    assert summary["this_run"]["skipped_already_done"] == 3
    assert summary["mcq"] == json.loads((tmp_path / "serial.summary.json").read_text())["mcq"]


def test_an_unreachable_cluster_fails_in_one_line(tmp_path):
    tiny_video(tmp_path / "a.mp4", 1.0)
    res = invoke(agent_app, "index", tmp_path / "a.mp4", "--ray", "127.0.0.1:1", "-q")
    assert res.exit_code == EXIT_ENDPOINT, res.output
    assert "cannot reach the Ray cluster at 127.0.0.1:1" in res.stderr
    assert "Traceback" not in res.output


def test_bench_ray_cpus_alone_is_refused(tmp_path):
    res = invoke(bench_app, "run", "--items", tmp_path / "i.jsonl", "--track", "agent",
                 "--ray-cpus", 2)
    assert res.exit_code == EXIT_USAGE and "--ray-cpus needs --ray" in res.output
