"""`python -m bench.reliability.codecs [--out DIR]`: make a short file per codec, container and
oddity with the system ffmpeg, index each in a subprocess with a timeout, and print a table.

Every row must index (with about the right duration and frame count) or be refused with one
line naming the codec; anything else (a traceback, a hang, a vague reason) is marked BAD.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.reliability.cases import CASES, FPS, SYSTEM_FFMPEG, Case, build, encoders

TIMEOUT_S = 180.0

# The name ffmpeg gives each encoder's codec when it reads the file back.
DECODED_AS = {"libx264": "h264", "libx265": "hevc", "libvpx": "vp8", "libvpx-vp9": "vp9",
              "libaom-av1": "av1", "libsvtav1": "av1", "librav1e": "av1", "libtheora": "theora",
              "prores_ks": "prores"}


def codec_name(case: Case) -> str:
    """The codec's name as a reader reports it (h264, vp9, mpeg2video, ...)."""
    return DECODED_AS.get(case.codec, case.codec)


def run_index(video: Path, timeout: float = TIMEOUT_S) -> dict:
    """Index `video` in a fresh interpreter; its JSON outcome, or a hang/crash as an error."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH")) if p)}
    t0 = time.perf_counter()
    try:
        res = subprocess.run([sys.executable, "-m", "bench.reliability.index_one", str(video)],
                             capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"hang: no result in {timeout:.0f} s", "kind": "bug",
                "s": time.perf_counter() - t0}
    lines = res.stdout.strip().splitlines()
    try:
        out = json.loads(lines[-1])
    except (IndexError, ValueError):
        tail = res.stderr.strip().splitlines()
        return {"ok": False, "error": f"crash (exit {res.returncode}): "
                f"{tail[-1] if tail else 'no output'}", "kind": "bug",
                "s": time.perf_counter() - t0}
    if "Traceback" in res.stderr:
        out["traceback"] = True
    out["s"] = time.perf_counter() - t0
    return out


def judge(case: Case, out: dict) -> tuple[str, str]:
    """(result text, verdict) of one row: 'ok', 'refused' (one line naming the codec) or BAD."""
    if out.get("ok"):
        frames, dur = out["frames"], out["duration"]
        text = f"indexed {frames} frames, {dur:.2f} s"
        want_frames = int(round(3.0 * FPS))
        if out.get("traceback"):
            return text, "BAD: traceback on stderr"
        if abs(dur - case.expect_s) > 0.25 or abs(frames - want_frames) > 2:
            return text, f"BAD: expected {want_frames} frames, {case.expect_s:.2f} s"
        w, h = case.size.split("x")
        size = f"{h}x{w}" if case.rotate % 180 else f"{w}x{h}"
        if out.get("size") != size:
            return text, f"BAD: size {out.get('size')}, expected {size}"
        if out.get("decoded") != frames or out.get("warnings"):
            return text, f"BAD: decoded {out.get('decoded')} {out.get('warnings')}"
        return text, "ok"
    err = str(out.get("error", ""))
    if out.get("kind") == "bug" or out.get("traceback"):
        return err, "BAD: not a clean refusal"
    if "\n" in err:
        return err.splitlines()[0], "BAD: more than one line"
    if codec_name(case) not in err.lower():
        return err, "BAD: reason does not name the codec"
    return err, "refused"


def run(out_dir: Path, only: str | None = None) -> list[dict]:
    """Build and index every case (or those whose name contains `only`); one row per case."""
    have = encoders()
    rows = []
    for case in CASES:
        if only and only not in case.name:
            continue
        row = {"case": case.name, "label": case.label}
        if case.codec not in have:
            row.update(result=f"skipped: {SYSTEM_FFMPEG} has no {case.codec} encoder",
                       verdict="skip", s=0.0)
            rows.append(row)
            continue
        try:
            video = build(case, out_dir)
        except subprocess.CalledProcessError as exc:
            msg = (exc.stderr or "").strip().splitlines()
            row.update(result=f"not built: {msg[-1] if msg else exc}", verdict="skip", s=0.0)
            rows.append(row)
            continue
        out = run_index(video)
        row["result"], row["verdict"] = judge(case, out)
        row["s"] = out.get("s", 0.0)
        rows.append(row)
        print(f"  {case.name}: {row['verdict']}", file=sys.stderr, flush=True)
    return rows


def print_table(rows: list[dict]) -> None:
    """The table: case, codec/container, result, time, verdict."""
    widths = [max(len("case"), *(len(r["case"]) for r in rows)),
              max(len("codec/container"), *(len(r["label"]) for r in rows))]
    res_w = min(90, max(len("result"), *(len(r["result"]) for r in rows)))
    head = f"{'case':<{widths[0]}}  {'codec/container':<{widths[1]}}  {'result':<{res_w}}  " \
           f"{'time':>6}  verdict"
    print(head)
    print("-" * len(head))
    for r in rows:
        result = r["result"] if len(r["result"]) <= res_w else r["result"][: res_w - 1] + "…"
        print(f"{r['case']:<{widths[0]}}  {r['label']:<{widths[1]}}  {result:<{res_w}}  "
              f"{r['s']:>5.1f}s  {r['verdict']}")
    counts = {v: sum(r["verdict"].split(":")[0] == v for r in rows)
              for v in ("ok", "refused", "skip", "BAD")}
    print(", ".join(f"{n} {v}" for v, n in counts.items()))


def main(argv: list[str] | None = None) -> int:
    """Build, index and tabulate; exit 1 when any row is BAD."""
    ap = argparse.ArgumentParser(prog="python -m bench.reliability.codecs", description=__doc__)
    ap.add_argument("--out", type=Path, help="keep the test files here (default: a temp dir)")
    ap.add_argument("--only", help="only cases whose name contains this")
    args = ap.parse_args(argv)
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        rows = run(args.out, args.only)
    else:
        with tempfile.TemporaryDirectory(prefix="lvq-codecs-") as tmp:
            rows = run(Path(tmp), args.only)
    print_table(rows)
    return 1 if any(r["verdict"].startswith("BAD") for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
