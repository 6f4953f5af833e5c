"""Detection under ffmpeg filters the project never developed against (a check of how far the
detectors carry beyond the ffmpeg track's own 22 distortions).

    python -m bench.figures.unseen_filters --corpus DIR [--work DIR]

Each of ten filters the track does not use (smartblur, colortemperature, vibrance, curves,
dctdnoiz, lutyuv, pixelize, uniform noise, hue saturation, eq contrast) is applied over one
window of a 3-minute loop of an evaluation clip (never a calibration clip), with the filter's
timeline option (`enable='between(t,a,b)'`), then encoded with libx264 CRF 18. The table says
whether an event of the expected type overlaps the window with IoU >= 0.5. The windows and
strengths were set once, before the first run, and not changed after it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bench.figures.real_footage import iou
from bench.generate.corpus import corpus_clips, encoded, looped
from tools.index import get_index

# (name, expected type, evaluation clip, filter, window start s, window end s)
FILTERS: tuple[tuple[str, str, str, str, float, float], ...] = (
    ("smartblur", "blur", "cockatoo", "smartblur=lr=5:ls=1", 40.0, 75.0),
    ("colortemperature", "colour", "rocket-launch", "colortemperature=temperature=2500",
     60.0, 95.0),
    ("vibrance", "colour", "realshort", "vibrance=intensity=2", 30.0, 60.0),
    ("curves-darker", "exposure", "coin-motion", "curves=preset=darker", 100.0, 130.0),
    ("dctdnoiz", "blur", "rocket-launch", "dctdnoiz=sigma=25", 20.0, 50.0),
    ("lutyuv-bright", "exposure", "cockatoo", "lutyuv=y='clip(val*1.5,0,255)'", 110.0, 140.0),
    ("noise-uniform", "noise", "coin-motion", "noise=alls=25:allf=u", 50.0, 80.0),
    ("pixelize", "compression", "cockatoo", "pixelize=w=8:h=8", 70.0, 100.0),
    ("hue-s0.2", "colour", "realshort", "hue=s=0.2", 120.0, 150.0),
    ("eq-contrast0.4", "exposure", "rocket-launch", "eq=contrast=0.4", 130.0, 160.0),
)
LOOP_S = 180.0
MIN_IOU = 0.5


def filtered(loop: Path, flt: str, a: float, b: float, out: Path) -> Path:
    """The loop with the filter on over [a, b] s only (made once)."""
    return encoded(out, ["-i", str(loop), "-an",
                         "-vf", f"{flt}:enable='between(t,{a:g},{b:g})',format=yuv420p",
                         "-c:v", "libx264", "-preset", "veryfast", "-crf", "18"])


def run(corpus: Path, work: Path) -> list[dict]:
    """One row per filter: the events of its type and the best IoU with the window."""
    clips = {c.name: c for c in corpus_clips(corpus, part="evaluation", clean=True)}
    rows = []
    for name, etype, clip, flt, a, b in FILTERS:
        if clip not in clips:
            raise SystemExit(f"the corpus in {corpus} has no evaluation clip {clip!r}")
        loop = looped(clips[clip].path, LOOP_S, work / "loops" / f"{clip}.mp4")
        video = filtered(loop, flt, a, b, work / f"{name}.mp4")
        idx = get_index(video, cache_dir=work / "cache", progress=False, clip=False)
        mine = [e for e in idx.events if e.type == etype]
        best = max((iou((e.start_s, e.end_s), (a, b)) for e in mine), default=0.0)
        rows.append({"filter": name, "type": etype, "clip": clip, "window": (a, b),
                     "iou": best, "found": best >= MIN_IOU,
                     "events": [(e.type, e.subtype, e.start_s, e.end_s) for e in idx.events]})
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, required=True)
    ap.add_argument("--work", type=Path, default=Path("unseen-filters"))
    args = ap.parse_args(argv)
    rows = run(args.corpus, args.work)
    print("| filter | clip | window | expected type | found (IoU >= 0.5) | events |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        evs = "; ".join(f"{t}/{s} {a:.0f}-{b:.0f}" for t, s, a, b in r["events"]) or "none"
        print(f"| {r['filter']} | {r['clip']} | {r['window'][0]:g}-{r['window'][1]:g} s | "
              f"{r['type']} | {'yes' if r['found'] else 'no'} ({r['iou']:.2f}) | {evs} |")
    print(f"\nfound: {sum(r['found'] for r in rows)} of {len(rows)}")


if __name__ == "__main__":
    main()
