"""`python -m bench.reliability.storage`: a full disk and a read-only trace store, met by the real
command lines. A full disk is a file-size limit on the child (RLIMIT_FSIZE, as `ulimit -f`, with
SIGXFSZ ignored so a write past it fails with EFBIG instead of killing the process).

The cache is documented to fall back to working without it (one notice, exit 0); an output the
user named (results file, export, summary) must fail in one line with exit 5 (tools/errors.py).
Either way nothing partial may be left where a later run would read it."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from bench.reliability import procs
from bench.reliability.checks import run_checks, table_exit
from bench.reliability.leftovers import cache_state, results_state
from tools.errors import EXIT_STORAGE

Row = tuple[str, str, str, bool]  # case, expected, observed, as expected
QUESTION = "When does flicker occur?"
NOTICE = "not writable: working without a cache"


def _one_line(out: procs.Outcome, needle: str) -> bool:
    return len(out.lines) == 1 and needle in out.lines[0] and "Traceback" not in out.stderr


def _seen(out: procs.Outcome) -> str:
    return f"exit {out.rc}, {len(out.lines)} line(s) {out.lines[-1:]}"[:120]


def full_cache_index(work: Path) -> Row:
    """A new video indexed into a cache on a full disk."""
    video = procs.pattern_video(work / "a.mp4", 10.0)
    cache = work / "c-full"
    out = procs.run(procs.agent_cmd("index", video, "--no-clip", "-q", "--json", "--cache-dir",
                                    cache), fsize=4096)
    st = cache_state(cache)
    frames = (out.json() or {}).get("video", {}).get("n_frames")
    ok = out.rc == 0 and frames == 250 and _one_line(out, NOTICE) and not st.entries \
        and not st.scratch
    return ("full disk: agent index (cache)", "index in memory, one notice, exit 0, no entry",
            f"{_seen(out)}; {frames} frames; entries {st.entries}, scratch {st.scratch}", ok)


def full_cache_answer(work: Path) -> Row:
    """An answer whose trace cannot be written (the index is already cached)."""
    video = procs.pattern_video(work / "b.mp4", 6.0)
    cache = work / "c-trace"
    procs.run(procs.agent_cmd("index", video, "--no-clip", "-q", "--cache-dir", cache))
    out = procs.run(procs.agent_cmd("answer", video, QUESTION, "-q", "--json", "--cache-dir",
                                    cache), fsize=200)
    st = cache_state(cache)
    leftovers = [p.name for p in (cache / "traces").glob("*")] \
        if (cache / "traces").is_dir() else []
    ok = out.rc == 0 and bool((out.json() or {}).get("answer")) and _one_line(out, NOTICE) \
        and st.complete == 1 and not leftovers
    return ("full disk: agent answer (trace)", "answer, one notice, exit 0, no partial trace",
            f"{_seen(out)}; traces dir {leftovers}", ok)


def full_export(work: Path) -> Row:
    """`agent index --export` onto a full disk."""
    video = procs.pattern_video(work / "e.mp4", 6.0)
    cache, target = work / "c-exp", work / "events.csv"
    procs.run(procs.agent_cmd("index", video, "--no-clip", "-q", "--cache-dir", cache))
    out = procs.run(procs.agent_cmd("index", video, "--no-clip", "-q", "--cache-dir", cache,
                                    "--export", target), fsize=10)
    left = sorted(p.name for p in work.glob("*events*"))
    ok = out.rc == EXIT_STORAGE and _one_line(out, str(target)) and not left
    return ("full disk: agent index --export", "one line naming the file, exit 5, no file",
            f"{_seen(out)}; left {left}", ok)


def full_summary(work: Path) -> Row:
    """`agent index --summary` onto a full disk."""
    video = procs.pattern_video(work / "s.mp4", 6.0)
    cache, target = work / "c-sum", work / "lib.csv"
    procs.run(procs.agent_cmd("index", video, "--no-clip", "-q", "--cache-dir", cache))
    out = procs.run(procs.agent_cmd("index", video, "--no-clip", "-q", "--cache-dir", cache,
                                    "--summary", target), fsize=10)
    left = sorted(p.name for p in work.glob("*lib*"))
    errors = [ln for ln in out.lines if "error" in ln]
    ok = out.rc == EXIT_STORAGE and len(errors) == 1 and str(target) in errors[0] and not left
    return ("full disk: agent index --summary", "one error naming the file, exit 5, no file",
            f"{_seen(out)}; left {left}", ok)


def full_results(work: Path) -> Row:
    """`bench run` whose results file fills the disk after a few items."""
    vids = work / "bench"
    vids.mkdir()
    procs.pattern_video(vids / "r.mp4", 4.0)
    items = vids / "items.jsonl"
    ids = procs.item_file(items, ["r.mp4"], 4)
    cache, res = work / "c-bench", work / "res.jsonl"
    procs.run(procs.agent_cmd("index", vids / "r.mp4", "--no-clip", "-q", "--cache-dir", cache))
    argv = procs.bench_cmd("run", "--items", items, "--track", "agent", "--out", res,
                           "--cache-dir", cache, "--no-open-score", "-q")
    out = procs.run(argv, fsize=3000)
    rs = results_state(res)
    errors = [ln for ln in out.lines if "error" in ln]
    again = procs.run(argv)
    rs2 = results_state(res)
    ok = (out.rc == EXIT_STORAGE and len(errors) == 1 and str(res) in errors[0]
          and rs.torn == 0 and again.rc == 0 and rs2.duplicates == 0 and not rs2.lost(ids))
    return ("full disk: bench run (results)",
            "one error naming the file, exit 5, no torn line; resumes",
            f"{_seen(out)}; {len(rs.ids)} whole, {rs.torn} torn; resumed: exit {again.rc}, "
            f"lost {rs2.lost(ids)}, dup {rs2.duplicates}", ok)


def readonly_traces(work: Path) -> Row:
    """A trace store that cannot be written (its folder is a file: unwritable even for root)."""
    video = procs.pattern_video(work / "t.mp4", 6.0)
    cache = work / "c-ro"
    procs.run(procs.agent_cmd("index", video, "--no-clip", "-q", "--cache-dir", cache))
    (cache / "traces").write_text("not a folder")
    out = procs.run(procs.agent_cmd("answer", video, QUESTION, "-q", "--json", "--cache-dir",
                                    cache))
    listed = procs.run(procs.agent_cmd("trace", "list", "--cache-dir", cache))
    ok = out.rc == 0 and bool((out.json() or {}).get("answer")) and _one_line(out, NOTICE) \
        and listed.rc in (0, EXIT_STORAGE) and len(listed.lines) <= 1 \
        and "Traceback" not in listed.stderr
    return ("read-only trace store: answer, list", "answer + one notice; list: no traceback",
            f"answer {_seen(out)}; list exit {listed.rc} {listed.lines[-1:]}"[:120], ok)


CHECKS: tuple[Callable[[Path], Row], ...] = (full_cache_index, full_cache_answer, full_export,
                                             full_summary, full_results, readonly_traces)


def run() -> list[Row]:
    """Every storage row, each in its own folder."""
    return run_checks(CHECKS, "lvq-storage-")


def main() -> int:
    """Print the storage table; exit 1 unless every row is as expected."""
    return table_exit(run())


if __name__ == "__main__":
    sys.exit(main())
