"""`python -m bench.reliability.report [--quick]`: every reliability table, measured now, for the
note: codecs, endpoint and process faults, bad inputs, the kill sweep, storage, concurrency,
secrets and Ctrl-C at start-up. --quick: the H.264 codec rows only, a 3-point kill sweep on tiny
videos and a 50-ms start-up sweep."""

from __future__ import annotations

import argparse
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _codecs(quick: bool) -> bool:
    from bench.reliability import codecs

    with tempfile.TemporaryDirectory(prefix="lvq-codecs-") as tmp:
        rows = codecs.run(Path(tmp), "h264" if quick else None)
    codecs.print_table(rows)
    return not any(r["verdict"].startswith("BAD") for r in rows)


def _rows(module: str) -> Callable[[bool], bool]:
    def table(_quick: bool) -> bool:
        import importlib

        from bench.reliability.faults import print_table

        rows = importlib.import_module(f"bench.reliability.{module}").run()
        print_table(rows)
        return all(r[3] for r in rows)

    return table


def _kills(quick: bool, points: int = 20, seed: int = 19) -> bool:
    from bench.reliability import kills

    n = 3 if quick else points
    with tempfile.TemporaryDirectory(prefix="lvq-kills-") as tmp:
        rows = kills.sweep(Path(tmp), n, seed, quick)
    print("\n".join(kills.table(rows)))
    print(f"(seed {seed}, {n} points per command and signal)")
    return all(r.ok for r in rows)


def _startup(quick: bool) -> bool:
    from bench.reliability import startup

    return startup.main(["--step-ms", "50" if quick else "10"]) == 0


SECTIONS: dict[str, Callable[[bool], bool]] = {
    "codecs": _codecs,
    "faults": _rows("faults"),
    "cases": _rows("inputs"),
    "kills": _kills,
    "storage": _rows("storage"),
    "concurrency": _rows("concurrency"),
    "secrets": _rows("canary"),
    "startup": _startup,
}


def main(argv: list[str] | None = None) -> int:
    """Print the chosen tables (all by default); exit 1 when any has a row not as expected."""
    ap = argparse.ArgumentParser(prog="python -m bench.reliability.report",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer codec rows and kill points")
    ap.add_argument("--only", help=f"comma-separated tables: {', '.join(SECTIONS)}")
    args = ap.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",")] if args.only else list(SECTIONS)
    unknown = [s for s in chosen if s not in SECTIONS]
    if unknown:
        ap.error(f"unknown table(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    print(f"machine: {platform.machine()}, {platform.python_implementation()} "
          f"{platform.python_version()}, {__import__('os').cpu_count()} cores; "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    verdicts = {}
    for name in chosen:
        t0 = time.perf_counter()
        print(f"\n## {name}\n", flush=True)
        verdicts[name] = SECTIONS[name](args.quick)
        print(f"({name}: {time.perf_counter() - t0:.0f} s)", flush=True)
    print("\n" + ", ".join(f"{k} {'ok' if v else 'NOT ok'}" for k, v in verdicts.items()))
    return 0 if all(verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
