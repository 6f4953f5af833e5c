"""95 % intervals of accuracies clustered by video (bench.stats, bench.scoring.accuracy)."""

from __future__ import annotations

import math

import pytest

from bench.compare import ci_errors, ci_text, levels_table
from bench.scoring import McqResult, accuracy
from bench.stats import ci95, t975


def _r(video: str, correct: bool) -> McqResult:
    return McqResult(item_id=f"{video}-{id(object())}", video=video, gold="A",
                     pred="A" if correct else "B")


def test_t_quantiles() -> None:
    assert t975(1) == pytest.approx(12.706205)
    assert t975(4) == pytest.approx(2.776445)
    assert t975(40) == pytest.approx(2.021075, abs=1e-4)  # the expansion past the table
    assert t975(float("inf")) == pytest.approx(1.959964)
    assert math.isnan(t975(0))


def test_ci_hand_computed() -> None:
    # 12 answers on 6 videos: a 1,1  b 1,0  c 0,0  d 1,0  e 1,1  f 0,1 -> mean 7/12.
    votes = {"a": (1, 1), "b": (1, 0), "c": (0, 0), "d": (1, 0), "e": (1, 1), "f": (0, 1)}
    rs = [_r(v, bool(x)) for v, xs in votes.items() for x in xs]
    acc = accuracy(rs)
    mean = 7 / 12
    # residual sums per video: 2 - 2m (a, e), 1 - 2m (b, d, f), -2m (c)
    ss = 2 * (2 - 2 * mean) ** 2 + 3 * (1 - 2 * mean) ** 2 + (2 * mean) ** 2
    se = math.sqrt(6 / 5 * ss / 144)
    assert acc.acc == pytest.approx(mean) and acc.se == pytest.approx(se)
    assert se == pytest.approx(0.153659, abs=1e-6)  # ss 2.8333; 1.2 * 2.8333 / 144 = 0.023611
    half = 2.570582 * se  # t(5)
    assert (acc.ci_lo, acc.ci_hi) == pytest.approx((mean - half, mean + half))
    assert acc.ci_lo == pytest.approx(0.188335, abs=1e-5)
    assert acc.ci_hi == pytest.approx(0.978332, abs=1e-5)


def test_clustering_widens_the_interval_when_answers_within_a_video_agree() -> None:
    # the same 12 answers: spread over 12 videos, then grouped so each video is all right
    # or all wrong (strong within-video correlation)
    answers = [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    apart = accuracy([_r(f"v{i}", bool(x)) for i, x in enumerate(answers)])
    together = accuracy([_r(f"w{i // 3}" if x else f"z{i // 3}", bool(x))
                         for i, x in enumerate(answers)])
    assert apart.acc == together.acc
    assert together.videos < apart.videos
    assert together.se > apart.se
    assert together.ci_hi - together.ci_lo > apart.ci_hi - apart.ci_lo


def test_ci_edges() -> None:
    assert all(math.isnan(x) for x in ci95(0.5, 0.1, 1))  # one video: undefined
    assert ci95(0.95, 0.1, 11) == (pytest.approx(0.95 - 2.228139 * 0.1), 1.0)  # clipped
    assert ci95(-1.0, 0.5, 3, bounds=None)[0] == pytest.approx(-1 - 4.302653 * 0.5)


def test_ci_in_tables_and_error_bars() -> None:
    acc = accuracy([_r("a", True), _r("a", False), _r("b", True), _r("c", False)]).as_dict()
    assert ci_text(acc) == f"[{100 * acc['ci_lo']:.1f}, {100 * acc['ci_hi']:.1f}]"
    below, above = ci_errors(acc)
    assert below == pytest.approx(100 * (acc["acc"] - acc["ci_lo"])) and above >= 0
    assert ci_text({"n": 0}) == "–" and ci_errors(None) == (0.0, 0.0)
    summary = {"mcq": {"overall": acc, "level": {}}, "localization": {}, "open": {},
               "timing": {}}
    table = levels_table([("run", summary)])
    cells = [c._cells for c in table.columns if c.header == "95% CI"][0]
    assert cells == [ci_text(acc)]
