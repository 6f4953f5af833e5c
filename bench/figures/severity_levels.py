"""How the answers' severity words (mild / moderate / severe) agree with the ffmpeg track's
levels 1-3, per event type: the figure behind "how severe is the X?" on real footage.

    python -m bench.figures.severity_levels --track DIR --work DIR [--track DIR --work DIR]

Each truth window whose type was found (an event of its type overlapping it) is read as the
local brain reads it (`levels.events_level`: each detector's severity on its own cuts) and set
beside the level the track gave the window. Frozen pictures are left out: their level is their
length, which the answer states in seconds.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from agent.brains.local.levels import events_level
from bench.figures.real_footage import indexed, iou


def level_pairs(track: Path, work: Path) -> dict[str, Counter]:
    """Per event type, a count of (truth level, answer level) over the found windows."""
    pairs: dict[str, Counter] = defaultdict(Counter)
    for line in (track / "truth.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        video = track / item["video"]
        events = indexed(video, work)["events"]
        for w in item.get("windows", [item]):
            if "level" not in w or w["type"] == "freeze":
                continue
            span = (float(w["start_s"]), float(w["end_s"]))
            found = [e for e in events if e["type"] == w["type"]
                     and iou(span, (e["start_s"], e["end_s"])) > 0]
            if found:
                pairs[w["type"]][(int(w["level"]), int(events_level(found)))] += 1
    return pairs


def print_levels(pairs: dict[str, Counter]) -> None:
    """One row per type: found windows, exact and within-one agreement, the words per level."""
    words = "-mMS"  # none, mild, moderate, severe
    print("| type | found | same level | within one | level 1 | level 2 | level 3 |")
    print("|---|---:|---:|---:|---|---|---|")
    tot = Counter()
    for etype, c in sorted(pairs.items()):
        n = sum(c.values())
        same = sum(v for (a, b), v in c.items() if a == b)
        near = sum(v for (a, b), v in c.items() if abs(a - b) <= 1)
        cols = ["".join(words[b] * c[(lv, b)] for b in (1, 2, 3)) or "." for lv in (1, 2, 3)]
        print(f"| {etype} | {n} | {same} | {near} | " + " | ".join(cols) + " |")
        tot.update(n=n, same=same, near=near)
    if tot["n"]:
        print(f"| all | {tot['n']} | {tot['same']} ({tot['same'] / tot['n']:.0%}) | "
              f"{tot['near']} ({tot['near'] / tot['n']:.0%}) | | | |")
    print("(words read: m mild, M moderate, S severe)")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--track", type=Path, action="append", required=True)
    ap.add_argument("--work", type=Path, action="append", required=True,
                    help="the real-footage figures' work directory of each track (its cache)")
    args = ap.parse_args(argv)
    if len(args.track) != len(args.work):
        ap.error("give one --work per --track")
    pairs: dict[str, Counter] = defaultdict(Counter)
    for track, work in zip(args.track, args.work, strict=True):
        for etype, c in level_pairs(track, work).items():
            pairs[etype].update(c)
    print_levels(pairs)


if __name__ == "__main__":
    main()
