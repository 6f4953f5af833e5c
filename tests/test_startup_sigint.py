"""Ctrl-C at any moment of `agent` / `bench` start-up is one line and exit 130 once project
code runs (the sweep is `python -m bench.reliability.startup`)."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from bench.reliability import procs, startup


def test_the_guard_is_in_place_before_any_module_python_had_not_loaded():
    """Between the first project line and the guard nothing is imported (no window left)."""
    code = ("import sys; before = set(sys.modules); import bench; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    res = subprocess.run([sys.executable, "-c", code], env=procs.env(), capture_output=True,
                         text=True, check=True)
    assert set(res.stdout.split()) == {"agent", "agent._start", "bench"}


# A Ctrl-C landing while the package reads its guard's own file (agent/_start.py), sent by an
# import hook at that exact moment; the process calls itself `prog` so the guard applies.
_CTRL_C_IN_THE_GUARDS_IMPORT = """
import os, signal, sys
sys.argv[0] = {prog!r}
class CtrlC:
    def find_spec(self, name, path=None, target=None):
        if name == "agent._start":
            os.kill(os.getpid(), signal.SIGINT)
sys.meta_path.insert(0, CtrlC())
import {prog}
print("not interrupted")
"""


@pytest.mark.parametrize("prog", ["agent", "bench"])
def test_a_ctrl_c_while_the_guard_itself_is_read_is_held_for_it(prog):
    # Ctrl-C as a terminal delivers it: a suite started in the background (nohup, `&`)
    # hands its children SIGINT ignored, and the guard rightly leaves an ignored Ctrl-C alone
    res = subprocess.run([sys.executable, "-c", _CTRL_C_IN_THE_GUARDS_IMPORT.format(prog=prog)],
                         env=procs.env(), capture_output=True, text=True, timeout=60,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert res.returncode == 130, res.stderr
    assert res.stderr == "interrupted while starting: nothing was done, nothing kept\n"
    assert "not interrupted" not in res.stdout


def test_sigint_during_start_up_is_one_line_and_exit_130(tmp_path):
    rows = startup.sweep(tmp_path, [0.0, 0.06, 0.12, 0.25, 0.4, 0.5, 1.0, 1.5])
    report = "\n".join(startup.table(rows))
    for name, got in rows.items():
        assert "BAD" not in [o for _, o, _ in got], f"{name}: {got}\n{report}"
    # A loaded machine stretches CPython's own start-up past 0.4 s; by 1.5 s an index is past it
    # and not done.
    late = [o for at, o, _ in rows["agent index"] if at >= 1.0]
    assert "one line, 130" in late, report


def test_a_traceback_is_bad_and_cpython_s_own_start_up_is_told_apart():
    tb = (f'Traceback (most recent call last):\n  File "{procs.ROOT}/agent/cli.py", line 9, in '
          '<module>\nKeyboardInterrupt\n')
    assert startup.classify(procs.Outcome(-2, "", tb, 0.1, True)) == "BAD"
    assert startup.classify(procs.Outcome(-2, "", "", 0.01, True)) == "CPython start-up"
    assert startup.classify(procs.Outcome(1, "", "Fatal Python error: init_import_site: ...\n",
                                          0.02, True)) == "CPython start-up"
    line = "interrupted while starting: nothing was done, nothing kept\n"
    assert startup.classify(procs.Outcome(130, "", line, 0.2, True)) == "one line, 130"
    assert startup.classify(procs.Outcome(130, "", line + tb, 0.2, True)) == "BAD"


def test_a_traceback_before_the_first_project_line_is_cpython_s():
    runpy = ('Traceback (most recent call last):\n  File "<frozen runpy>", line 189, in '
             '_run_module_as_main\nKeyboardInterrupt\n')
    ours = (f'Traceback (most recent call last):\n  File "{procs.ROOT}/agent/_start.py", line 9, '
            'in <module>\nKeyboardInterrupt\n')
    assert startup.classify(procs.Outcome(-2, "", runpy, 0.1, True)) == "CPython start-up"
    pth = ("Error processing line 1 of /venv/site-packages/x.pth:\n\n  Traceback (most recent "
           "call last):\n    File \"<frozen site>\", line 186\n  KeyboardInterrupt\n\n"
           "Remainder of file ignored\n")
    assert startup.classify(procs.Outcome(0, "usage", pth, 0.3, True)) == "CPython start-up"
    assert startup.classify(procs.Outcome(-2, "", ours, 0.1, True)) == "BAD"


# A Ctrl-C that lands where Python cannot raise it (a weakref callback in importlib's module
# locks, a __del__) is "unraisable": by default a traceback after "Exception ignored", and the
# command goes on. In the command's own process it ends the command as one line and exit 130.
_CTRL_C_IN_A_DEL = """
import signal, sys
from rich.console import Console
from tools.errors import run_app
def guard(_s, _f):
    pass
guard.lvq_start_guard = True
signal.signal(signal.SIGINT, guard)
class Dropped:
    def __del__(self):
        raise KeyboardInterrupt
def app():
    Dropped()
    print("went on")
run_app(app, Console(stderr=True))
"""


def test_a_ctrl_c_python_cannot_raise_still_ends_the_command_in_one_line():
    res = subprocess.run([sys.executable, "-c", _CTRL_C_IN_A_DEL], env=procs.env(),
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 130, res.stderr
    assert res.stderr.startswith("interrupted: only finished work was kept"), res.stderr
    assert len(res.stderr.splitlines()) == 1 and "went on" not in res.stdout
