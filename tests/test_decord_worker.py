"""Decord runs in a worker with deadlines: a hang in it ends in one line naming the file and
the stage (exit 3), a crash falls back to ffmpeg, and the probe opens the file once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.tiny_videos import tiny_video
from tools import decord_worker, video
from tools.errors import EXIT_INPUT, VideoError

REPO = Path(__file__).resolve().parent.parent

# A stand-in decord for the worker: `mode` hangs the open, hangs a batch, or kills the worker.
FAKE_DECORD = '''
import os, time
import numpy as np
MODE = {mode!r}

class VideoReader:
    def __init__(self, path, width=-1, height=-1, num_threads=0):
        if MODE == "hang-open":
            time.sleep(600)
        if MODE == "crash":
            os._exit(9)
        self.n = 50

    def __len__(self):
        return self.n

    def get_avg_fps(self):
        return 25.0

    def get_frame_timestamp(self, idx):
        t = np.asarray(idx, dtype=np.float64) / 25.0
        return np.stack([t, t + 0.04], axis=1)

    def get_batch(self, idx):
        time.sleep(600)
'''


@pytest.fixture(autouse=True)
def _fresh_worker():
    decord_worker._close_worker(kill=True)
    video._PROBED.clear()
    yield
    decord_worker._close_worker(kill=True)
    video._PROBED.clear()


def _fake_decord(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> Path:
    """Put a stand-in decord first on the worker's import path; returns its folder."""
    pkg = tmp_path / "fake" / "decord"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(FAKE_DECORD.format(mode=mode))
    paths = [str(pkg.parent), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in paths if p))
    return pkg.parent


def test_a_hanging_open_is_stopped_naming_file_and_stage(tmp_path, monkeypatch):
    clip = tiny_video(tmp_path / "clip.mp4", seconds=1.0)
    _fake_decord(tmp_path, monkeypatch, "hang-open")
    monkeypatch.setattr(decord_worker, "OPEN_BASE_S", 1.0)
    began = time.monotonic()
    with pytest.raises(VideoError, match=r"decord stalled opening .*clip\.mp4: no answer in 1 s"):
        video.probe_video(clip)
    assert time.monotonic() - began < 15
    assert not decord_worker._WORKER  # the worker was killed, not left running


def test_a_hanging_frame_fetch_is_stopped_naming_the_times(tmp_path, monkeypatch):
    clip = tiny_video(tmp_path / "clip.mp4", seconds=1.0)
    _fake_decord(tmp_path, monkeypatch, "hang-batch")
    monkeypatch.setattr(decord_worker, "BATCH_BASE_S", 1.0)
    monkeypatch.setattr(decord_worker, "BATCH_PER_S", 0.0)
    with pytest.raises(VideoError, match=r"decord stalled reading frames at 0\.40-0\.80 s of "
                                         r".*clip\.mp4"):
        video.frames_at(clip, [0.4, 0.8])


def test_a_crashing_decord_falls_back_to_ffmpeg(tmp_path, monkeypatch):
    clip = tiny_video(tmp_path / "clip.mp4", seconds=1.0)
    _fake_decord(tmp_path, monkeypatch, "crash")
    frames, stamps = video.frames_at(clip, [0.0, 0.5])
    assert frames.shape == (2, 90, 160, 3)
    assert np.allclose(stamps, [0.0, 0.5], atol=0.05)  # ffmpeg's packet times


def test_deadlines_grow_with_the_video(tmp_path):
    small = tmp_path / "small.bin"
    small.write_bytes(b"\0" * 1000)
    big = tmp_path / "big.bin"
    with open(big, "wb") as fh:
        fh.truncate(400_000_000)  # sparse: 400 MB read at 20 MB/s adds 20 s
    assert decord_worker.open_deadline_s(big) == pytest.approx(
        decord_worker.open_deadline_s(small) + 20, abs=0.01)
    stamps = np.arange(0, 7200, 0.04)
    near = decord_worker.batch_deadline_s(stamps, [1000, 1001, 1002])
    spread = decord_worker.batch_deadline_s(stamps, [0, 50_000, 100_000, 150_000])
    assert near == pytest.approx(30 + 2 * (10 + 0.08))
    assert spread == pytest.approx(30 + 2 * 40)  # at most a GOP (10 s) decoded per far frame


def test_probe_and_frame_times_open_the_file_once(tmp_path, monkeypatch):
    clip = tiny_video(tmp_path / "clip.mp4", seconds=1.0)
    opened = []
    real = decord_worker.DecordReader.__init__

    def counting(self, *args, **kwargs):
        opened.append(args)
        real(self, *args, **kwargs)

    monkeypatch.setattr(decord_worker.DecordReader, "__init__", counting)
    info = video.probe_video(clip)
    times = video.presentation_times(info.path, info)
    assert len(opened) == 1
    assert len(times) == info.n_frames == 25
    assert np.allclose(np.diff(times), 0.04, atol=1e-3)


