"""CLIP weights fetched through huggingface_hub from a hub look-alike on 127.0.0.1.

A tiny randomly initialised open_clip model is served in the hub's layout; the product's own
download path (open_clip's names, hf_hub_download, the hub cache) fetches it.
"""

import hashlib
import json
import os
import socket
import time
from pathlib import Path

import numpy as np
import pytest

open_clip = pytest.importorskip("open_clip")
torch = pytest.importorskip("torch")

from huggingface_hub import constants as hub_constants  # noqa: E402
from safetensors.torch import save as save_safetensors  # noqa: E402

from tests.hub_server import HubServer  # noqa: E402
from tools.clip_cached import cached_models  # noqa: E402
from tools.clip_fetch import ensure_weights, fetch, hub_source  # noqa: E402
from tools.clip_model import (  # noqa: E402
    ClipConfig,
    WeightsUnavailable,
    load_clip,
    resolve_weights,
)

REPO = "lvq/tiny-clip"
WEIGHTS = "open_clip_model.safetensors"
TINY_CFG = {
    "embed_dim": 16,
    "vision_cfg": {"image_size": 32, "layers": 1, "width": 32, "patch_size": 16, "head_width": 16},
    "text_cfg": {"context_length": 8, "vocab_size": 49408, "width": 32, "heads": 2, "layers": 1},
}


@pytest.fixture(scope="session")
def tiny_net():
    """A tiny randomly initialised CLIP (a 32-pixel ViT, one layer per tower)."""
    from open_clip.model import CLIP

    torch.manual_seed(7)
    return CLIP(**TINY_CFG).eval()


@pytest.fixture(scope="session")
def tiny_files(tiny_net) -> dict[str, bytes]:
    """The tiny model as an 'hf-hub:' repo holds it: open_clip_config.json + safetensors."""
    state = {k: v.contiguous() for k, v in tiny_net.state_dict().items()}
    config = {"model_cfg": TINY_CFG, "preprocess_cfg": {}}
    return {"open_clip_config.json": json.dumps(config).encode(), WEIGHTS: save_safetensors(state)}


@pytest.fixture()
def online(monkeypatch):
    """Network allowed for huggingface_hub (conftest turns it off for every other test)."""
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(hub_constants, "HF_HUB_OFFLINE", False)


@pytest.fixture()
def hub(tiny_files, monkeypatch):
    with HubServer({REPO: dict(tiny_files)}) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        yield server


def _cfg(tmp_path: Path, model: str = f"hf-hub:{REPO}") -> ClipConfig:
    return ClipConfig(model=model, cache_dir=str(tmp_path / "hub"), precision="fp32")


def _repo_dir(tmp_path: Path, repo: str = REPO) -> Path:
    return tmp_path / "hub" / f"models--{repo.replace('/', '--')}"


def _snapshot_files(tmp_path: Path, repo: str = REPO) -> list[str]:
    return sorted(p.name for p in _repo_dir(tmp_path, repo).glob("snapshots/*/*"))


def _frames() -> list[np.ndarray]:
    rng = np.random.default_rng(3)
    return [rng.integers(0, 256, (48, 64, 3), dtype=np.uint8) for _ in range(3)]


def _assert_same_as(model, tiny_net) -> None:
    """The loaded model computes what the served network computes."""
    batch = np.stack([model.prepare(f) for f in _frames()])
    with torch.inference_mode():
        want = tiny_net.encode_image(model.normalise(batch), normalize=True).numpy()
    np.testing.assert_allclose(model.encode_prepared(batch), want, atol=1e-5)


def test_first_use_downloads_then_the_cache_serves_without_network(
    online, hub, tmp_path, tiny_files, tiny_net
):
    cfg = _cfg(tmp_path)
    with pytest.raises(WeightsUnavailable):
        resolve_weights(cfg)  # nothing local yet
    weights = ensure_weights(cfg, progress=False)
    assert hub.count("GET") == 2 and hub.count("HEAD") == 2  # config + weights, once each
    assert _snapshot_files(tmp_path) == ["open_clip_config.json", WEIGHTS]
    blob = Path(os.path.realpath(next(_repo_dir(tmp_path).glob(f"snapshots/*/{WEIGHTS}"))))
    assert blob.name == hashlib.sha256(tiny_files[WEIGHTS]).hexdigest()
    assert blob.read_bytes() == tiny_files[WEIGHTS]
    model = load_clip(cfg, weights)
    _assert_same_as(model, tiny_net)
    seen = hub.count()
    again = ensure_weights(cfg, progress=False)
    load_clip(cfg, again)
    assert again == weights and hub.count() == seen  # the second use asks the hub nothing


