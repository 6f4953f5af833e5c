"""Event exports: each file is read back by the library a player or editor would use."""

from __future__ import annotations

import csv
import json

import opentimelineio as otio
import pysubs2
import pytest
from typer.testing import CliRunner

from agent.cli import app
from agent.export import EXPORTERS, export_events, exporter, label
from tests.tiny_videos import tiny_video
from tools.errors import UsageError
from tools.model import Event, VideoInfo

INFO = VideoInfo("/videos/clip one.mp4", 300.0, 25.0, 7500, 640, 360, "h264", False)
EVENTS = [
    Event("flicker", 70.6123, 86.1, 0.83, 20.0, "brightness oscillation", {"luma_swing": 40.5}),
    Event("blur", 12.3456, 15.0009, 0.7, 8.1, "", {"signal": "sharpness"}),
    Event("noise", 14.0, 14.5, 0.25, 3.2),  # overlaps the blur
    Event("freeze", 3599.999, 3601.25, 1.0, 9.0),  # past the hour: timecodes roll over
]
ORDERED = sorted(EVENTS, key=lambda e: e.start_s)


def ms(seconds: float) -> int:
    return int(round(seconds * 1000))


def test_label_reads_like_a_cue():
    assert label(EVENTS[1]) == "blur, severity 0.7"
    assert label(EVENTS[0]) == "flicker (brightness oscillation), severity 0.83"


@pytest.mark.parametrize("ext", [".srt", ".vtt"])
def test_subtitles_read_back_by_pysubs2(tmp_path, ext):
    path = export_events(EVENTS, INFO, tmp_path / f"events{ext}")
    subs = pysubs2.load(str(path))
    assert len(subs) == len(EVENTS)
    assert [(s.start, s.end) for s in subs] == [(ms(e.start_s), ms(e.end_s)) for e in ORDERED]
    assert [s.plaintext for s in subs] == [label(e) for e in ORDERED]
    if ext == ".vtt":
        assert path.read_text().startswith("WEBVTT")


def test_csv_one_event_per_row(tmp_path):
    path = export_events(EVENTS, INFO, tmp_path / "events.csv")
    rows = list(csv.DictReader(path.open(newline="")))
    assert len(rows) == len(EVENTS)
    for row, e in zip(rows, ORDERED, strict=True):
        assert row["type"] == e.type and row["subtype"] == e.subtype
        assert ms(float(row["start_s"])) == ms(e.start_s)
        assert ms(float(row["end_s"])) == ms(e.end_s)
        assert float(row["severity"]) == pytest.approx(e.severity)
        assert json.loads(row["evidence"]) == e.evidence


def test_otio_markers_read_back(tmp_path):
    path = export_events(EVENTS, INFO, tmp_path / "events.otio")
    tl = otio.adapters.read_from_file(str(path))
    (clip,) = list(tl.find_clips())
    assert clip.media_reference.target_url.endswith("clip%20one.mp4")
    assert clip.source_range.duration.to_seconds() == pytest.approx(INFO.duration_s)
    assert len(clip.markers) == len(EVENTS)
    for m, e in zip(clip.markers, ORDERED, strict=True):
        r = m.marked_range
        assert ms(r.start_time.to_seconds()) == ms(e.start_s)
        assert ms(r.end_time_exclusive().to_seconds()) == ms(e.end_s)
        assert m.name == label(e)
        assert m.metadata["lvq"]["type"] == e.type
        assert m.metadata["lvq"]["severity"] == pytest.approx(e.severity)
    assert clip.markers[-1].color == otio.schema.MarkerColor.RED  # severity 1.0


def test_edl_locators_read_back_by_the_cmx_adapter(tmp_path):
    path = export_events(EVENTS, INFO, tmp_path / "events.edl")
    text = path.read_text()
    assert text.startswith("TITLE: ")
    assert "* LOC: 00:59:59:24 RED" in text  # 3599.999 s: the last frame of hour 0
    tl = otio.adapters.read_from_file(str(path), adapter_name="cmx_3600", rate=INFO.fps)
    (clip,) = list(tl.find_clips())
    assert clip.source_range.duration.to_seconds() == pytest.approx(INFO.duration_s)
    assert len(clip.markers) == len(EVENTS)
    frame = 1 / INFO.fps
    for m, e in zip(clip.markers, ORDERED, strict=True):
        t = m.marked_range.start_time.to_seconds()
        assert abs(t - e.start_s) <= frame  # a locator's timecode counts whole frames
        assert m.name.startswith(e.type.upper())
        assert m.name.endswith(f"UNTIL {ms(e.end_s) / 1000:.3f}S")


def test_unknown_extension_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError, match=r"unknown extension \.mkv; use one of \.csv"):
        exporter(tmp_path / "events.mkv")
    assert set(EXPORTERS) == {".csv", ".srt", ".vtt", ".edl", ".otio"}


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    return tiny_video(tmp_path_factory.mktemp("export") / "tiny.mp4", seconds=2.0)


def test_cli_index_export(make_clip, tmp_path, cache_dir):
    video, _ = make_clip(20.0, needles=[("flicker", 3, 8, 13)])
    out = tmp_path / "events.srt"
    res = CliRunner().invoke(app, ["index", str(video), "--json", "-q", "--no-clip",
                                   "--export", str(out)])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert any(e["type"] == "flicker" for e in summary["events"])
    assert f"wrote {len(summary['events'])} events to" in res.stderr
    subs = pysubs2.load(str(out))
    assert len(subs) == len(summary["events"])
    assert [s.start for s in subs] == sorted(ms(e["start_s"]) for e in summary["events"])


def test_cli_unknown_export_extension_exits_2(small, tmp_path, cache_dir):
    res = CliRunner().invoke(app, ["index", str(small), "-q", "--export",
                                   str(tmp_path / "events.docx")])
    assert res.exit_code == 2
    assert "unknown extension .docx" in res.stderr
    assert not (tmp_path / "events.docx").exists()
    assert not cache_dir.exists()  # refused before measuring anything
