"""Questions on the ffmpeg distortion track, phrased as people ask them, from its truth.

    python -m bench.generate.track_questions --track DIR [--seed 16]   # writes DIR/items.jsonl

Per degraded window: localisation (which of four stretches), classification (which problem in
a stretch), detection (yes in the window, no in an untouched stretch). Per video with two
windows: order (which comes first) and dominant factor (which takes more of the video). Per
trend video: does the picture get worse, better, or stay the same. Wording varies per item,
drawn from everyday and video-engineering phrasings of each problem (not the product's
vocabulary file); the multiple-choice layout is LongVQUBench's (bench.items.Item).
"""

from __future__ import annotations

import argparse
import json
import os
import random
from pathlib import Path
from typing import Any

from bench.items import Item

# When-questions per kind of problem: distortion-specific first, then by event type.
WHEN: dict[str, list[str]] = {
    "blur": ["When does the picture lose its sharpness?", "At what point does the video go soft?",
             "When is the image out of focus?", "Where does the footage become blurry?"],
    "noise": ["When does the image get grainy?", "At what point is there visible noise?",
              "When does the picture look speckled or snowy?"],
    "darken": ["When is the picture too dark?", "At what point does the video get murky?"],
    "brighten": ["When is the picture overexposed?", "When does the image look too bright?"],
    "gamma": ["When does the picture look washed out?", "When are the shadows lifted grey?"],
    "contrast": ["When does the picture look flat and low in contrast?",
                 "At what point does the image lose its contrast?"],
    "hue": ["When do the colours look wrong?", "At what point is there a colour shift?"],
    "colorbalance": ["When does a colour cast appear?", "When is the picture tinted?"],
    "saturate": ["When do the colours look oversaturated?", "When are the colours too strong?"],
    "desaturate": ["When do the colours fade out?", "At what point does the colour drain away?"],
    "sharpening": ["When are the edges over-sharpened with halos?",
                   "When do bright outlines ring around edges?"],
    "flicker": ["When does the brightness flicker?", "At what point does the picture pulse?"],
    "jitter": ["When does the camera shake?", "At what point is the picture wobbly?"],
    "frame_drop": ["When does the motion get choppy?", "When does playback look jerky?"],
    "interlace": ["When do combing lines show on moving edges?",
                  "At what point do interlacing artefacts appear?"],
    "compression": ["When does the picture get blocky?", "When do compression artefacts appear?",
                    "At what point is there macroblocking?"],
    "freeze": ["When does the picture freeze?", "At what point does the image get stuck?"],
    "corruption": ["When does the stream break up into glitches?",
                   "At what point is the picture corrupted?"],
}
NAMES: dict[str, str] = {
    "blur": "Loss of sharpness (blur)", "noise": "Grain / noise",
    "exposure": "Exposure or contrast problem", "colour": "Wrong colours",
    "sharpening": "Over-sharpening halos", "flicker": "Flicker", "jitter": "Camera shake",
    "frame_drop": "Choppy motion (dropped frames)", "interlace": "Interlacing (combing)",
    "compression": "Compression blocking", "freeze": "Frozen picture",
    "corruption": "Stream corruption (glitches)",
}
ASK: dict[str, list[str]] = {
    "blur": ["Does the video go soft", "Is the picture blurry"],
    "noise": ["Is the picture noisy", "Is there grain in the image"],
    "exposure": ["Is the exposure or contrast off", "Does the brightness look wrong"],
    "colour": ["Are the colours off", "Is there a colour problem"],
    "sharpening": ["Are the edges over-sharpened", "Are there sharpening halos"],
    "flicker": ["Does the image flicker", "Does the brightness pulse"],
    "jitter": ["Does the camera shake", "Is the picture unsteady"],
    "frame_drop": ["Is the motion choppy", "Does the video stutter"],
    "interlace": ["Is there combing from interlacing", "Are there interlace lines"],
    "compression": ["Is the picture blocky", "Are there compression artefacts"],
    "freeze": ["Does the picture freeze", "Does the image get stuck"],
    "corruption": ["Is the stream corrupted", "Does the picture break up"],
}


