"""`bench calibrate`: measure every detector threshold on clean real footage, write the file.

Only the calibration part of the corpus (split by source, see bench.generate.corpus) is used;
the evaluation part stays unseen. Each clip is looped to a few minutes and indexed by the
product's own index; then, in two stages, (1) every threshold a detector declares is set at
its false-alarm rate from the clean values, and (2) the detectors run on the same clean
videos with those thresholds and every event still found sets its type's severity gate.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.calibrate_blur import hand_blurred
from bench.generate.corpus import Clip, concatenated, corpus_clips, looped, rate_families
from tools.detectors import calibration as cal
from tools.detectors.calibration import CleanVideo
from tools.index import derive, get_index

CALIBRATION_VERSION = 1
LOOP_S = 180.0


LONG_S = 1800.0


def _clean(video: Path, name: str, work: Path) -> CleanVideo:
    idx = get_index(video, cache_dir=work / "cache", progress=False, clip=False)
    return CleanVideo(name, idx.info.fps, idx.frames, idx.samples, idx.scenes,
                      list(idx.meta.get("raw_cuts", [])))


def clean_videos(clips: list[Clip], work: Path, seconds: float = LOOP_S,
                 long_s: float = LONG_S, log: Callable[[str], None] = print,
                 blur: bool = True) -> list[CleanVideo]:
    """Each clip looped to `seconds`, and the clips of each frame-rate family one after
    another over `long_s` (a long video's cuts between unlike footage), indexed (cached
    under `work`); with `blur`, each loop's truly blurred copy beside it (bench/
    calibrate_blur.py)."""
    out = []
    for c in clips:
        loop = looped(c.path, seconds, work / "loops" / f"{c.name}.mp4")
        video = _clean(loop, c.name, work)
        if blur:
            hand_blurred(video, loop, work)
        out.append(video)
        log(f"calibrate: {c.name} ({c.source}) indexed{' with its blurred copy' if blur else ''}")
    for family, group in rate_families(clips).items() if long_s else ():
        name = f"{family}-{long_s / 60:.0f}min"
        video = concatenated([c.path for c in group], long_s, work / "loops" / f"{name}.mp4")
        out.append(_clean(video, name, work))
        log(f"calibrate: {name} ({len(group)} clips one after another) indexed")
    return out


def _gates(videos: list[CleanVideo]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Per event type, the strongest event the calibrated detectors still find on clean
    footage: its severity becomes the gate an event must pass. Found without the judgement
    against the same picture elsewhere (tools/detectors/twin_events.py): it drops the clean
    events whose picture recurs unchanged, but footage that repeats too little has too few
    twins for it, and the gates must still hold such footage."""
    gates: dict[str, Any] = {}
    found = []
    for v in videos:
        _, events = derive(v.fps, v.frames, v.samples, v.raw_cuts, gated=False, twins=False)
        for e in events:
            found.append({"clip": v.name, **e.to_dict()})
            key = cal.gate_key(e.type, e.subtype, e.end_s - e.start_s)
            g = gates.setdefault(key, {"value": 0.0, "clean_events": 0})
            g["clean_events"] += 1
            g["value"] = round(max(g["value"], e.severity + 0.005), 3)
    return _monotone(gates), found


def _monotone(gates: dict[str, Any]) -> dict[str, Any]:
    """A gate is at least that of every longer duration class of its type: content that
    mimics a degradation for a minute can mimic it for a few seconds too."""
    names = [name for name, _ in cal.DURATION_CLASSES]
    kinds = {k.rsplit("/", 1)[0] for k in gates}
    out = {}
    for kind in sorted(kinds):
        floor = 0.0
        for name in reversed(names):  # long -> short
            g = gates.get(f"{kind}/{name}")
            floor = max(floor, g["value"] if g else 0.0)
            if floor > 0:
                out[f"{kind}/{name}"] = {"value": floor,
                                         "clean_events": g["clean_events"] if g else 0}
    return out


def run(corpus_dir: Path | None, work: Path, out: Path | None = None,
        log: Callable[[str], None] = print) -> dict[str, Any]:
    """Calibrate on the calibration part of the corpus and write the calibration file."""
    clips = corpus_clips(corpus_dir, part="calibration", clean=True)
    if not clips:
        raise FileNotFoundError("no calibration clips found")
    videos = clean_videos(clips, work, log=log)
    target = out or cal.CALIBRATION_FILE
    data: dict[str, Any] = {
        "version": CALIBRATION_VERSION,
        "made_by": "bench calibrate",
        "date": dt.date.today().isoformat(),
        "machine": f"{platform.machine()} {os.cpu_count()} cpu",
        "alpha": {"video": cal.VIDEO_ALPHA},
        "false_alarm_rule": (
            "each threshold: where a normal fit of the clean values puts the false-alarm rate "
            "alpha, never inside the clean values; each event type: its severity gate lies "
            "above every event still found on the clean calibration videos (0 per clean hour)"),
        "part": "calibration",
        "clips": [{"name": c.name, "source": c.source, "kind": c.kind} for c in clips],
        "clean_minutes": round(sum(len(v.frames["t"]) / v.fps for v in videos) / 60, 1),
        "thresholds": cal.calibrate(videos),
        "gates": {},
    }
    _write(target, data)
    gates, found = _gates(videos)
    data["gates"] = gates
    data["clean_events_before_gates"] = len(found)
    _write(target, data)
    log(f"calibrate: {len(data['thresholds'])} thresholds, gates for {sorted(gates)} "
        f"({len(found)} clean events before gating) -> {target}")
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)
    cal.reload()
