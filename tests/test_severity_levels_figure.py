"""The severity-word figure: agreement of the answers' level words with a track's levels."""

from __future__ import annotations

from collections import Counter

from bench.figures.severity_levels import print_levels


def test_agreement_counts_same_and_within_one(capsys):
    print_levels({"blur": Counter({(1, 1): 2, (1, 3): 1, (3, 2): 1})})
    out = capsys.readouterr().out
    assert "| blur | 4 | 2 | 3 | mmS | . | M |" in out
    assert "| all | 4 | 2 (50%) | 3 (75%) |" in out
