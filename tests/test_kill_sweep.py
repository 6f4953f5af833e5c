"""The process sweep, short: SIGKILL and SIGINT of `agent index`, `agent answer` and `bench run`
at two seeded moments each (the full 20-point sweep is `python -m bench.reliability.kills`)."""

from __future__ import annotations

from bench.reliability import kills


def test_kill_points_leave_only_complete_work_and_resume(tmp_path):
    rows = kills.sweep(tmp_path, points=2, seed=7, quick=True)
    report = "\n".join(kills.table(rows))
    assert [(r.process, r.signal) for r in rows] == [
        (p, s) for p in ("agent index", "agent answer", "bench run")
        for s in ("SIGKILL", "SIGINT")], report
    for row in rows:
        assert len(row.points) == 2
        assert any(p.signalled for p in row.points), report  # not only after the end
        for p in row.points:
            assert p.entries_ok, report
            assert p.duplicates == 0 and p.lost == 0, report
            assert p.resumed_ok, report
            if row.signal == "SIGINT" and p.sigint_ok is not None:
                assert p.sigint_ok, report
    assert all(r.ok for r in rows), report


def test_sigint_line_needs_exit_130_and_one_line_saying_what_was_kept():
    from bench.reliability.procs import Outcome

    said = "interrupted: only finished work was kept (complete indexes, traces and result lines)"
    assert kills.sigint_line_ok(Outcome(130, "", said + "\n", 1.0, True))
    assert not kills.sigint_line_ok(Outcome(130, "", "", 1.0, True))  # silent
    assert not kills.sigint_line_ok(Outcome(130, "", said + "\nTraceback\n", 1.0, True))
    assert not kills.sigint_line_ok(Outcome(-2, "", said, 1.0, True))  # died of the signal
    assert not kills.sigint_line_ok(Outcome(130, "", "error: interrupted", 1.0, True))
