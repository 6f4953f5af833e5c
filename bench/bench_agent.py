"""Benchmarks of `agent answer` with the local brain: localisation on the detection cases,
asked three ways per event type, and answer latency from a cached index.

    python -m bench.bench_agent localise [--seeds 1,2,3] [--level 2] [--work DIR]
    python -m bench.bench_agent latency  --video LONG.mp4 [--repeats 5]

`localise` reuses the videos and indexes of `python -m bench.bench_index detect` (same work
directory). Timing lives here, never in the tests.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

console = Console()

# Three phrasings per detection case (the words people use for each problem).
PHRASINGS: dict[str, tuple[str, str, str]] = {
    "blur": ("When does blur occur?", "At what times is the picture blurry?",
             "Find the segments where the video looks out of focus."),
    "noise": ("When does noise occur?", "At what times is the video noisy?",
              "Where in the video is there visible grain?"),
    "jpeg": ("When do compression artifacts occur?", "At what times does the picture look blocky?",
             "Find the segments with macroblocking."),
    "brightness": ("When is the video overexposed?", "At what times is the picture too bright?",
                   "Where does the image look washed out?"),
    "contrast": ("When does the contrast drop?",
                 "At what times does the picture look flat and dull?",
                 "Find the segments with low contrast."),
    "hue": ("When does a colour cast appear?", "At what times is the picture tinted?",
            "Where does the hue shift?"),
    "saturation": ("When is the video oversaturated?", "At what times are the colours too vivid?",
                   "Find the segments where saturation is unnatural."),
    "flicker": ("When does flicker occur?", "At what times does the picture flash?",
                "Find the segments where the brightness is strobing."),
    "frame_drop": ("When do frames drop?", "At what times is playback choppy?",
                   "Where are frames skipped?"),
    "stutter": ("When does the video stutter?", "At what times does the picture freeze?",
                "Find the segments where playback pauses."),
    "jitter": ("When does jitter occur?", "At what times is the camera shaky?",
               "Find the segments with camera shake."),
}


def _spans(answer, expect: str) -> list[tuple[float, float]]:
    return [(s.start_s, s.end_s) for s in answer.segments if s.label.startswith(expect)]


def cmd_localise(work: Path, seeds: list[int], level: int, minutes: float) -> dict:
    from agent.run import answer_question
    from bench.detection import case_plan, interval_iou, make_cases
    from tools.index import get_index

    rows = case_plan(minutes * 60, seeds, level=level)
    manifests = make_cases(rows, work / "detect", minutes * 60)
    per: dict[str, list[float]] = {}
    clean_ok: list[bool] = []
    latencies: list[float] = []
    for man in manifests:
        case = man["case"]
        ix = get_index(man["path"], cache_dir=work / "cache", progress=False, clip=False)
        names = [case["name"]] if case["expect"] else list(PHRASINGS)
        for name in names:
            for q in PHRASINGS[name]:
                t0 = time.perf_counter()
                ans = answer_question(man["path"], q, cache_dir=work / "cache", index=ix,
                                      progress=False)
                latencies.append(time.perf_counter() - t0)
                if case["expect"] is None:
                    clean_ok.append(not ans.segments)
                else:
                    iou = interval_iou(_spans(ans, case["expect"]),
                                       (case["start_s"], case["end_s"]))
                    per.setdefault(name, []).append(iou)
    t = Table(title=f"agent answer (local brain): 'When ...' questions, 3 phrasings, level {level}")
    for col in ("case", "IoU>=0.5", "mean IoU"):
        t.add_column(col)
    hits = total = 0
    for name, ious in per.items():
        ok = sum(i >= 0.5 for i in ious)
        hits, total = hits + ok, total + len(ious)
        t.add_row(name, f"{ok}/{len(ious)}", f"{statistics.mean(ious):.2f}")
    t.add_row("clean (says none)", f"{sum(clean_ok)}/{len(clean_ok)}", "-")
    console.print(t)
    res = {"localised": hits, "questions": total, "rate": round(hits / max(1, total), 3),
           "clean_none": sum(clean_ok), "clean_questions": len(clean_ok),
           "median_answer_s": round(statistics.median(latencies), 3) if latencies else None}
    console.print(f"localised {hits}/{total} ({res['rate']:.0%}); clean answered 'none' "
                  f"{res['clean_none']}/{res['clean_questions']}")
    return res


def cmd_latency(video: Path, work: Path, repeats: int) -> dict:
    """Wall time of answering from a cached index (index built first if needed)."""
    from agent.run import answer_question
    from tools.index import get_index

    t0 = time.perf_counter()
    get_index(video, cache_dir=work / "cache", progress=True, clip=False)
    build = time.perf_counter() - t0
    questions = ["When does flicker occur?", "Which half of the video is blurrier?",
                 "Does the quality get worse over time?", "What is the dominant distortion?",
                 "Is there any stutter in the last minute?"]
    times = []
    for _ in range(repeats):
        for q in questions:
            t1 = time.perf_counter()
            ix = get_index(video, cache_dir=work / "cache", progress=False, clip=False)
            answer_question(video, q, cache_dir=work / "cache", index=ix, progress=False)
            times.append(time.perf_counter() - t1)
    res = {"video": str(video), "index_or_cache_s": round(build, 2),
           "answer_s_median": round(statistics.median(times), 3),
           "answer_s_max": round(max(times), 3), "answers": len(times)}
    console.print(f"answer from cached index (load + graph): median {res['answer_s_median']} s, "
                  f"max {res['answer_s_max']} s over {len(times)} answers")
    return res


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.bench_agent", description=__doc__)
    ap.add_argument("what", choices=("localise", "latency"))
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "lvq-bench")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--level", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=3.0)
    ap.add_argument("--video", type=Path)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.what == "localise":
        res = cmd_localise(args.work, [int(s) for s in args.seeds.split(",")], args.level,
                           args.minutes)
    else:
        if not args.video:
            ap.error("latency needs --video")
        res = cmd_latency(args.video, args.work, args.repeats)
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    console.print_json(json.dumps(res))


if __name__ == "__main__":
    main()
