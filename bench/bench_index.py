"""Detection accuracy of the quality index: one injected event per generated video.

    python -m bench.bench_index detect  [--seeds 1,2] [--level 2] [--minutes 3] [--work DIR]

Videos are generated (real clips + procedural scenes, libx264) into the work directory once
and reused. Speed, memory and scale figures: `python -m bench.figures.scale`.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from rich.console import Console
from rich.table import Table

console = Console()


def cmd_detect(
    work: Path, seeds: list[int], level: int, minutes: float, workers: int, clean: int = 3
) -> dict:
    from bench.detection import CASES, case_plan, make_cases, score_case
    from tools.index import get_index

    rows = case_plan(minutes * 60, seeds, level=level, clean_per_seed=clean)
    manifests = make_cases(rows, work / "detect", minutes * 60, workers=workers)
    per: dict[str, list] = {}
    ious: list[float] = []
    for man in manifests:
        case = man["case"]
        ix = get_index(man["path"], cache_dir=work / "cache", progress=False, clip=False)
        sc = score_case(case, [e.to_dict() for e in ix.events])
        per.setdefault(case["name"], []).append(sc)
        if sc["iou"] is not None:
            ious.append(sc["iou"])
    t = Table(title=f"detection: one injected event per {minutes:g}-min video, level {level}, "
                    f"seeds {seeds}")
    for col in ("case", "found (IoU>=0.5)", "mean IoU", "other event types reported"):
        t.add_column(col)
    hits = total = 0
    for name, *_ in (*CASES, ("clean",)):
        scs = per.get(name, [])
        if not scs:
            continue
        ok = sum(s["ok"] for s in scs)
        iou = [s["iou"] for s in scs if s["iou"] is not None]
        others = sorted({x for s in scs for x in s["false"]})
        t.add_row(name, f"{ok}/{len(scs)}", f"{sum(iou) / len(iou):.2f}" if iou else "-",
                  ", ".join(others) or "-")
        if name != "clean":
            hits, total = hits + ok, total + len(scs)
    console.print(t)
    clean = per.get("clean", [])
    res = {"found": hits, "cases": total, "found_rate": round(hits / max(1, total), 3),
           "clean_ok": sum(s["ok"] for s in clean), "clean": len(clean),
           "mean_iou": round(sum(ious) / max(1, len(ious)), 3)}
    console.print(f"found {hits}/{total} ({res['found_rate']:.0%}); clean videos without events "
                  f"{res['clean_ok']}/{res['clean']}; mean IoU {res['mean_iou']}")
    return res


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_index", description=__doc__)
    ap.add_argument("what", choices=("detect",))
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "lvq-bench")
    ap.add_argument("--minutes", type=float, default=None)
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--level", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--clean", type=int, default=3, help="clean videos per seed (detect)")
    ap.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = ap.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    seeds = [int(s) for s in args.seeds.split(",")]
    res = cmd_detect(args.work, seeds, args.level, args.minutes or 3, args.workers, args.clean)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    console.print_json(json.dumps(res))


if __name__ == "__main__":
    main()