def test_the_command_line_ends_a_decord_hang_in_one_line_exit_3(tmp_path, monkeypatch):
    clip = tiny_video(tmp_path / "clip.mp4", seconds=1.0)
    _fake_decord(tmp_path, monkeypatch, "hang-open")
    code = ("import sys; from tools import decord_worker as w; w.OPEN_BASE_S = 2.0; "
            "from agent.cli import main; sys.argv = ['agent'] + sys.argv[1:]; main()")
    env = dict(os.environ, LVQ_CACHE_DIR=str(tmp_path / "cache"))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env["PYTHONPATH"]])
    began = time.monotonic()
    res = subprocess.run([sys.executable, "-c", code, "index", str(clip)], env=env,
                         capture_output=True, text=True, timeout=120)
    lines = res.stderr.strip().splitlines()
    assert res.returncode == EXIT_INPUT, res.stderr
    assert len(lines) == 1 and "decord stalled opening" in lines[0] and "clip.mp4" in lines[0]
    assert time.monotonic() - began < 60


def test_without_a_worker_process_decord_runs_in_this_one(tmp_path, monkeypatch):
    """A Python that cannot be started again by its path (user nobody, a Python under /root)."""
    clip = tiny_video(tmp_path / "clip.mp4", seconds=1.0)
    expected, stamps = video.frames_at(clip, [0.2, 0.6])
    decord_worker._close_worker()
    monkeypatch.setattr(decord_worker.sys, "executable", str(tmp_path / "no-such-python"))
    frames, again = video.frames_at(clip, [0.2, 0.6])
    assert isinstance(decord_worker._WORKER[0], decord_worker._InProcess)
    assert np.array_equal(frames, expected) and np.array_equal(again, stamps)


def test_a_tools_folder_in_the_working_directory_does_not_hijack_the_worker(tmp_path,
                                                                             monkeypatch):
    clip = tiny_video(tmp_path / "clip.mp4", seconds=1.0)
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "__init__.py").write_text("raise ImportError('not lvq-agent')\n")
    monkeypatch.chdir(tmp_path)
    reader = video.open_reader(clip)
    assert isinstance(reader, decord_worker.DecordReader)
    assert isinstance(decord_worker._WORKER[0], decord_worker._Worker)


def test_a_worker_grown_past_its_memory_limit_is_replaced_and_readers_reopen(tmp_path,
                                                                            monkeypatch):
    """Decord leaves memory behind in its process with every reader: once the worker holds
    more than WORKER_RSS_MB it is stopped, and a reader of the old one goes on in a new one."""
    clip = tiny_video(tmp_path / "clip.mp4", seconds=1.0)
    reader = video.open_reader(clip)
    first = decord_worker._WORKER[0]
    assert first.rss_mb() > 10  # python, numpy and decord at least
    assert decord_worker._WORKER and decord_worker._WORKER[0] is first  # under the limit: kept
    monkeypatch.setattr(decord_worker, "WORKER_RSS_MB", 1.0)
    frames = reader.get_batch([0, 5]).asnumpy()
    assert frames.shape[0] == 2
    assert not decord_worker._WORKER and first.proc.poll() is not None  # replaced after the call
    started = []
    real = decord_worker._Worker.__init__

    def counting(self):
        real(self)
        started.append(self.proc.pid)

    monkeypatch.setattr(decord_worker._Worker, "__init__", counting)
    again = reader.get_batch([10]).asnumpy()  # the reader opens again in a fresh worker
    assert again.shape[0] == 1 and len(started) == 1 and started[0] != first.proc.pid
    assert np.array_equal(again[0], video.open_reader(clip).get_batch([10]).asnumpy()[0])


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_worker_does_not_go_on_decoding_after_a_read(tmp_path):
    """decord decodes on in the background after a read, to the end of the video, unless the
    reader is parked: the worker must sit idle between requests."""
    clip = tiny_video(tmp_path / "long.mp4", seconds=40.0, size="640x360")
    info = video.probe_video(clip)  # reads frame 0 for the size
    frames, _ = video.frames_at(clip, [1.0], size=None)
    worker = decord_worker._WORKER[0]
    before = _cpu_s(worker.proc.pid)
    time.sleep(1.5)
    idle = _cpu_s(worker.proc.pid) - before
    assert info.n_frames == 1000 and frames.shape == (1, 360, 640, 3)
    assert idle < 0.2, f"the worker used {idle:.2f} CPU-s while nothing was asked of it"
    again, _ = video.frames_at(clip, [1.0], size=None)  # a parked reader still reads right
    assert np.array_equal(again, frames)
