"""`python -m bench.reliability.concurrency`: the real command lines started together on the same
video, index and results file, and what they leave.

Two `agent index` of one video: today both measure and one complete entry remains (the build is
renamed into place; the loser's rename replaces the winner's identical one).
Four `agent answer` on one index: all answer, each with its own trace. Two `bench run` into one
results file: the second is refused in one line while the first holds the file's lock."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bench.reliability import procs
from bench.reliability.checks import run_checks, table_exit
from bench.reliability.leftovers import cache_state, results_state
from tools.errors import EXIT_STORAGE

Row = tuple[str, str, str, bool]
QUESTION = "When does flicker occur?"


def _together(argvs: list[list[str]], timeout: float = 600) -> list[procs.Outcome]:
    """Start every command at once; wait for all."""
    t0 = time.perf_counter()
    started = [procs.start(a) for a in argvs]
    return [procs.finish(p, t0, False, timeout) for p in started]


def two_index(work: Path, rounds: int = 3) -> Row:
    """Two `agent index` of one video into an empty cache at once, `rounds` times."""
    video = procs.pattern_video(work / "v.mp4", 20.0, "320x180")
    seen, ok = [], True
    for r in range(rounds):
        cache = work / f"c{r}"
        argv = procs.agent_cmd("index", video, "--no-clip", "-q", "--json", "--cache-dir", cache)
        outs = _together([argv, argv])
        st = cache_state(cache)
        frames = [(o.json() or {}).get("video", {}).get("n_frames") for o in outs]
        good = all(o.rc == 0 and not o.lines for o in outs) and frames == [500, 500] \
            and st.entries == st.complete == 1 and st.scratch == 0
        again = procs.run(argv)
        good = good and bool((again.json() or {}).get("cached"))
        ok = ok and good
        seen.append(f"exits {[o.rc for o in outs]}, entries {st.complete}/{st.entries}, "
                    f"scratch {st.scratch}, next cached {(again.json() or {}).get('cached')}")
    return (f"2 x agent index, same video ({rounds} rounds)",
            "both exit 0, one complete entry, then cached", "; ".join(seen[:1]) +
            f" (all rounds {'alike' if ok else 'NOT alike'})", ok)


def four_answers(work: Path) -> Row:
    """Four `agent answer` at once on one cached index."""
    video = procs.pattern_video(work / "a.mp4", 20.0, "320x180")
    cache = work / "c"
    procs.run(procs.agent_cmd("index", video, "--no-clip", "-q", "--cache-dir", cache))
    argv = procs.agent_cmd("answer", video, QUESTION, "-q", "--json", "--cache-dir", cache)
    outs = _together([argv] * 4)
    answers = [o.json() or {} for o in outs]
    ids = {a.get("trace_id") for a in answers}
    texts = {a.get("answer") for a in answers}
    st = cache_state(cache)
    ok = all(o.rc == 0 for o in outs) and len(ids) == 4 and None not in ids \
        and len(texts) == 1 and st.traces == 4 and st.ok and st.complete == 1
    return ("4 x agent answer, one index", "all exit 0, same answer, 4 distinct traces",
            f"exits {[o.rc for o in outs]}, {len(ids)} trace ids, {len(texts)} answer text(s), "
            f"{st.traces} traces readable={not st.bad_traces}", ok)


def two_bench(work: Path) -> Row:
    """Two `bench run` into one results file at once; then one whose lock holder was killed."""
    vids = work / "b"
    vids.mkdir()
    names = []
    for k in range(3):
        procs.pattern_video(vids / f"v{k}.mp4", 8.0)
        names.append(f"v{k}.mp4")
    items = vids / "items.jsonl"
    ids = procs.item_file(items, names, 3)
    res, cache = work / "res.jsonl", work / "c"
    argv = procs.bench_cmd("run", "--items", items, "--track", "agent", "--out", res,
                           "--cache-dir", cache, "--no-open-score", "-q")
    outs = _together([argv, argv])
    rs = results_state(res)
    done = [o for o in outs if o.rc == 0]
    refused = [o for o in outs if o.rc == EXIT_STORAGE]
    said = refused[0].lines if refused else []
    first = (len(done) == 1 and len(refused) == 1 and len(said) == 1
             and "another bench run" in said[0] and rs.duplicates == 0 and not rs.lost(ids))
    # A run killed while holding the lock must not block the next one.
    res2 = work / "res2.jsonl"
    argv2 = procs.bench_cmd("run", "--items", items, "--track", "agent", "--out", res2,
                            "--cache-dir", cache, "--no-open-score", "-q")
    killed = procs.run_signalled(argv2, 3.0, signal.SIGKILL)
    after = procs.run(argv2)
    rs2 = results_state(res2)
    second = after.rc == 0 and rs2.duplicates == 0 and not rs2.lost(ids)
    return ("2 x bench run, one results file", "one runs, one refused in one line (exit 5); "
            "no duplicate; a killed holder blocks nothing",
            f"exits {sorted(o.rc for o in outs)}: {said[:1]}; {len(rs.ids)} records, dup "
            f"{rs.duplicates}, lost {rs.lost(ids)}; after kill -9 "
            f"(signalled={killed.signalled}): exit {after.rc}, dup {rs2.duplicates}"[:200],
            first and second)


CHECKS: tuple[Callable[[Path], Row], ...] = (two_index, four_answers, two_bench)


def run() -> list[Row]:
    """Every concurrency row, each in its own folder."""
    return run_checks(CHECKS, "lvq-conc-")


def main() -> int:
    """Print the concurrency table; exit 1 unless every row is as expected."""
    return table_exit(run())


if __name__ == "__main__":
    sys.exit(main())