def test_offline_opens_no_socket_and_says_why(hub, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    connects: list[object] = []

    def refuse(sock, address):
        connects.append(address)
        raise OSError("test: no sockets while offline")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    cfg = _cfg(tmp_path)
    with pytest.raises(WeightsUnavailable, match="HF_HUB_OFFLINE is set, so nothing was fetched"):
        ensure_weights(cfg)
    with pytest.raises(WeightsUnavailable, match="HF_HUB_OFFLINE is set"):
        fetch(cfg)
    assert connects == [] and hub.count() == 0
    assert not _repo_dir(tmp_path).exists()


def test_a_download_cut_mid_file_leaves_nothing_loadable(online, hub, tmp_path, tiny_net):
    cfg = _cfg(tmp_path)
    hub.breaks[WEIGHTS] = "cut"  # every answer: half the bytes, then the connection closes
    with pytest.raises(WeightsUnavailable, match="could not fetch hf-hub:lvq/tiny-clip"):
        ensure_weights(cfg, progress=False)
    weight_gets = [r for r in hub.requests if r.method == "GET" and r.path.endswith(WEIGHTS)]
    assert len(weight_gets) >= 2  # the hub client retried before giving up
    assert _snapshot_files(tmp_path) == ["open_clip_config.json"]  # no weights entry
    assert not list(_repo_dir(tmp_path).rglob("*.incomplete"))
    with pytest.raises(WeightsUnavailable, match="not in the Hugging Face cache"):
        resolve_weights(cfg)
    hub.breaks.clear()
    before = hub.count("GET")
    model = load_clip(cfg, ensure_weights(cfg, progress=False))
    assert hub.count("GET") == before + 1  # only the weights: the config was already cached
    _assert_same_as(model, tiny_net)


def test_a_corrupted_download_is_removed_from_the_cache(online, hub, tmp_path):
    cfg = _cfg(tmp_path)
    hub.breaks[WEIGHTS] = "corrupt"  # right size, wrong bytes: only the sha256 can tell
    with pytest.raises(WeightsUnavailable, match="does not match its sha256"):
        ensure_weights(cfg, progress=False)
    assert _snapshot_files(tmp_path) == ["open_clip_config.json"]
    assert all(len(b.name) != 64 for b in _repo_dir(tmp_path).glob("blobs/*"))
    hub.breaks.clear()
    assert ensure_weights(cfg, progress=False).weights_id == f"hub:{REPO}"


def test_a_pretrained_tag_comes_from_the_repo_open_clip_names(
    online, tiny_files, tiny_net, tmp_path, monkeypatch
):
    """A built-in name/tag pair: open_clip's pretrained table gives the repo, and a repo with
    only the .bin falls back to it after the safetensors twin is not found, as open_clip does."""
    from open_clip import pretrained

    arch = tmp_path / "lvq-hub-tiny.json"
    arch.write_text(json.dumps(TINY_CFG))
    open_clip.add_model_config(arch)
    tag = {"hf_hub": "lvq/tiny-tag/", "quick_gelu": False}
    monkeypatch.setitem(pretrained._PRETRAINED, "lvq-hub-tiny", {"lvqtag": tag})
    cfg = ClipConfig(
        model="lvq-hub-tiny", pretrained="lvqtag", cache_dir=str(tmp_path / "hub"), precision="fp32"
    )
    assert hub_source(cfg).repo == "lvq/tiny-tag"
    bin_bytes = _torch_bytes(tiny_net)
    with HubServer({"lvq/tiny-tag": {"open_clip_pytorch_model.bin": bin_bytes}}) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        weights = ensure_weights(cfg, progress=False)
        heads = [r.path.rsplit("/", 1)[1] for r in server.requests if r.method == "HEAD"]
    assert heads == [WEIGHTS, "open_clip_pytorch_model.bin"]
    assert weights.path.endswith("open_clip_pytorch_model.bin")
    _assert_same_as(load_clip(cfg, weights), tiny_net)
    (row,) = cached_models(cfg)  # listed under the name that asks for it, marked in use
    assert row.names[0] == "lvq-hub-tiny/lvqtag" and row.repo == "lvq/tiny-tag" and row.in_use
    assert row.size == len(bin_bytes) and Path(row.path, "open_clip_pytorch_model.bin").is_file()


def _torch_bytes(net) -> bytes:
    import io

    buf = io.BytesIO()
    torch.save(net.state_dict(), buf)
    return buf.getvalue()


def test_unreachable_hub_is_one_clear_line(online, tmp_path, monkeypatch):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    start = time.perf_counter()
    with pytest.raises(WeightsUnavailable) as err:
        ensure_weights(_cfg(tmp_path), progress=False)
    assert time.perf_counter() - start < 5.0  # not the hub client's half minute of retries
    msg = str(err.value)
    assert "could not fetch" in msg and f"127.0.0.1:{port}" in msg and "\n" not in msg
    assert "HF_HUB_OFFLINE=1" in msg


def test_index_fetches_on_first_use_and_names_the_model(
    online, hub, make_clip, cache_dir, tmp_path, monkeypatch
):
    from tools.index import get_index

    monkeypatch.setenv("LVQ_CLIP_MODEL", f"hf-hub:{REPO}")
    monkeypatch.setenv("LVQ_CLIP_CACHE_DIR", str(tmp_path / "hub"))
    monkeypatch.setenv("LVQ_CLIP_PRECISION", "fp32")
    path, _ = make_clip(12.0)
    built = get_index(path, cache_dir=cache_dir, progress=False)  # retrieval on by default
    clip = built.summary()["clip"]
    assert clip["model"] == f"hf-hub:{REPO}" and clip["weights_id"] == f"hub:{REPO}"
    assert clip["status"] == f"on: hf-hub:{REPO}, {len(built.clip)} frames" and clip["dim"] == 16
    assert len(built.clip) >= 6 and hub.count("GET") == 2
    seen = hub.count()
    again = get_index(path, cache_dir=cache_dir, progress=False)
    assert again.summary()["cached"] and again.summary()["clip"] == clip
    assert again.clip.search_text("a red car", k=3)  # loads the cached model
    assert hub.count() == seen


def test_index_offline_without_weights_says_why(hub, make_clip, cache_dir, tmp_path, monkeypatch):
    from tools.index import get_index

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("LVQ_CLIP_MODEL", f"hf-hub:{REPO}")
    monkeypatch.setenv("LVQ_CLIP_CACHE_DIR", str(tmp_path / "hub"))
    path, _ = make_clip(12.0)
    status = get_index(path, cache_dir=cache_dir, progress=False).summary()["clip"]["status"]
    assert status.startswith("off: ") and "HF_HUB_OFFLINE is set" in status
    assert hub.count() == 0


def test_cli_models_pull_then_list(online, hub, tmp_path, monkeypatch, tiny_files):
    from typer.testing import CliRunner

    from agent.cli import app

    monkeypatch.setenv("LVQ_CLIP_CACHE_DIR", str(tmp_path / "hub"))
    monkeypatch.setenv("LVQ_CLIP_MODEL", f"hf-hub:{REPO}")
    monkeypatch.setenv("LVQ_CLIP_PRECISION", "fp32")
    runner = CliRunner()
    empty = json.loads(runner.invoke(app, ["models", "list", "--json"]).stdout)
    assert empty["models"] == [] and empty["in_use"]["name"] == f"hf-hub:{REPO}"
    assert not empty["in_use"]["cached"] and hub.count() == 0
    res = runner.invoke(app, ["models", "pull", "--json", "-q"])
    assert res.exit_code == 0, res.output
    pulled = json.loads(res.stdout)
    total = sum(len(v) for v in tiny_files.values())
    assert pulled["repo"] == REPO and pulled["bytes"] == total and pulled["endpoint"] == hub.url
    assert len(pulled["downloaded"]) == 2 and pulled["checked"]
    seen = hub.count()
    again = runner.invoke(app, ["models", "pull"])
    assert again.exit_code == 0 and "already cached" in again.stdout and hub.count() == seen
    listed = json.loads(runner.invoke(app, ["models", "list", "--json"]).stdout)
    (row,) = listed["models"]
    snapshot = str(Path(pulled["paths"][0]).parent)
    assert row == {
        "names": [f"hf-hub:{REPO}"], "repo": REPO, "size": total, "path": snapshot, "in_use": True
    }
    assert listed["in_use"]["cached"] and listed["in_use"]["path"] == snapshot
    text = runner.invoke(app, ["models", "list"]).stdout
    assert f"index uses: hf-hub:{REPO}" in text and "6.5 MB" in text and hub.count() == seen


def test_cli_pull_reads_the_hub_environment_at_start(hub, tmp_path, tiny_files):
    """As a user runs it: HF_HOME, HF_ENDPOINT and HF_HUB_OFFLINE from the environment."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "LVQ_CLIP"))}
    env.pop("TRANSFORMERS_OFFLINE", None)
    env.update(HF_HOME=str(tmp_path / "hf"), HF_ENDPOINT=hub.url, PYTHONPATH=str(root))
    cmd = [sys.executable, "-m", "agent.cli", "models", "pull", f"hf-hub:{REPO}"]
    off = subprocess.run(
        cmd, env={**env, "HF_HUB_OFFLINE": "1"}, capture_output=True, text=True, cwd=root
    )
    assert off.returncode == 1 and "HF_HUB_OFFLINE is set" in off.stderr, off.stderr
    assert hub.count() == 0 and not (tmp_path / "hf").exists()
    on = subprocess.run(
        [*cmd, "--json", "--quiet", "--no-check"], env=env, capture_output=True, text=True,
        cwd=root,
    )
    assert on.returncode == 0, on.stderr
    doc = json.loads(on.stdout)
    repo_dir = tmp_path / "hf" / "hub" / "models--lvq--tiny-clip"
    assert all(p.startswith(str(repo_dir / "snapshots")) for p in doc["paths"])
    assert doc["bytes"] == sum(len(v) for v in tiny_files.values())
    # the two files, once each (the hub client may also ask for its agent-harness list)
    files = [r.path for r in hub.requests if r.method == "GET" and "/resolve/" in r.path]
    assert sorted(files) == [f"/{REPO}/resolve/main/{n}" for n in sorted(tiny_files)]
