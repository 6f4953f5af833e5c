"""`python -m bench.reliability.kills`: SIGKILL and SIGINT of `agent index`, `agent answer` and
`bench run` at seeded random moments spread over each command's measured duration; after
each, what was left on disk is checked and the same command is run again to resume.

Per point: the cache holds only complete entries (they load, checksums and row counts as
recorded) and readable traces; the results file has no duplicated and, after the resumed run,
no lost item; the resumed run does only what was missing (an index kept is served from the
cache, a bench run answers exactly the items not yet recorded); SIGINT ends with exit 130
and exactly one stderr line saying what was kept.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.reliability import procs
from bench.reliability.leftovers import cache_state, results_state

QUESTION = "When does flicker occur?"
SIGNALS = (("SIGKILL", signal.SIGKILL), ("SIGINT", signal.SIGINT))


@dataclass
class Point:
    """What one signalled run and its resumed run showed."""

    at_s: float
    signalled: bool
    entries_ok: bool
    duplicates: int = 0
    lost: int = 0
    resumed_ok: bool = True
    sigint_ok: bool | None = None  # None: not a SIGINT, or the command had already ended
    note: str = ""


@dataclass
class Row:
    """One line of the table: a command and a signal over all its points."""

    process: str
    signal: str
    duration_s: float
    points: list[Point] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(p.entries_ok and p.resumed_ok and p.sigint_ok is not False
                   and not p.duplicates and not p.lost for p in self.points)


def sigint_line_ok(out: procs.Outcome, kept: Callable[[str], bool] | None = None) -> bool:
    """Exit 130 and exactly one stderr line, which says it was interrupted and what was kept."""
    lines = out.lines
    if out.rc != 130 or len(lines) != 1 or "interrupted" not in lines[0]:
        return False
    if "kept" not in lines[0] and "written" not in lines[0]:
        return False
    return kept(lines[0]) if kept else True


def ended_anyway(out: procs.Outcome) -> bool:
    """The signal came as the command was ending: it finished its work and exited 0."""
    return out.rc == 0 and not out.lines


# ---------------------------------------------------------------- agent index / answer


def _entry_mtime(cache: Path) -> dict[str, float]:
    """meta.json's modification time per index entry (a rebuilt entry gets a new one)."""
    if not cache.is_dir():
        return {}
    return {m.parent.name: m.stat().st_mtime for m in cache.glob("*/meta.json")
            if not m.parent.name.startswith(".")}


def agent_point(video: Path, work: Path, at_s: float, sig: int, answer: bool) -> Point:
    """Signal `agent index` (or `agent answer`) at `at_s`, check the cache, run it again."""
    cache = work / "cache"
    args = ("answer", video, QUESTION) if answer else ("index", video, "--no-clip")
    argv = procs.agent_cmd(*args, "--json", "-q", "--cache-dir", cache)
    out = procs.run_signalled(argv, at_s, sig)
    st = cache_state(cache)
    before = _entry_mtime(cache)
    p = Point(at_s, out.signalled, st.ok and st.entries == st.complete)
    if not p.entries_ok:
        p.note = "; ".join(st.bad + st.bad_traces)[:200]
    if sig == signal.SIGINT and out.signalled and not ended_anyway(out):
        p.sigint_ok = sigint_line_ok(out)
        if not p.sigint_ok:
            p.note += f" rc {out.rc}, stderr {out.lines[-3:]}"
    again = procs.run(argv)
    st2 = cache_state(cache)
    after = _entry_mtime(cache)
    kept_reused = all(after.get(k) == v for k, v in before.items())  # not measured again
    traces_ok = not answer or st2.traces == st.traces + 1
    data = again.json() or {}
    cached_ok = answer or bool(data.get("cached")) == bool(st.complete)
    p.resumed_ok = (again.rc == 0 and st2.ok and st2.complete == 1 and kept_reused
                    and traces_ok and cached_ok)
    if not p.resumed_ok:
        p.note += (f" resume rc {again.rc} complete {st2.complete} reused {kept_reused} "
                   f"traces {st.traces}->{st2.traces} cached {data.get('cached')} "
                   f"{again.lines[-1:] }")
    return p


# ---------------------------------------------------------------- bench run


