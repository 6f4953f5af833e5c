"""`python -m bench.reliability.inputs`: the 14 bad-input cases through `agent answer --json`, as a
new user meets them: a JSON answer for each valid input, one clear line and the documented exit
code (tools/errors.py) for each broken one, never a traceback."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from bench.reliability import procs
from bench.reliability.checks import table_exit
from tools.errors import EXIT_INPUT, EXIT_OK, EXIT_USAGE
from tools.ffmpeg import ffmpeg_exe

Row = tuple[str, str, str, bool]
QUESTION = "When does flicker occur?"


def _ff(*args: str) -> None:
    subprocess.run([ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y", *args],
                   check=True)


def make_cases(d: Path) -> list[tuple[str, Path, str, int]]:
    """(case, video, question, expected exit) for each of the 14 cases; files made here."""
    good = procs.pattern_video(d / "good.mp4", 6.0, "320x180")
    (d / "empty-dir").mkdir()
    (d / "notes.mp4").write_text("this is not a video\n" * 50)
    (d / "empty.mp4").write_bytes(b"")
    (d / "truncated.mp4").write_bytes(good.read_bytes()[: good.stat().st_size // 3])
    _ff("-f", "lavfi", "-i", "sine=d=3", str(d / "audio.m4a"))
    _ff("-i", str(good), "-c", "copy", "-bsf:v", "noise=amount=200", str(d / "damaged.mkv"))
    _ff("-f", "lavfi", "-i", "testsrc2=size=3840x2160:rate=25", "-t", "2", "-c:v", "libx264",
        "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(d / "uhd.mp4"))
    _ff("-f", "lavfi", "-i", "testsrc2=size=360x640:rate=30", "-t", "4", "-c:v", "libx264",
        "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(d / "vertical.mp4"))
    _ff("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25", "-t", "4", "-vf",
        "setpts='if(lt(N,40),N/25,1.6+(N-40)/10)/TB'", "-fps_mode", "vfr", "-c:v", "libx264",
        "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(d / "vfr.mkv"))
    _ff("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25", "-frames:v", "1", "-c:v",
        "libx264", "-pix_fmt", "yuv420p", str(d / "one-frame.mp4"))
    odd = d / "my clips" / "été à Zürich — 夏.mp4"
    odd.parent.mkdir()
    odd.write_bytes(good.read_bytes())
    return [
        ("missing path", d / "missing.mp4", QUESTION, EXIT_INPUT),
        ("directory (no videos in it)", d / "empty-dir", QUESTION, EXIT_INPUT),
        ("text file named .mp4", d / "notes.mp4", QUESTION, EXIT_INPUT),
        ("empty file", d / "empty.mp4", QUESTION, EXIT_INPUT),
        ("truncated file (no moov)", d / "truncated.mp4", QUESTION, EXIT_INPUT),
        ("audio only", d / "audio.m4a", QUESTION, EXIT_INPUT),
        ("damaged stream (noise bsf)", d / "damaged.mkv", QUESTION, EXIT_OK),
        ("4K 3840x2160", d / "uhd.mp4", QUESTION, EXIT_OK),
        ("vertical 360x640", d / "vertical.mp4", QUESTION, EXIT_OK),
        ("variable frame rate", d / "vfr.mkv", QUESTION, EXIT_OK),
        ("one frame", d / "one-frame.mp4", QUESTION, EXIT_OK),
        ("spaces and non-ASCII in the name", odd, QUESTION, EXIT_OK),
        ("empty question", good, "   ", EXIT_USAGE),
        ("off-topic question", good, "What is the capital of France?", EXIT_OK),
    ]


def judge(out: procs.Outcome, expected: int) -> tuple[str, bool]:
    """(observed, as expected): a JSON answer, or one line and the expected code."""
    if "Traceback" in out.stderr:
        return f"exit {out.rc}: traceback", False
    if expected == EXIT_OK:
        ans = out.json() or {}
        text = str(ans.get("answer", "")).splitlines()[:1]
        return (f"exit {out.rc}: {text}"[:100], out.rc == 0 and bool(ans.get("answer")))
    return (f"exit {out.rc}: {out.lines[-1:]}"[:100],
            out.rc == expected and len(out.lines) == 1 and not out.stdout.strip())


def run() -> list[Row]:
    """One row per case."""
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="lvq-inputs-") as tmp:
        d = Path(tmp)
        for name, video, question, expected in make_cases(d):
            out = procs.run(procs.agent_cmd("answer", video, question, "--json", "-q",
                                            "--cache-dir", d / "cache"), timeout=300)
            seen, ok = judge(out, expected)
            rows.append((name, "JSON answer, exit 0" if expected == EXIT_OK else
                         f"one line, exit {expected}", seen, ok))
            print(f"  {name}: {ok}", file=sys.stderr, flush=True)
    return rows


def main() -> int:
    """Print the bad-input table; exit 1 unless every row is as expected."""
    return table_exit(run())


if __name__ == "__main__":
    sys.exit(main())
