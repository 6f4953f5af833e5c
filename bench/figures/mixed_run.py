"""The README's mixed run: an NDQA set plus hand-written files in each other benchmark's
published layout (Q-Bench-Video single and pair items, MMBench-Video, Video-MME with a
subtitle file), imported, merged into one item file, answered by both tracks with the local
brain, compared (the chart with 95 % intervals clustered by video) and summarised per paper.

    python -m bench.figures.mixed_run --out mixed --png docs/compare-mixed.png
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from rich.console import Console

from bench.compare import chart, compare, levels_table, table4
from bench.importers import ImportOptions, import_file
from bench.items import load_items, write_items
from bench.ndqa import NdqaConfig, generate
from bench.runner import RunConfig, read_results, run, summary_path, write_summary
from bench.score.layouts import summarize_layouts
from bench.score.tables import layout_tables, missing_lines

SRT = ("1\n00:00:02,000 --> 00:00:06,000\nWelcome back.\n\n"
       "2\n00:00:30,000 --> 00:00:34,000\nHere is the second part.\n")


def published_files(root: Path, videos: list[str]) -> list[Path]:
    """Q-Bench-Video JSON, MMBench-Video TSV and Video-MME parquet (+ subtitle) over videos."""
    a, b, c = videos[0], videos[1], videos[2 % len(videos)]
    qb = [{"id": "single", "video_name": a, "question": "Is this video blurry?",
           "answers": ["Yes", "No"], "correct_choice": 1, "question_type": "yes/no",
           "concern": "Technical", "context": "Global"},
          {"id": "pair", "video_name": f"{a}_cat_{b}",
           "question": "Which video has better visual quality?",
           "answers": ["The first video", "The second video"], "correct_choice": 0,
           "question_type": "what/how", "concern": "Technical", "context": "Compare-coarse"},
          {"id": "open", "video_name": b, "question": "What is the main distortion?",
           "answers": ["Short bursts of distortion in a few segments."],
           "question_type": "open-ended", "concern": "Technical", "context": "Global"}]
    (root / "qbench_dev.json").write_text(json.dumps(qb))
    with open(root / "mmbench_video.tsv", "w", newline="") as fh:
        w = csv.DictWriter(fh, ["index", "video", "question", "answer", "dimensions"],
                           delimiter="\t")
        w.writeheader()
        w.writerow({"index": "1", "video": c, "question": "What happens in the video?",
                    "answer": "Scenes of moving shapes and clips follow each other.",
                    "dimensions": "['Action Recognition']"})
    vid = Path(a).stem
    pq.write_table(pa.Table.from_pylist([{
        "video_id": "001", "duration": "short", "domain": "Knowledge", "sub_category": "Other",
        "url": "", "videoID": vid, "question_id": "001-1", "task_type": "Counting Problem",
        "question": "How many scenes are shown?",
        "options": ["A. One.", "B. Two.", "C. Three.", "D. More than three."],
        "answer": "D"}]), root / "videomme.parquet")
    (root / "subtitle").mkdir(exist_ok=True)
    (root / "subtitle" / f"{vid}.srt").write_text(SRT)
    return [root / n for n in ("qbench_dev.json", "mmbench_video.tsv", "videomme.parquet")]


def build(root: Path, videos: int, minutes: float, seed: int) -> Path:
    """The NDQA set and the other files, merged into root/mixed.jsonl."""
    cfg = NdqaConfig(videos=videos, minutes=minutes, seed=seed, per_dimension=1,
                     open_per_video=1)
    if not (root / "items.jsonl").exists():
        generate(root, cfg, preset="ultrafast")
    items, _ = load_items(root / "items.jsonl")
    names = sorted({v for it in items for v in it.videos})
    sub = Path(names[0]).parent  # Video-MME names videos by id alone: they live in one folder
    for path in published_files(root, names):
        vmme = path.suffix == ".parquet"
        opts = ImportOptions(strict=True, video_dir=str(root / sub if vmme else root),
                             subtitles="both")
        more, _ = import_file(path, options=opts)
        items += [it.model_copy(update={"videos": [str(sub / v) for v in it.videos]})
                  if vmme else it for it in more]
    target = root / "mixed.jsonl"
    write_items(target, items)
    return target


def main() -> None:
    """Build, run both tracks, compare, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("mixed"))
    ap.add_argument("--png", type=Path, default=None)
    ap.add_argument("--videos", type=int, default=3)
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    con = Console(width=160)
    items_path = build(args.out, args.videos, args.minutes, args.seed)
    outs = {}
    for track in ("uniform", "agent"):
        out = args.out / f"{track}.jsonl"
        cfg = RunConfig(track=track, brain="local", cache_dir=str(args.out / "cache"),
                        open_scoring=False)
        write_summary(summary_path(out), run(items_path, out, cfg))
        outs[track] = out
    sa, sb, n = compare(outs["uniform"], outs["agent"], common_only=True)
    runs = [("uniform/local", sa), ("agent/local", sb)]
    con.print(table4(runs))
    con.print(levels_table(runs))
    png = chart(runs, args.png or args.out / "compare.png")
    items = {it.id: it for it in load_items(items_path)[0]}
    for track, out in outs.items():
        con.print(f"[bold]{track}/local[/]: per paper")
        s = summarize_layouts(read_results(out), items)
        for t in layout_tables(s):
            con.print(t)
        for line in missing_lines(s):
            con.print(line, highlight=False)
    con.print(f"{n} items compared; chart {png}")


if __name__ == "__main__":
    main()
