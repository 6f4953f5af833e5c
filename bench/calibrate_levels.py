"""The severity words' cuts (mild below, severe from) per event type, read off an ffmpeg track
made on the calibration part of the corpus, so that "how severe is the X?" follows the levels
of real degradations and not the project's own generator.

    python -m bench.generate.ffmpeg_track --part calibration --corpus C --out T --seed 5 --long 0
    bench calibrate-levels --track T --work W      # writes agent/brains/local/level_cuts.json

Each truth window whose type was found is read at the severity of its worst overlapping event
(on the detector that graded it); per type, the pair of cuts that gives the most windows their
own level wins (ties: the most within one level, then the widest margin to the nearest
severity). Types with fewer than MIN_WINDOWS found windows keep the built-in cuts. Evaluate on
the evaluation track with `python -m bench.figures.severity_levels`.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from agent.brains.local.levels import LEVEL_CUTS_FILE, graded_kind
from bench.figures.real_footage import iou
from tools.index import get_index

MIN_WINDOWS = 6
_MEASURED = "measured as "


def _key(kind: str) -> str:
    """The cuts an event is read on: its grading detector's type ("noise/grain" -> "noise"),
    or the whole kind for a type measured by another detector."""
    etype, _, sub = kind.partition("/")
    return kind if sub.startswith(_MEASURED) else etype


def window_severities(track: Path, work: Path) -> list[tuple[str, int, float]]:
    """(cuts key, truth level, severity) of every found truth window of the track."""
    rows = []
    for line in (track / "truth.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        events = [e.to_dict() for e in get_index(track / item["video"], cache_dir=work / "cache",
                                                  progress=False, clip=False).events]
        for w in item.get("windows", [item]):
            if "level" not in w or w["type"] == "freeze":  # a freeze's level is its length
                continue
            span = (float(w["start_s"]), float(w["end_s"]))
            found = [e for e in events if e["type"] == w["type"]
                     and iou(span, (e["start_s"], e["end_s"])) > 0]
            if found:
                worst = max(found, key=lambda e: e["severity"])
                rows.append((_key(graded_kind(worst)), int(w["level"]), float(worst["severity"])))
    return rows


def _level(s: float, mild: float, severe: float) -> int:
    return 1 if s < mild else 2 if s < severe else 3


def fit_cuts(pairs: list[tuple[int, float]]) -> tuple[float, float, int]:
    """The (mild, severe) cuts giving the most (level, severity) pairs their level, and how
    many they give it."""
    sev = sorted({s for _, s in pairs})
    mids = {round((a + b) / 2, 4) for a, b in zip(sev, sev[1:], strict=False)}
    cands = sorted(mids | {sev[0], 1.0})
    best: tuple = ()
    for i, mild in enumerate(cands):
        for severe in cands[i + 1:]:
            levels = [(lv, _level(s, mild, severe)) for lv, s in pairs]
            same = sum(a == b for a, b in levels)
            near = sum(abs(a - b) <= 1 for a, b in levels)
            margin = min(min(abs(s - mild), abs(s - severe)) for _, s in pairs)
            score = (same, near, margin)
            if not best or score > best[0]:
                best = (score, mild, severe)
    return best[1], best[2], best[0][0]


def run(tracks: list[Path], works: list[Path], out_file: Path | None = None,
        log=print) -> dict[str, Any]:
    """Fit the cuts on the tracks' found windows and write them (atomically) to the file."""
    by_key: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for track, work in zip(tracks, works, strict=True):
        for key, level, sev in window_severities(track, work):
            by_key[key].append((level, sev))
    cuts: dict[str, Any] = {}
    for key, pairs in sorted(by_key.items()):
        if len(pairs) < MIN_WINDOWS:
            log(f"{key}: {len(pairs)} found windows, fewer than {MIN_WINDOWS}: built-in cuts")
            continue
        mild, severe, same = fit_cuts(pairs)
        cuts[key] = {"mild_below": mild, "severe_from": severe, "windows": len(pairs),
                     "same_level": same}
        log(f"{key}: mild below {mild}, severe from {severe}: {same} of {len(pairs)} windows "
            "at their own level")
    data = {"made_by": "bench calibrate-levels", "tracks": [str(t) for t in tracks],
            "rule": "per type, the cuts that give the most found windows of the calibration "
                    "track their own level (ties: most within one level, widest margin)",
            "cuts": cuts}
    out = out_file or LEVEL_CUTS_FILE
    tmp = out.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, out)
    return data