def mmss(s: float) -> str:
    """m:ss, as the options are written."""
    return f"{int(s // 60)}:{int(s % 60):02d}"


def _when(rng: random.Random, w: dict[str, Any]) -> str:
    return rng.choice(WHEN.get(w["distortion"]) or WHEN[w["type"]])


def _decoys(rng: random.Random, length: float, duration: float,
            truth: list[tuple[float, float]], n: int = 3) -> list[tuple[float, float]]:
    """n stretches of the given length, each at least 2 s away from every truth window and,
    where the video has room, from each other (else apart by half their length at least)."""
    starts = [float(s) for s in range(0, int(duration - length) + 1)]
    free = [s for s in starts if all(s + length + 2 <= a or s >= b + 2 for a, b in truth)]
    out: list[tuple[float, float]] = []
    for gap in (length + 2, length / 2):
        rng.shuffle(free)
        out = []
        for s in free:
            if all(abs(s - x) >= gap for x, _ in out):
                out.append((s, s + length))
            if len(out) == n:
                return out
    return out


def _mcq(rng: random.Random, correct: str, others: list[str]) -> tuple[list[str], str]:
    opts = [correct, *others]
    rng.shuffle(opts)
    return opts, "ABCDEFGH"[opts.index(correct)]


def _window_items(rng: random.Random, vid: str, k: int, w: dict[str, Any], duration: float,
                  taken: list[tuple[float, float]], base: dict[str, Any]) -> list[dict]:
    a, b = float(w["start_s"]), float(w["end_s"])
    length = max(1.0, round(b - a))
    span = [{"start_s": a, "end_s": b, "label": w["type"]}]
    items = []
    decoys = _decoys(rng, length, duration, taken)
    if len(decoys) == 3:
        opts, gold = _mcq(rng, f"{mmss(a)} - {mmss(b)}",
                          [f"{mmss(x)} - {mmss(y)}" for x, y in decoys])
        items.append(dict(id=f"{vid}-{k}-L", question=_when(rng, w), options=opts, gold=gold,
                          question_type="which", tags={"level": "LQU",
                                                       "dimension": "localization"}))
    others = rng.sample([n for t, n in NAMES.items() if t != w["type"]], 3)
    opts, gold = _mcq(rng, NAMES[w["type"]], others)
    q = rng.choice(["Which problem affects the picture between {a} and {b}?",
                    "What goes wrong with the video from {a} to {b}?",
                    "What kind of degradation is visible between {a} and {b}?"])
    items.append(dict(id=f"{vid}-{k}-C", question=q.format(a=mmss(a), b=mmss(b)),
                      options=opts, gold=gold, question_type="which",
                      tags={"level": "LQU", "dimension": "classification"}))
    ask = rng.choice(ASK[w["type"]])
    items.append(dict(id=f"{vid}-{k}-D1", question=f"{ask} between {mmss(a)} and {mmss(b)}?",
                      options=["No", "Yes"], gold="B", question_type="yes_no",
                      tags={"level": "LQU", "dimension": "detection"}))
    if decoys:
        x, y = decoys[0]
        items.append(dict(id=f"{vid}-{k}-D0", question=f"{ask} between {mmss(x)} and {mmss(y)}?",
                          options=["No", "Yes"], gold="A", question_type="yes_no",
                          tags={"level": "LQU", "dimension": "detection"}))
    return [{**it, **base, "spans": span} for it in items]


