"""A canary OPENAI_API_KEY, echoed back by a local endpoint, appears in nothing that index,
answer, bench run/report and the trace commands print or write; trace ids cannot leave the
trace store."""

from __future__ import annotations

from bench.reliability import canary


def test_canary_key_is_never_printed_or_written():
    rows = canary.run()
    bad = [r for r in rows if not r[3]]
    assert not bad, "\n".join(f"{c}: expected {e}; observed {o}" for c, e, o, _ in bad)
    names = {r[0] for r in rows}
    assert {"canary: files written", "canary: echo surfaced masked",
            "trace show ../../etc/passwd", "trace plot ../../etc/passwd"} <= names
