"""Balancing of NDQA answers: where the correct option goes, and yes against no."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np


class Balancer:
    """Puts the correct option where it has been least often (per option count) and picks
    yes/no polarities that keep yes and no even."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.pos: dict[int, Counter[int]] = {}
        self.yes = self.no = 0
        self.journal: list[tuple[str, int, int]] = []

    def mark(self) -> int:
        return len(self.journal)

    def rollback(self, mark: int) -> None:
        """Undo what was counted since `mark` (an item that was not kept)."""
        while len(self.journal) > mark:
            what, a, b = self.journal.pop()
            if what == "slot":
                self.pos[a][b] -= 1
            elif a:
                self.yes -= 1
            else:
                self.no -= 1

    def slot(self, n: int, allowed: Sequence[int] | None = None) -> int:
        counts = self.pos.setdefault(n, Counter())
        cands = list(allowed if allowed is not None else range(n))
        least = min(counts[i] for i in cands)
        best = [i for i in cands if counts[i] == least]
        p = int(best[int(self.rng.integers(len(best)))])
        counts[p] += 1
        self.journal.append(("slot", n, p))
        return p

    def place(self, gold: str, distractors: Sequence[str]) -> tuple[list[str], str]:
        """Options (distractors shuffled) with gold at a balanced slot, and its letter."""
        others = [distractors[i] for i in self.rng.permutation(len(distractors))]
        p = self.slot(len(others) + 1)
        return others[:p] + [gold] + others[p:], chr(ord("A") + p)

    def ordinal(self, gold: int, step: int, low: int, n: int = 4) -> tuple[list[int], str]:
        """n consecutive values (gold among them) in increasing order, gold at a balanced slot
        among the slots that keep every value >= low."""
        allowed = [p for p in range(n) if gold - p * step >= low]
        p = self.slot(n, allowed)
        return [gold + (i - p) * step for i in range(n)], chr(ord("A") + p)

    def want_yes(self) -> bool:
        return self.yes < self.no or (self.yes == self.no and bool(self.rng.random() < 0.5))

    def yes_no(self, truth: bool) -> tuple[list[str], str]:
        self.yes += truth
        self.no += not truth
        self.journal.append(("yes_no", int(truth), 0))
        return self.place("Yes" if truth else "No", ["No" if truth else "Yes"])

    def pick(self, cands: Sequence[tuple[bool, Any]]) -> tuple[bool, Any]:
        """One (truth, payload) candidate, preferring the truth that restores the balance."""
        want = self.want_yes()
        pool = [c for c in cands if c[0] == want] or list(cands)
        return pool[int(self.rng.integers(len(pool)))]