def bench_argv(items: Path, out: Path, cache: Path) -> list[str]:
    """`bench run` of the agent track with the local brain, resumable into `out`."""
    return procs.bench_cmd("run", "--items", items, "--track", "agent", "--brain", "local",
                           "--out", out, "--cache-dir", cache, "--no-open-score", "-q")


def bench_point(items: Path, ids: list[str], work: Path, at_s: float, sig: int) -> Point:
    """Signal `bench run` at `at_s`, check the results file, resume it, check again."""
    out, cache = work / "res.jsonl", work / "cache"
    argv = bench_argv(items, out, cache)
    ran = procs.run_signalled(argv, at_s, sig)
    st, rs = cache_state(cache), results_state(out)
    kept = {i for i in rs.ids}  # records written (none is an error with valid videos)
    p = Point(at_s, ran.signalled, st.ok and st.entries == st.complete,
              duplicates=rs.duplicates)
    if sig == signal.SIGINT and ran.signalled and not ended_anyway(ran):
        def says_count(line: str) -> bool:
            m = re.search(r"(\d+) items written", line)
            return m is None or int(m.group(1)) == len(rs.ids)

        p.sigint_ok = sigint_line_ok(ran, says_count)
        if not p.sigint_ok:
            p.note = f"rc {ran.rc}, stderr {ran.lines[-3:]}, {len(rs.ids)} records"
    if rs.errors:
        p.note += f" {rs.errors} error records"
    again = procs.run(argv)
    rs2 = results_state(out)
    summary = _json(out.with_name(out.stem + ".summary.json"))
    answered = (summary.get("this_run") or {}).get("answered")
    p.duplicates = rs2.duplicates
    p.lost = rs2.lost(ids)
    p.resumed_ok = again.rc == 0 and answered == len(set(ids) - kept)
    if not p.resumed_ok:
        p.note += (f" resume rc {again.rc}: answered {answered}, missing were "
                   f"{len(set(ids) - kept)} {again.lines[-1:]}")
    return p


