"""Softness with the coder's kinks (tools/detectors/coder_softness.py): the ratio of the
macroblock kinks against the shot around a blur event, and the retyping it decides; on real
footage, a window coded by libx264 at QP 51 reads as compression, a Gaussian blur as blur."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest
from tiny_videos import coded_window

from bench import synth
from tools.detectors import coder_softness as cs
from tools.ffmpeg import ffmpeg_exe
from tools.index import get_index
from tools.model import Event, Scene


def _samples(mb_in: float, mb_out: float, n: int = 120) -> dict[str, np.ndarray]:
    t = np.arange(n) * 0.5
    mb = np.where((t >= 20.0) & (t < 35.0), mb_in, mb_out)
    return {"t": t, "mb": mb}


def _blur(a: float = 20.0, b: float = 35.0) -> Event:
    return Event("blur", a, b, 0.6, 3.0, "softness", {"median_in_event": 9.0})


SCENE = [Scene(0.0, 60.0, 0, 1500)]


def test_the_kink_ratio_is_the_event_against_the_shot_around_it():
    r = cs.kink_ratio(_blur(), _samples(1.0, 0.3), SCENE)
    assert r == pytest.approx((1.0 + cs.OFFSET) / (0.3 + cs.OFFSET))
    # a blur lowers the kinks: below 1
    assert cs.kink_ratio(_blur(), _samples(0.1, 0.3), SCENE) < 1.0


def test_no_ratio_where_the_grid_is_hidden_or_the_footage_around_too_short():
    assert cs.kink_ratio(_blur(), _samples(1.0, -0.2), SCENE) is None  # grain hides the grid
    short = [Scene(19.0, 36.0, 475, 900)]  # the shot holds little besides the event
    assert cs.kink_ratio(_blur(), _samples(1.0, 0.3), short) is None
    # other events are no reference: with them covering the footage around, none is left
    others = [Event("noise", 0.0, 20.0, 0.5, 2.0, "grain", {}),
              Event("noise", 35.0, 60.0, 0.5, 2.0, "grain", {})]
    assert cs.kink_ratio(_blur(), _samples(1.0, 0.3), SCENE, others) is None


def test_a_blur_event_with_rising_kinks_is_recoded_and_others_stay(monkeypatch):
    monkeypatch.setattr(cs, "value", lambda key: 1.3)
    noise = Event("noise", 40.0, 50.0, 0.5, 2.0, "grain", {})
    out = cs.recoded([_blur(), noise], _samples(1.0, 0.3), SCENE)
    assert (out[0].type, out[0].subtype) == ("compression", cs.SUBTYPE)
    assert out[0].evidence["recoded_from"] == "blur/softness" and out[0].severity == 0.6
    assert out[1] == noise
    kept = cs.recoded([_blur()], _samples(0.35, 0.3), SCENE)  # ratio 1.06 < 1.3
    assert kept[0].type == "blur"


def _run(*args: str) -> None:
    subprocess.run([ffmpeg_exe(), "-v", "error", "-y", *args], check=True)


def _iou(e: Event, a: float, b: float) -> float:
    inter = max(0.0, min(e.end_s, b) - max(e.start_s, a))
    return inter / (max(e.end_s, b) - min(e.start_s, a))


def test_a_phone_clip_coded_at_qp51_is_compression_and_its_blurred_copy_blur(tmp_path):
    """A looped phone clip: 30 s of it re-encoded by libx264 at QP 51 and spliced back, and
    the same 30 s under gblur; both finished at CRF 20. The macroblock kinks name the coder;
    the blur keeps its type."""
    src = next((p for p in synth.source_clips() if p.name == "carphone_pristine.mp4"), None)
    if src is None:
        pytest.skip("carphone_pristine.mp4 not shipped")
    coded = coded_window(src, tmp_path, 150.0, 50.0, 80.0, 51)
    base, soft = tmp_path / "base.mp4", tmp_path / "soft.mp4"
    _run("-i", str(base), "-an", "-vf", "split[a][b];[b]gblur=sigma=1.5[bb];"
         "[a][bb]overlay=enable='between(t,50,80)'", "-c:v", "libx264", "-crf", "20",
         "-preset", "veryfast", str(soft))
    idx = get_index(coded, cache_dir=tmp_path / "cache", progress=False, clip=False)
    assert max((_iou(e, 50, 80) for e in idx.events if e.type == "compression"),
               default=0.0) >= 0.5, idx.events
    assert not [e for e in idx.events if e.type == "blur" and _iou(e, 50, 80) > 0.3]
    idx = get_index(soft, cache_dir=tmp_path / "cache", progress=False, clip=False)
    assert max((_iou(e, 50, 80) for e in idx.events if e.type == "blur"),
               default=0.0) >= 0.5, idx.events
    assert not [e for e in idx.events if e.type == "compression"], idx.events


def test_a_blur_question_over_a_coded_soft_stretch_names_it(tmp_path):
    from test_local_brain import ask
    from test_toolbox import make_index

    coded = Event("compression", 50.0, 80.0, 0.55, 3.0, cs.SUBTYPE,
                  {"kink_ratio": 2.5, "recoded_from": "blur/softness"})
    idx = make_index(180.0, [coded])
    ans = ask(idx, "Is the picture blurry between 0:50 and 1:20?", ("Yes", "No"), tmp_path)
    assert ans.choice == "B" and "reported as compression, not blur" in ans.answer, ans.answer
    when = ask(idx, "When does the picture lose its sharpness?", (), tmp_path)
    assert "reported as compression, not blur" in when.answer, when.answer
    # a compression event of its own (not from a soft stretch) is not mentioned
    plain = make_index(180.0, [Event("compression", 50.0, 80.0, 0.55, 3.0, "blocking", {})])
    assert "not blur" not in ask(plain, "Is the picture blurry?", (), tmp_path).answer
