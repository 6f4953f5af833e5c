"""Camera shake and frame-rate drops on footage and at times the ffmpeg track does not use.

    python -m bench.figures.motion_windows --corpus DIR --work DIR [--extra DIR] [--seed 7]

The track holds one window per level of each: too few to tell a rule that holds from one fit
to six windows. This makes, per source clip (the evaluation part of the corpus, and with
--extra the clips of another directory that no rule ever read), two 75-s videos, each with a
shake window in one half and a frame-rate drop in the other at random times (the track's own
filter chains, `bench.generate.ffmpeg_distortions`, levels rotating), finished in libx264
like the track; indexes each and prints: the right type found with temporal IoU >= 0.5 per
distortion and level, and every event outside the windows (false alarms on untouched
footage).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

from bench.figures.real_footage import best_iou, iou
from bench.generate.corpus import corpus_clips, frame_rate
from bench.generate.ffmpeg_distortions import DISTORTIONS, LEVELS
from bench.generate.ffmpeg_track import Spec, _window, mezzanine, render, track_ffmpeg
from tools.index import get_index

DURATION_S = 75.0
VIDEOS = 2
NAMES = ("shake", "framerate")
VIDEO_EXT = (".avi", ".mp4", ".mov", ".mkv", ".webm")


def sources(corpus: Path | None, extra: Path | None) -> list[tuple[str, Path]]:
    """(name, path) of the evaluation clips (>= 10 fps) and of the extra directory's videos."""
    out = [(c.name, c.path) for c in corpus_clips(corpus, part="evaluation", clean=True)
           if frame_rate(c.path) >= 10]
    if extra:
        out += [(p.stem, p) for p in sorted(extra.iterdir())
                if p.suffix.lower() in VIDEO_EXT and frame_rate(p) >= 10]
    return out


def make(srcs: list[tuple[str, Path]], work: Path, seed: int) -> list[dict]:
    """Per source, VIDEOS videos, each with a shake window in one half and a frame-rate drop
    in the other (levels rotating over sources and videos; kept when made before); their
    truth, one entry a window."""
    rng = random.Random(seed)
    exe = track_ffmpeg(("libx264", "ffv1"))
    truth = []
    half = DURATION_S / 2
    for i, (name, path) in enumerate(srcs):
        base = mezzanine(path, DURATION_S, work / "base" / f"{name}.mp4", exe)
        rate = frame_rate(base)
        for j in range(VIDEOS):
            dists = [DISTORTIONS[n] for n in NAMES]
            rng.shuffle(dists)
            levels = [LEVELS[(i + j + k) % len(LEVELS)] for k in range(2)]
            wins = (_window(rng, dists[0], levels[0], 6.0, half - 3.0, rate),
                    _window(rng, dists[1], levels[1], half + 3.0, DURATION_S - 6.0, rate))
            spec = Spec(f"{name}-{j}-" + "-".join(f"{w.distortion}{w.level}" for w in wins),
                        name, DURATION_S, wins)
            video = render(spec, base, work / "videos", exe)
            truth += [{"video": str(video), "source": name, "distortion": w.distortion,
                       "type": w.type, "level": w.level, "start_s": w.start_s,
                       "end_s": w.end_s, "windows": [[x.start_s, x.end_s] for x in wins]}
                      for w in wins]
            print(f"made {video.name}", flush=True)
    return truth


def judge(truth: list[dict], work: Path) -> list[dict]:
    """Index every video: best IoU of the right type, types seen in the window, false events."""
    rows = []
    for item in truth:
        idx = get_index(Path(item["video"]), cache_dir=work / "cache", progress=False,
                        clip=False)
        events = [e.to_dict() for e in idx.events]
        span = (item["start_s"], item["end_s"])
        rows.append({**item, "iou": best_iou(item, events),
                     "found_types": sorted({e["type"] for e in events
                                            if iou(span, (e["start_s"], e["end_s"])) > 0}),
                     "false_outside": [e for e in events if all(
                         iou(tuple(w), (e["start_s"], e["end_s"])) == 0
                         for w in item["windows"])] if span == tuple(item["windows"][0])
                     else []})
    return rows


def report(rows: list[dict]) -> None:
    """Found share per distortion and level; every miss and every false event."""
    table: dict[str, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        table[r["distortion"]][r["level"]].append(r["iou"] >= 0.5)
    print("| distortion | level 1 | level 2 | level 3 |\n|---|---|---|---|")
    for name, lv in sorted(table.items()):
        cells = [f"{sum(v)}/{len(v)}" for v in (lv[k] for k in LEVELS)]
        print(f"| {name} | {' | '.join(cells)} |")
    for r in rows:
        mark = "found" if r["iou"] >= 0.5 else "MISSED"
        print(f"  {mark}: {Path(r['video']).name} {r['start_s']:.1f}-{r['end_s']:.1f} "
              f"iou {r['iou']:.2f} saw {r['found_types']}")
    false = [(r, e) for r in rows for e in r["false_outside"]]
    clean_min = sum(DURATION_S - sum(b - a for a, b in r["windows"]) for r in rows
                    if (r["start_s"], r["end_s"]) == tuple(r["windows"][0])) / 60
    print(f"events outside the windows: {len(false)} in {clean_min:.0f} min")
    for r, e in false:
        print(f"  false: {Path(r['video']).name}: {e['type']}/{e['subtype']} "
              f"{e['start_s']:.1f}-{e['end_s']:.1f} sev {e['severity']:.2f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--extra", type=Path, default=None, help="more clips no rule read")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--skip", action="append", default=[], help="leave out this source")
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    srcs = [s for s in sources(args.corpus, args.extra) if s[0] not in args.skip]
    truth = make(srcs, args.work, args.seed)
    rows = judge(truth, args.work)
    (args.work / "motion_windows.json").write_text(json.dumps(rows, indent=1))
    report(rows)


if __name__ == "__main__":
    main()