def _json(path: Path) -> dict:
    """A JSON object file's contents ({} when missing or not an object)."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


# ---------------------------------------------------------------- the sweep


@dataclass
class Setup:
    """The inputs of a sweep: one video for the agent, a small item file for the bench."""

    video: Path
    items: Path
    ids: list[str]


def make_setup(work: Path, quick: bool) -> Setup:
    """Videos and an item file: a few seconds each with --quick, else long enough that most of
    a run is measuring and answering, not starting Python."""
    vids = work / "videos"
    vids.mkdir(parents=True, exist_ok=True)
    video = procs.pattern_video(vids / "agent.mp4", 6.0 if quick else 60.0,
                                "160x90" if quick else "320x180")
    names = []
    for k in range(2 if quick else 3):
        procs.pattern_video(vids / f"b{k}.mp4", 3.0 if quick else 15.0)
        names.append(f"b{k}.mp4")
    items = vids / "items.jsonl"
    ids = procs.item_file(items, names, 2 if quick else 3)
    return Setup(video, items, ids)


def _measure(fn: Callable[[Path], procs.Outcome], work: Path, runs: int = 2) -> float:
    """Seconds of an undisturbed run in a fresh directory (which is then removed)."""
    d = work / "measure"
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir()
    times = []
    for _ in range(runs):  # the shortest run: later moments would find it ended
        out = fn(d)
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
        if out.rc != 0:
            raise RuntimeError(f"an undisturbed run failed (exit {out.rc}): {out.lines[-1:]}")
        times.append(out.seconds)
    shutil.rmtree(d, ignore_errors=True)
    return min(times)


def interpreter_start_s() -> float:
    """Seconds Python itself takes to start here (site, .pth files), before any project code
    runs: a signal then meets Python's own start-up, so the sweep's moments begin after it."""
    return min(procs.run([sys.executable, "-c", "pass"]).seconds for _ in range(3))


def sweep(work: Path, points: int, seed: int, quick: bool = False,
          only: str | None = None, log: Callable[[str], None] | None = None) -> list[Row]:
    """Every command x signal x point; one row per command and signal."""
    s = make_setup(work, quick)
    targets: list[tuple[str, Callable[[Path], procs.Outcome], Callable[..., Point]]] = [
        ("agent index", lambda d: procs.run(procs.agent_cmd(
            "index", s.video, "--no-clip", "-q", "--json", "--cache-dir", d / "c")),
         lambda d, t, sig: agent_point(s.video, d, t, sig, answer=False)),
        ("agent answer", lambda d: procs.run(procs.agent_cmd(
            "answer", s.video, QUESTION, "-q", "--json", "--cache-dir", d / "c")),
         lambda d, t, sig: agent_point(s.video, d, t, sig, answer=True)),
        ("bench run", lambda d: procs.run(bench_argv(s.items, d / "r.jsonl", d / "c")),
         lambda d, t, sig: bench_point(s.items, s.ids, d, t, sig)),
    ]
    rows = []
    for k, (name, undisturbed, point) in enumerate(targets):
        if only and only not in name:
            continue
        duration = _measure(undisturbed, work, 1 if quick else 2)
        floor = interpreter_start_s()
        for j, (sig_name, sig) in enumerate(SIGNALS):
            row = Row(name, sig_name, duration)
            moments = procs.spread(points, duration - floor, seed * 100 + k * 10 + j)
            for i, at in enumerate(floor + m for m in moments):
                d = work / f"pt-{k}-{j}-{i}"
                d.mkdir()
                row.points.append(point(d, at, sig))
                shutil.rmtree(d, ignore_errors=True)
                if log:
                    pt = row.points[-1]
                    log(f"  {name} {sig_name} @{at:.2f}s: signalled={pt.signalled} "
                        f"ok={row.ok} {pt.note}".rstrip())
            rows.append(row)
    return rows


def table(rows: list[Row]) -> list[str]:
    """The table's lines: process, signal, points, and each check as passed/total."""
    head = ("process", "signal", "run s", "points", "signalled", "complete-entries-ok",
            "duplicates", "lost", "resumed-only-missing", "SIGINT-line-ok")
    body = []
    for r in rows:
        n = len(r.points)
        sig_pts = [p for p in r.points if p.sigint_ok is not None]
        body.append((r.process, r.signal, f"{r.duration_s:.1f}", str(n),
                     str(sum(p.signalled for p in r.points)),
                     f"{sum(p.entries_ok for p in r.points)}/{n}",
                     str(sum(p.duplicates for p in r.points)),
                     str(sum(p.lost for p in r.points)),
                     f"{sum(p.resumed_ok for p in r.points)}/{n}",
                     f"{sum(bool(p.sigint_ok) for p in sig_pts)}/{len(sig_pts)}"
                     if r.signal == "SIGINT" else "-"))
    widths = [max(len(h), *(len(b[i]) for b in body)) if body else len(h)
              for i, h in enumerate(head)]
    fmt = "  ".join(f"{{:<{w}}}" for w in widths)
    lines = [fmt.format(*head), "-" * (sum(widths) + 2 * (len(widths) - 1))]
    lines += [fmt.format(*b) for b in body]
    bad = [f"  {r.process} {r.signal} @{p.at_s:.2f}s: {p.note}" for r in rows for p in r.points
           if not (p.entries_ok and p.resumed_ok and p.sigint_ok is not False
                   and not p.duplicates and not p.lost)]
    lines.append("all points as expected" if not bad else f"{len(bad)} points NOT as expected:")
    return lines + bad


def main(argv: list[str] | None = None) -> int:
    """Run the sweep and print the table; exit 1 when any point is not as expected."""
    ap = argparse.ArgumentParser(prog="python -m bench.reliability.kills",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--points", type=int, default=20, help="moments per command and signal")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--quick", action="store_true", help="3 points, tiny videos")
    ap.add_argument("--only", help="only commands whose name contains this ('index', 'bench')")
    args = ap.parse_args(argv)
    points = 3 if args.quick else args.points
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="lvq-kills-") as tmp:
        rows = sweep(Path(tmp), points, args.seed, args.quick, args.only,
                     log=lambda s: print(s, file=sys.stderr, flush=True))
    print("\n".join(table(rows)))
    print(f"({time.perf_counter() - t0:.0f} s, seed {args.seed}, {points} points each)")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