def _pair_items(rng: random.Random, vid: str, wins: list[dict], base: dict) -> list[dict]:
    first, second = sorted(wins, key=lambda w: w["start_s"])
    if first["type"] == second["type"]:
        return []
    spans = [{"start_s": w["start_s"], "end_s": w["end_s"], "label": w["type"]} for w in wins]
    a, b = NAMES[first["type"]], NAMES[second["type"]]
    pair = [a, b]
    rng.shuffle(pair)
    opts, gold = _mcq(rng, a, [b])
    q = rng.choice(["Which problem shows up first in the video: {x} or {y}?",
                    "Which of these appears earlier: {x} or {y}?"])
    items = [dict(id=f"{vid}-O", question=q.format(x=pair[0].lower(), y=pair[1].lower()),
                  options=opts, gold=gold, question_type="which",
                  tags={"level": "CQR", "dimension": "temporal_relation"})]
    longer = max(wins, key=lambda w: w["end_s"] - w["start_s"])
    shorter = min(wins, key=lambda w: w["end_s"] - w["start_s"])
    if (longer["end_s"] - longer["start_s"]) >= 1.3 * (shorter["end_s"] - shorter["start_s"]):
        others = rng.sample([n for t, n in NAMES.items()
                             if t not in (longer["type"], shorter["type"])], 2)
        opts, gold = _mcq(rng, NAMES[longer["type"]], [NAMES[shorter["type"]], *others])
        q = rng.choice(["Which problem takes up the most of the video's running time?",
                        "Which degradation lasts longest in this video?"])
        items.append(dict(id=f"{vid}-F", question=q, options=opts, gold=gold,
                          question_type="which",
                          tags={"level": "GQU", "dimension": "dominant_factor"}))
    return [{**it, **base, "spans": spans} for it in items]


def _trend_item(rng: random.Random, vid: str, wins: list[dict], base: dict) -> dict:
    levels = [w["level"] for w in sorted(wins, key=lambda w: w["start_s"])]
    right = ("It gets worse" if levels == sorted(levels) else
             "It gets better" if levels == sorted(levels, reverse=True) else "It stays the same")
    opts, gold = _mcq(rng, right, [o for o in ("It gets worse", "It gets better",
                                               "It stays the same") if o != right])
    q = rng.choice(["Does the picture quality get better or worse as the video goes on?",
                    "How does the quality develop over the course of the video?"])
    spans = [{"start_s": w["start_s"], "end_s": w["end_s"], "label": w["type"]} for w in wins]
    return dict(id=f"{vid}-T", question=q, options=opts, gold=gold, question_type="which",
                tags={"level": "GQU", "dimension": "trend"}, **base, spans=spans)


def items_for(track: Path, seed: int = 16) -> list[dict[str, Any]]:
    """Every question on the track, validated as bench items."""
    rng = random.Random(seed)
    out = []
    for line in (track / "truth.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        rec = json.loads(line)
        vid = Path(rec["video"]).stem
        video = str((track / rec["video"]).resolve())
        base = {"benchmark": "ffmpeg-track", "videos": [video], "format": "mcq"}
        wins = rec["windows"]
        first = len(out)
        taken = [(w["start_s"], w["end_s"]) for w in wins]
        if rec.get("kind") == "trend":
            out.append(_trend_item(rng, vid, wins, base))
            out[-1]["tags"]["duration_s"] = rec["duration_s"]
            continue
        for k, w in enumerate(wins):
            out += _window_items(rng, vid, k, w, rec["duration_s"], taken, base)
        if len(wins) == 2:
            out += _pair_items(rng, vid, wins, base)
        for it in out[first:]:
            it["tags"] = {**it["tags"], "duration_s": rec["duration_s"]}
    for it in out:
        Item(**it)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--track", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=16)
    args = ap.parse_args(argv)
    items = items_for(args.track, args.seed)
    out = args.track / "items.jsonl"
    tmp = out.with_name(f".items.{os.getpid()}.tmp")
    tmp.write_text("".join(json.dumps(i) + "\n" for i in items))
    os.replace(tmp, out)
    print(f"{len(items)} items -> {out}")


if __name__ == "__main__":
    main()
