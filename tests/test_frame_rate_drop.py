"""Frame-rate drops: a regular cadence of held frames over seconds is one frame_drop event
spanning it (its holds are not also read as repeated frames or stutter), while a cadence all
through the video (a cartoon on twos), one long hold and irregular holds are not rate drops."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np

from tests.test_events import FPS, _frames, _samples, _scenes
from tools.detectors import detect_events
from tools.detectors.frame_drop import SUBTYPE, cadence, rate_drop_events
from tools.ffmpeg import ffmpeg_exe


def _moving(seconds: float, seed: int = 3) -> dict[str, np.ndarray]:
    """Per-frame signals of footage that moves all the time (frame differences ~2 grey)."""
    f = _frames(seconds)
    f["diff"] = 2.0 + np.random.default_rng(seed).normal(0, 0.3, len(f["t"]))
    return f


def _hold(f: dict[str, np.ndarray], start: float, end: float, k: int) -> None:
    """From start to end every picture is shown k times: k-1 near copies (encoder residual),
    then one frame carrying the motion of k."""
    idx = np.flatnonzero((f["t"] >= start) & (f["t"] < end))
    held = idx[(idx - idx[0]) % k != 0]
    f["diff"][held] = 0.03
    f["diff"][idx[(idx - idx[0]) % k == 0]] *= k


def _drops(events: list) -> list:
    return [e for e in events if e.subtype == SUBTYPE]


def test_a_third_of_the_rate_over_a_window_is_one_frame_drop_event():
    f = _moving(90.0)
    _hold(f, 30.0, 50.0, 3)
    events = detect_events(f, _samples(90.0), _scenes([0.0, 90.0]), FPS)
    drops = _drops(events)
    assert len(drops) == 1, events
    e = drops[0]
    assert e.type == "frame_drop" and abs(e.start_s - 30.0) <= 1.5 and abs(e.end_s - 50.0) <= 1.5
    assert e.evidence["hold_frames"] == 3 and e.evidence["effective_fps"] == round(FPS / 3, 2)
    # its held frames are not reported again as repeated frames or stutter
    assert not [x for x in events if x.type in ("frame_drop", "stutter") and x is not e
                and x.start_s < 50.0 and x.end_s > 30.0], events


def test_the_hold_sets_the_severity():
    sev = {}
    for k in (2, 5):
        f = _moving(90.0)
        _hold(f, 30.0, 50.0, k)
        (e,) = rate_drop_events(f, FPS)
        sev[k] = e.severity
    assert sev[2] < sev[5]


def test_cadence_stands_out_where_pictures_are_held_and_the_event_reads_the_hold():
    f = _moving(40.0)
    _hold(f, 10.0, 30.0, 5)
    score, _ = cadence(f["diff"], FPS)
    inside = (f["t"] >= 12.0) & (f["t"] < 28.0)
    assert (score[inside] > 3.0).all()
    outside = (f["t"] > 2.0) & (f["t"] < 8.0)
    assert (score[outside] < 0.5).all()
    f = _moving(90.0)  # (a drop over half of the footage would be its usual cadence)
    _hold(f, 30.0, 50.0, 5)
    (e,) = rate_drop_events(f, FPS)
    assert e.evidence["hold_frames"] == 5 and e.evidence["effective_fps"] == round(FPS / 5, 2)


def test_a_rate_that_is_no_whole_fraction_is_found_with_its_mean_hold():
    """6 fps shown at 25 holds pictures for 4 and 5 frames (4, 4, 4, 4, 5...): its new pictures
    drift across any fixed cycle, and the drop is still one event, at 6 fps."""
    f = _moving(90.0)
    idx = np.flatnonzero((f["t"] >= 30.0) & (f["t"] < 50.0))
    new = np.unique(np.floor(np.arange(0, len(idx), FPS / 6.0)).astype(int))
    held = np.setdiff1d(np.arange(len(idx)), new)
    f["diff"][idx[held]] = 0.03
    f["diff"][idx[new]] *= 4
    drops = _drops(rate_drop_events(f, FPS))
    assert len(drops) == 1, drops
    e = drops[0]
    assert abs(e.start_s - 30.0) <= 1.5 and abs(e.end_s - 50.0) <= 1.5
    assert e.evidence["hold_frames"] == 4 and abs(e.evidence["effective_fps"] - 6.0) < 0.2


def test_a_cadence_all_through_the_video_is_its_look():
    f = _moving(90.0)
    _hold(f, 0.0, 90.0, 2)  # animated on twos from start to end
    assert rate_drop_events(f, FPS) == []


def test_one_long_hold_and_irregular_holds_are_no_rate_drop():
    f = _moving(90.0)
    f["diff"][(f["t"] >= 30.0) & (f["t"] < 34.0)] = 0.03  # a freeze
    rng = np.random.default_rng(5)
    for i in np.sort(rng.choice(np.arange(1250, 1750), 60, replace=False)):
        f["diff"][i: i + rng.integers(1, 4)] = 0.03  # stutter: holds at random, 1-3 frames
    assert rate_drop_events(f, FPS) == []


def test_a_rate_drop_in_a_real_encode_is_found(tmp_path: Path):
    """ffmpeg's fps filter halves the rate of a moving test pattern over 12-24 s of 36 s; the
    libx264 encode leaves a residual in the held frames: the index reports the drop."""
    from tools.index import get_index

    video = tmp_path / "drop.mp4"
    src = "testsrc2=size=160x120:rate=25"
    graph = ("[0:v]split=3[a][b][c];[a]trim=0:12,setpts=PTS-STARTPTS[p0];"
             "[b]trim=12:24,setpts=PTS-STARTPTS,fps=12.5,fps=25[p1];"
             "[c]trim=24:36,setpts=PTS-STARTPTS[p2];[p0][p1][p2]concat=n=3:v=1:a=0[v]")
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", "-f", "lavfi", "-i", src, "-t", "36",
                    "-filter_complex", graph, "-map", "[v]", "-c:v", "libx264", "-preset",
                    "ultrafast", "-crf", "20", "-pix_fmt", "yuv420p", str(video)], check=True)
    idx = get_index(video, cache_dir=tmp_path / "cache", progress=False, clip=False)
    drops = [e for e in idx.events if e.type == "frame_drop"]
    assert len(drops) == 1, idx.events
    assert abs(drops[0].start_s - 12.0) <= 1.5 and abs(drops[0].end_s - 24.0) <= 1.5, drops
    assert drops[0].evidence["hold_frames"] == 2


def _look_ctx(duration: float = 180.0, fps: float = 25.0, cuts: tuple[float, ...] = ()):
    from types import SimpleNamespace

    from tools.model import Scene
    edges = [0.0, *cuts, duration]
    scenes = [Scene(a, b, int(a * fps), int(b * fps) - 1)
              for a, b in zip(edges[:-1], edges[1:], strict=True)]
    return SimpleNamespace(has_frames=True, frames={"t": np.arange(0, duration, 1 / fps)},
                           scenes=scenes, fps=fps)


def _rate(a: float, b: float, k: int):
    from tools.model import Event
    return Event("frame_drop", a, b, 1 - 1 / k, 3.0, "frame-rate drop", {"hold_frames": k})


def _singles(a: float, b: float, share: float, every: float = 0.0, regular: float = 0.0):
    from tools.model import Event
    return Event("frame_drop", a, b, 0.8, 50.0, "repeated frames",
                 {"median_hold_frames": 1.0, "share_repeated": share,
                  "cadence_frames": every, "cadence_regular": regular})


def test_a_cadence_the_footage_keeps_coming_back_to_is_its_look():
    """Doubled-up shots every 12 s of a looped 12.5-fps cartoon: no frame drop; a drop to a
    fifth of the rate in one stretch of the same video stays."""
    from tools.detectors.frame_drop import cadence_look
    look = [_rate(a, a + 6, 2) for a in range(0, 180, 12)]
    sparse = [_singles(a + 6.5, a + 9, 0.2) for a in range(0, 180, 36)]
    drop = _rate(150.0, 165.0, 5)
    kept = cadence_look(_look_ctx(), look + sparse + [drop])
    assert kept == [drop]
    # the same doubled cadence in one stretch only is a drop to half the rate
    once = [_rate(60.0, 66.0, 2), _rate(72.0, 78.0, 2)]
    assert cadence_look(_look_ctx(), once) == once
    # irregular single repeats alone set no look, however widespread
    scattered = [_singles(a, a + 3, 0.15) for a in range(0, 180, 20)]
    assert cadence_look(_look_ctx(), scattered) == scattered
    # a short video: one drop fills its parts
    short = [_rate(a, a + 5, 2) for a in range(0, 30, 6)]
    assert cadence_look(_look_ctx(30.0), short) == short


def test_cuts_inside_a_rate_drop_are_its_jumps():
    from tools.derive import joined_across
    from tools.model import Scene
    scenes = [Scene(0.0, 35.0, 0, 874), Scene(35.0, 35.8, 875, 894),
              Scene(35.8, 38.8, 895, 969), Scene(38.8, 200.0, 970, 4999)]
    joined = joined_across(scenes, [(30.0, 50.1)])
    assert [(s.start_s, s.end_s, s.start_frame, s.end_frame) for s in joined] == [
        (0.0, 200.0, 0, 4999)]
    # a cut at the drop's edge may be the shot it starts with: kept
    assert [s.start_s for s in joined_across(scenes, [(35.0, 50.1)])] == [0.0, 35.0]
    assert joined_across(scenes, []) == scenes


def test_real_cuts_inside_a_rate_drop_stay():
    # a third of the rate: every third frame jumps (difference 1.3, structure kept); a change
    # of shot at frame 950 (difference 60, structure lost); a jump read as a cut at 1100
    from tools.derive import joined_across
    from tools.model import Scene
    n, fps = 5000, 25.0
    diff = np.full(n, 0.05)
    diff[750:1250:3] = 1.3
    corr = np.full(n, 0.999)
    corr[750:1250:3] = 0.97
    diff[950], corr[950] = 60.0, 0.3
    frames = {"t": np.arange(n) / fps, "diff": diff, "corr": corr, "coarse_corr": corr}
    scenes = [Scene(0.0, 38.0, 0, 949), Scene(38.0, 44.0, 950, 1099),
              Scene(44.0, 200.0, 1100, 4999)]
    joined = joined_across(scenes, [(30.0, 50.0)], frames)
    assert [(s.start_s, s.end_s) for s in joined] == [(0.0, 38.0), (38.0, 200.0)]


def test_a_drop_goes_on_through_a_still_moment_but_not_through_motion_at_the_full_rate():
    def drops_with(gap_diff: float) -> list:
        f = _moving(90.0)
        _hold(f, 30.0, 50.0, 2)
        gap = (f["t"] >= 38.0) & (f["t"] < 41.5)  # 3.5 s: longer than GAP_S
        f["diff"][gap] = gap_diff
        return [(round(e.start_s), round(e.end_s)) for e in rate_drop_events(f, FPS)]

    # nothing moves for 3.5 s (the picture held still: no cadence can show): one drop
    assert drops_with(0.03) == [(30, 50)]
    # the full rate back for 3.5 s (every frame moves): two drops
    assert len(drops_with(2.0)) == 2


def test_a_clip_of_another_rate_converted_into_the_video_is_no_drop():
    """A 20-fps clip shown at 25 fps repeats one frame in five like clockwork from its first
    frame to its last: a montage cycling it every 30 s has no frame drop; the same clockwork
    inside a shot, and irregular repeats over a whole shot, stay."""
    from tools.detectors.frame_drop import cadence_look
    cuts = tuple(c for a in range(0, 120, 30) for c in (a + 14.0, a + 22.0, a + 30.0))[:-1]
    ctx = _look_ctx(120.0, cuts=cuts)
    converted = [_singles(a + 0.04, a + 13.72, 0.2, 5.0, 0.97) for a in range(0, 120, 30)]
    assert cadence_look(ctx, converted) == []
    # one converted clip in a video that cuts elsewhere (not a look): its shot still says so
    assert cadence_look(_look_ctx(120.0, cuts=(40.0, 54.0)),
                        [_singles(40.2, 53.8, 0.2, 5.0, 0.97)]) == []
    # ... however dense (20 fps at 30: one frame in 3 repeated)
    assert cadence_look(_look_ctx(120.0, cuts=(40.0, 54.0)),
                        [_singles(40.0, 53.8, 0.33, 3.0, 0.94)]) == []
    # ... joined across the cut to the last second of the clip before it (its own conversion)
    assert cadence_look(_look_ctx(120.0, cuts=(22.0, 30.0, 44.0, 52.0)),
                        [_singles(28.9, 43.9, 0.3, 3.0, 0.94)]) == []
    inside = [_singles(35.0, 50.0, 0.2, 5.0, 0.97)]
    assert cadence_look(_look_ctx(120.0, cuts=(30.0, 60.0)), inside) == inside
    irregular = [_singles(30.1, 59.9, 0.2, 5.0, 0.4)]
    assert cadence_look(_look_ctx(120.0, cuts=(30.0, 60.0)), irregular) == irregular


def test_a_converted_clip_in_a_real_encode_is_no_drop(tmp_path: Path):
    """A 20-fps test pattern converted to 25 fps by ffmpeg (one frame in five shown twice)
    for its whole 16 s, cut to another pattern at 25 fps: no frame drop; the same conversion
    over 12-24 s inside one shot of 36 s is one (x264 at veryfast: ultrafast leaves the
    repeated frames a residual of 0.17 grey levels on this pattern, over the repeat limit)."""
    from tools.index import get_index

    def encode(name: str, graph: str, inputs: list[str]) -> Path:
        video = tmp_path / name
        cmd = [ffmpeg_exe(), "-v", "error", "-y"]
        for src in inputs:
            cmd += ["-f", "lavfi", "-t", "16" if "mandelbrot" in src else "36", "-i", src]
        subprocess.run(cmd + ["-filter_complex", graph, "-map", "[v]", "-c:v", "libx264",
                              "-preset", "veryfast", "-crf", "20", "-pix_fmt", "yuv420p",
                              str(video)], check=True)
        return video

    whole = encode("clip.mp4", "[0:v]fps=25[a];[1:v]hue=h=90[b];[a][b]concat=n=2:v=1:a=0[v]",
                   ["testsrc2=size=160x120:rate=20:duration=16",
                    "mandelbrot=size=160x120:rate=25"])
    idx = get_index(whole, cache_dir=tmp_path / "cache", progress=False, clip=False)
    assert [s.start_s for s in idx.scenes][:2] == [0.0, 16.0], idx.scenes
    assert not [e for e in idx.events if e.type == "frame_drop"], idx.events
    graph = ("[0:v]split=3[a][b][c];[a]trim=0:12,setpts=PTS-STARTPTS[p0];"
             "[b]trim=12:24,setpts=PTS-STARTPTS,fps=20,fps=25[p1];"
             "[c]trim=24:36,setpts=PTS-STARTPTS[p2];[p0][p1][p2]concat=n=3:v=1:a=0[v]")
    window = encode("window.mp4", graph, ["testsrc2=size=160x120:rate=25:duration=36"])
    idx = get_index(window, cache_dir=tmp_path / "cache", progress=False, clip=False)
    drops = [e for e in idx.events if e.type == "frame_drop"]
    assert drops and all(11.0 <= e.start_s and e.end_s <= 25.0 for e in drops), idx.events


def test_a_drop_in_a_doubled_up_high_rate_stream_is_read_and_kept():
    """A 24-fps film doubled up to 50 fps (every picture shown twice: half the frames repeat,
    which alone reads as footage held by design) falling to 6 fps for 12 s: the cadence is
    read with its hold of 8 frames (beyond a 25-fps stream's 2-6), and a rate drop holding 8
    frames is kept where a doubled-up look's hold of 2 is the footage's design."""
    from tools.detectors.frame_drop import holds
    from tools.detectors.screen import held_by_design, without_design

    fps = 50.0
    t = np.arange(0.0, 120.0, 1 / fps)
    diff = 2.0 + np.random.default_rng(4).normal(0, 0.3, len(t))
    diff[1::2] = 0.02  # doubled up
    drop = np.flatnonzero((t >= 50.0) & (t < 62.0))
    diff[drop[(drop - drop[0]) % 8 != 0]] = 0.02
    frames = {"t": t, "diff": diff}
    assert holds(fps)[-1] == 12 and holds(25.0) == (2, 3, 4, 5, 6)
    _, hold = cadence(diff, fps)
    inside = hold[(t >= 52.0) & (t < 60.0)]
    assert np.bincount(inside).argmax() == 8 and inside.min() > 6, inside
    assert (hold[(t >= 20.0) & (t < 40.0)] == 2).all()
    assert held_by_design(frames)
    slower, own = _rate(50.0, 62.0, 8), _rate(0.0, 50.0, 2)
    assert without_design([own, slower], frames, 120.0) == [slower]
