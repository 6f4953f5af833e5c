"""The real command lines started together: two index builds of one video, four answers on one
index, two bench runs into one results file (the second refused by the file's lock)."""

from __future__ import annotations

import pytest

from bench.reliability import concurrency
from bench.results_lock import lock_path, lock_results
from tools.errors import EXIT_STORAGE, StorageError


@pytest.mark.parametrize("check", [lambda w: concurrency.two_index(w, rounds=1),
                                   concurrency.four_answers, concurrency.two_bench],
                         ids=["two_index", "four_answers", "two_bench"])
def test_concurrent_commands(check, tmp_path):
    case, expected, observed, ok = check(tmp_path)
    assert ok, f"{case}: expected {expected}; observed {observed}"


def test_results_lock_refuses_a_second_holder_until_released(tmp_path):
    res = tmp_path / "out" / "res.jsonl"
    held = lock_results(res)
    assert lock_path(res).read_text().strip().isdigit()
    with pytest.raises(StorageError) as second:
        lock_results(res)
    assert second.value.exit_code == EXIT_STORAGE
    assert "another bench run" in str(second.value) and str(res) in str(second.value)
    held.release()
    lock_results(res).release()  # free again; the lock file left behind blocks nothing
