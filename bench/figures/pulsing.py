"""How often clean footage passes the slow-pulse tests (tools/detectors/pulsing.py), per test
and together: the false alarms the rule's shape allows, counted in 4-s windows.

    python -m bench.figures.pulsing --corpus DIR --work DIR [--part calibration|evaluation]

Each clip of the part is looped to 3 minutes and indexed (cached under --work, the same loops
`bench calibrate` uses); every judged window (none holding a shot under half a second) is
tested for a whole-picture brightness change, a steady rhythm (regularity at the calibrated
`flicker.periodicity`) and a visible swing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bench.calibrate import clean_videos
from bench.generate.corpus import corpus_clips
from tools.detectors.calibration import value
from tools.detectors.pulsing import PULSE_LEVELS, pulse_windows, pulsing
from tools.detectors.temporal import WHOLE_PICTURE


def counts(videos: list) -> list[dict]:
    """Per clean video: its windows judged, whole-picture, steady, and passing all tests."""
    rows = []
    limit = value("flicker.periodicity")
    for v in videos:
        win = pulse_windows(v.frames["luma"], v.frames["diff"], v.fps,
                            [s.start_frame for s in v.scenes[1:]])
        if win is None:
            continue
        judged = win["judged"]
        whole = judged & (win["whole"] >= WHOLE_PICTURE)
        steady = judged & (win["regularity"] >= limit)
        rows.append({"video": v.name, "minutes": len(v.frames["t"]) / v.fps / 60,
                     "judged": int(judged.sum()), "whole": int(whole.sum()),
                     "steady": int(steady.sum()), "both": int((whole & steady).sum()),
                     "pulsing": int(pulsing(win, limit).sum()),
                     "top_regularity": float(np.max(win["regularity"][judged], initial=0.0))})
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--part", choices=("calibration", "evaluation"), default="calibration")
    args = ap.parse_args(argv)
    clips = corpus_clips(args.corpus, part=args.part, clean=True)
    rows = counts(clean_videos(clips, args.work, blur=False, log=lambda _: None))
    print(f"regularity limit {value('flicker.periodicity'):.3f}, whole-picture share >= "
          f"{WHOLE_PICTURE}, swing >= {PULSE_LEVELS[0]} grey levels")
    print("| video | min | windows judged | whole picture | steady | both | pulsing | "
          "top regularity |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['video']} | {r['minutes']:.1f} | {r['judged']} | {r['whole']} | "
              f"{r['steady']} | {r['both']} | {r['pulsing']} | {r['top_regularity']:.2f} |")
    tot = {k: sum(r[k] for r in rows) for k in ("judged", "whole", "steady", "both", "pulsing")}
    print(f"| all ({sum(r['minutes'] for r in rows):.0f} min) | | {tot['judged']} | "
          f"{tot['whole']} | {tot['steady']} | {tot['both']} | {tot['pulsing']} | |")


if __name__ == "__main__":
    main()
