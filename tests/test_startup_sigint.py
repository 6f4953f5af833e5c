"""Ctrl-C at any moment of `agent` / `bench` start-up is one line and exit 130 once project
code runs (the sweep is `python -m bench.reliability.startup`)."""

from __future__ import annotations

import subprocess
import sys

from bench.reliability import procs, startup


def test_the_guard_is_in_place_before_any_module_python_had_not_loaded():
    """Between the first project line and the guard nothing is imported (no window left)."""
    code = ("import sys; before = set(sys.modules); import bench; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    res = subprocess.run([sys.executable, "-c", code], env=procs.env(), capture_output=True,
                         text=True, check=True)
    assert set(res.stdout.split()) == {"agent", "agent._start", "bench"}


def test_sigint_during_start_up_is_one_line_and_exit_130(tmp_path):
    rows = startup.sweep(tmp_path, [0.0, 0.06, 0.12, 0.25, 0.4, 0.5])
    report = "\n".join(startup.table(rows))
    for name, got in rows.items():
        outcomes = [o for _, o, _ in got]
        assert "BAD" not in outcomes, f"{name}: {got}\n{report}"
        assert outcomes.count("one line, 130") >= 3, report


def test_a_traceback_is_bad_and_cpython_s_own_start_up_is_told_apart():
    tb = "Traceback (most recent call last):\n  ...\nKeyboardInterrupt\n"
    assert startup.classify(procs.Outcome(-2, "", tb, 0.1, True)) == "BAD"
    assert startup.classify(procs.Outcome(-2, "", "", 0.01, True)) == "CPython start-up"
    assert startup.classify(procs.Outcome(1, "", "Fatal Python error: init_import_site: ...\n",
                                          0.02, True)) == "CPython start-up"
    line = "interrupted while starting: nothing was done, nothing kept\n"
    assert startup.classify(procs.Outcome(130, "", line, 0.2, True)) == "one line, 130"
    assert startup.classify(procs.Outcome(130, "", line + tb, 0.2, True)) == "BAD"
