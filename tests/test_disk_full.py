"""A full disk (a file-size limit on the child, as `ulimit -f`) and a read-only trace store, met
by the real command lines: the cache falls back to memory with one notice, an output the user
named fails in one line with exit 5, and nothing partial is left."""

from __future__ import annotations

import pytest

from bench.reliability import storage


@pytest.mark.parametrize("check", [storage.full_cache_index, storage.full_cache_answer,
                                   storage.full_export, storage.full_summary,
                                   storage.readonly_traces], ids=lambda c: c.__name__)
def test_storage_fault(check, tmp_path):
    case, expected, observed, ok = check(tmp_path)
    assert ok, f"{case}: expected {expected}; observed {observed}"


def test_full_disk_results_file(tmp_path):
    case, expected, observed, ok = storage.full_results(tmp_path)
    assert ok, f"{case}: expected {expected}; observed {observed}"
