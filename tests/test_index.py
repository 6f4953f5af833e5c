"""The quality index: one pass, cached by content, atomic, rebuilt on version change; CLI."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from typer.testing import CliRunner

from agent.cli import app
from tools import index as index_mod
from tools.cache import fingerprint
from tools.errors import IndexError_
from tools.index import get_index, index_dir, load


def test_index_measures_every_frame_and_samples_spatially(make_clip, cache_dir):
    path, man = make_clip(12.0)
    ix = get_index(path, cache_dir=cache_dir, progress=False, clip=False)
    assert len(ix.frames["t"]) == man["n_frames"]
    for key in ("luma", "contrast", "diff", "corr", "motion_x", "motion_y"):
        assert ix.frames[key].shape == (man["n_frames"],)
    # spatial samples at ~2 per second, all finite for the detail signals
    assert 20 <= len(ix.samples["t"]) <= 30
    assert np.isfinite(ix.samples["sharpness"]).all() and np.isfinite(ix.samples["noise"]).all()
    # the synth scenes are cut where the manifest says (within 2 frames)
    truth = [s["start_frame"] for s in man["scenes"][1:]]
    found = [s.start_frame for s in ix.scenes[1:]]
    assert all(min(abs(f - t) for f in found) <= 2 for t in truth), (truth, found)


def test_second_call_comes_from_cache_without_decoding(make_clip, cache_dir, monkeypatch):
    path, _ = make_clip(12.0)
    first = get_index(path, cache_dir=cache_dir, progress=False, clip=False)
    assert not first.meta.get("cached")

    def boom(*_a, **_k):
        raise AssertionError("decoded again")

    monkeypatch.setattr(index_mod, "measure", boom)
    again = get_index(path, cache_dir=cache_dir, progress=False, clip=False)
    assert again.meta["cached"] is True
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in first.events]
    np.testing.assert_allclose(again.frames["luma"], first.frames["luma"])


def test_fingerprint_follows_content_not_name(make_clip, tmp_path):
    path, _ = make_clip(12.0)
    copy = tmp_path / "renamed.mp4"
    shutil.copy(path, copy)
    assert fingerprint(copy) == fingerprint(path)
    other, _ = make_clip(12.0, seed=2)
    assert fingerprint(other) != fingerprint(path)


def test_signals_version_change_rebuilds_and_partial_dirs_are_not_trusted(
    make_clip, cache_dir, monkeypatch
):
    path, _ = make_clip(12.0)
    get_index(path, cache_dir=cache_dir, progress=False, clip=False)
    d = index_dir(path, cache_dir)
    monkeypatch.setattr(index_mod, "SIGNALS_VERSION", "other")
    monkeypatch.setattr(index_mod, "ANALYZER_VERSION", "other.x")
    with pytest.raises(IndexError_, match="version"):
        load(d)
    rebuilt = get_index(path, cache_dir=cache_dir, progress=False, clip=False)
    assert rebuilt.meta["signals_version"] == "other" and not rebuilt.meta.get("cached")
    # an interrupted build leaves only a .tmp dir; the real dir without meta is not loadable
    (d / "meta.json").unlink()
    with pytest.raises(IndexError_):
        load(d)


def test_events_version_change_rederives_without_decoding(make_clip, cache_dir, monkeypatch):
    path, _ = make_clip(12.0)
    first = get_index(path, cache_dir=cache_dir, progress=False, clip=False)
    d = index_dir(path, cache_dir)
    meta = json.loads((d / "meta.json").read_text())
    meta.update(events_version="old", events=[], scenes=[])  # as an older detector left it
    (d / "meta.json").write_text(json.dumps(meta))

    def no_decoding(*_a, **_k):
        raise AssertionError("decoded again")

    monkeypatch.setattr(index_mod, "measure", no_decoding)
    again = get_index(path, cache_dir=cache_dir, progress=False, clip=False)
    assert again.meta["cached"]
    assert [s.to_dict() for s in again.scenes] == [s.to_dict() for s in first.scenes]
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in first.events]
    stored = json.loads((d / "meta.json").read_text())
    assert stored["events_version"] == index_mod.EVENTS_VERSION
    assert len(stored["scenes"]) == len(first.scenes)


def test_interrupted_build_leaves_previous_index_intact(make_clip, cache_dir, monkeypatch):
    path, _ = make_clip(12.0)
    good = get_index(path, cache_dir=cache_dir, progress=False, clip=False)

    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(index_mod.pq, "write_table", interrupted)
    with pytest.raises(KeyboardInterrupt):
        index_mod.save(good, index_dir(path, cache_dir))
    assert not [p for p in cache_dir.iterdir() if p.name.startswith(".tmp-")]
    assert load(index_dir(path, cache_dir)).info.n_frames == good.info.n_frames


def test_cli_index_json_and_errors(make_clip, cache_dir, tmp_path):
    path, man = make_clip(12.0)
    runner = CliRunner()
    res = runner.invoke(app, ["index", str(path), "--json", "-q", "--cache-dir", str(cache_dir)])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["video"]["n_frames"] == man["n_frames"]
    assert {"scenes", "events", "fingerprint", "clip"} <= set(data)
    text = runner.invoke(app, ["index", str(path), "-q", "--cache-dir", str(cache_dir)])
    assert text.exit_code == 0 and "00:00:12.0" in text.stdout and "cache" in text.stdout
    bad = tmp_path / "bad.mp4"
    bad.write_text("not a video")
    res = runner.invoke(app, ["index", str(bad), "--cache-dir", str(cache_dir)])
    assert res.exit_code != 0
    assert "Traceback" not in res.output and "not a video file" in res.output
