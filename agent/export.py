"""Quality events as files video tools read: CSV, SRT/WebVTT subtitles, CMX 3600 EDL, OTIO.

One writer per file extension in `EXPORTERS`; `export_events` picks it from the output name.
Subtitles go through pysubs2, the EDL and the OpenTimelineIO timeline through opentimelineio
(the EDL with its cmx_3600 adapter plug-in), so players and editors read what those libraries
write. Times are kept to the millisecond everywhere but the EDL, whose timecodes count frames.
"""

from __future__ import annotations

import csv
import json
import os
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

from tools.errors import UsageError
from tools.model import Event, VideoInfo

Writer = Callable[[Sequence[Event], VideoInfo, Path], None]

CSV_COLUMNS = ("type", "subtype", "start_s", "end_s", "duration_s", "severity", "score",
               "label", "evidence")


def label(e: Event) -> str:
    """What a player shows for an event, e.g. 'blur, severity 0.7'."""
    kind = e.type + (f" ({e.subtype})" if e.subtype else "")
    return f"{kind}, severity {round(float(e.severity), 2):g}"


def ms(seconds: float) -> int:
    """Seconds as whole milliseconds (how subtitle formats count time)."""
    return int(round(float(seconds) * 1000))


def _ordered(events: Sequence[Event]) -> list[Event]:
    return sorted(events, key=lambda e: (e.start_s, e.end_s, e.type))


def write_csv(events: Sequence[Event], info: VideoInfo, path: Path) -> None:
    """One event per row, times in seconds to the millisecond, evidence as JSON."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(CSV_COLUMNS)
        for e in _ordered(events):
            a, b = ms(e.start_s) / 1000, ms(e.end_s) / 1000
            w.writerow([e.type, e.subtype, f"{a:.3f}", f"{b:.3f}", f"{b - a:.3f}",
                        f"{float(e.severity):.3f}", f"{float(e.score):.3f}", label(e),
                        json.dumps(e.evidence, sort_keys=True, default=str)])


def _subtitles(events: Sequence[Event]):
    import pysubs2

    subs = pysubs2.SSAFile()
    for e in _ordered(events):
        start = ms(e.start_s)
        subs.append(pysubs2.SSAEvent(start=start, end=max(ms(e.end_s), start + 1),
                                     text=label(e)))
    return subs


def write_srt(events: Sequence[Event], info: VideoInfo, path: Path) -> None:
    """SubRip subtitles: one cue per event over its span."""
    _subtitles(events).save(str(path), format_="srt", encoding="utf-8")


def write_vtt(events: Sequence[Event], info: VideoInfo, path: Path) -> None:
    """WebVTT cues: one per event over its span."""
    _subtitles(events).save(str(path), format_="vtt", encoding="utf-8")


def _colour(severity: float) -> str:
    from opentimelineio.schema import MarkerColor

    if severity >= 0.7:
        return MarkerColor.RED
    return MarkerColor.ORANGE if severity >= 0.4 else MarkerColor.YELLOW


def timeline(events: Sequence[Event], info: VideoInfo):
    """An OTIO timeline: one video track holding the whole video as one clip, one marker per
    event on it (marked range = the event's span, metadata['lvq'] = the event)."""
    import opentimelineio as otio

    rate = float(info.fps) if info.fps and info.fps > 0 else 25.0
    name = Path(info.path).name

    def rt(seconds: float) -> otio.opentime.RationalTime:
        return otio.opentime.RationalTime(ms(seconds) / 1000 * rate, rate)

    whole = otio.opentime.TimeRange(rt(0.0), rt(float(info.duration_s)))
    ref = otio.schema.ExternalReference(target_url=Path(info.path).resolve().as_uri(),
                                        available_range=whole)
    clip = otio.schema.Clip(name=name, media_reference=ref, source_range=whole)
    for e in _ordered(events):
        span = otio.opentime.TimeRange(rt(e.start_s), rt(e.end_s) - rt(e.start_s))
        clip.markers.append(otio.schema.Marker(
            name=label(e), marked_range=span, color=_colour(float(e.severity)),
            metadata={"lvq": json.loads(json.dumps(e.to_dict(), default=str))}))
    track = otio.schema.Track(name="V1", kind=otio.schema.TrackKind.Video, children=[clip])
    return otio.schema.Timeline(name=f"{name} quality events", tracks=[track])


def write_otio(events: Sequence[Event], info: VideoInfo, path: Path) -> None:
    """An OpenTimelineIO timeline (JSON) with one marker per event."""
    import opentimelineio as otio

    otio.adapters.write_to_file(timeline(events, info), str(path), adapter_name="otio_json")


def write_edl(events: Sequence[Event], info: VideoInfo, path: Path) -> None:
    """A CMX 3600 EDL: one edit holding the whole video, a `* LOC:` locator per event at its
    first frame, named with the event and its end time (a locator has no duration)."""
    import opentimelineio as otio

    tl = timeline(events, info)
    clip = tl.tracks[0][0]
    clip.metadata["cmx_3600"] = {"reel": "AX"}  # AX: an auxiliary (file) source, no tape reel
    for marker in clip.markers:
        end = marker.marked_range.end_time_exclusive().to_seconds()
        marker.name = f"{marker.name} until {end:.3f}s"
    try:
        text = otio.adapters.write_to_string(tl, adapter_name="cmx_3600", style="avid")
    except otio.exceptions.NoKnownAdapterForExtensionError as exc:  # pragma: no cover
        raise UsageError(f"cannot write EDL: {exc}") from None
    path.write_text(text, encoding="utf-8")


EXPORTERS: dict[str, Writer] = {
    ".csv": write_csv,
    ".srt": write_srt,
    ".vtt": write_vtt,
    ".edl": write_edl,
    ".otio": write_otio,
}


def exporter(path: Path) -> Writer:
    """The writer for an output file's extension; UsageError naming the known ones if none."""
    writer = EXPORTERS.get(path.suffix.lower())
    if writer is None:
        raise UsageError(f"cannot export to {path.name!r}: unknown extension "
                         f"{path.suffix or '(none)'}; use one of {', '.join(EXPORTERS)}")
    return writer


def export_events(events: Sequence[Event], info: VideoInfo, path: Path) -> Path:
    """Write the events to `path` in the format its extension names, through a scratch file
    renamed into place (a full disk or an interrupt never leaves half a file); the path."""
    write = exporter(path)
    part = path.with_name(f".{path.stem}.{uuid.uuid4().hex[:8]}.part{path.suffix}")
    try:
        write(events, info, part)
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    return path
