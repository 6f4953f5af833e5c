"""The papers' own open-answer judges, beside the project's: Q-Bench-Video's 0/1/2 (asked five
times, summed, divided by 10), MMBench-Video's 0-3, LongVQUBench's completeness + relevance in
[0, 1]. Prompts are files in prompts/; replies are parsed strictly (a score outside the scale,
two different scores, or none, is an invalid reply: never guessed).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from bench.score.project_judge import _objects
from bench.score.prompts import fill_prompt, load_prompt


class InvalidReply(ValueError):
    """A judge reply that does not hold exactly one score on the scorer's scale."""


class Asks(Protocol):
    """Anything that answers a (system, user) prompt with text: bench.score.judge_client.Judge."""

    def ask(self, system: str | None, user: str, temperature: float | None = 0.0) -> str: ...


@dataclass(frozen=True)
class Scorer:
    """One paper's judge: its benchmark(s), prompt file, scale, rounds and temperature."""

    key: str
    benchmarks: tuple[str, ...]
    prompt: str
    scale: tuple[int, ...] | None  # allowed integer scores; None: completeness + relevance
    rounds: int = 1
    temperature: float | None = 0.0  # None: the endpoint's default (Q-Bench-Video's 5 rounds)
    paper: str = ""


QBENCH = Scorer("qbench_video", ("qbench_video",), "judge_qbench_video.md", (0, 1, 2), rounds=5,
                temperature=None, paper="Q-Bench-Video 13.4: 5 rounds of 0/1/2, sum / 10")
MMBENCH = Scorer("mmbench_video", ("mmbench_video",), "judge_mmbench_video.md", (0, 1, 2, 3),
                 paper="MMBench-Video 3: one score 0-3, mean per capability")
LONGVQU = Scorer("longvqubench", ("longvqubench", "ndqa"), "judge_longvqubench.md", None,
                 paper="LongVQUBench D.2: completeness and relevance in [0, 1], % per level")
SCORERS: dict[str, Scorer] = {s.key: s for s in (QBENCH, MMBENCH, LONGVQU)}


def scorer_for(benchmark: str | None) -> Scorer | None:
    """The official judge of a benchmark's open items (None: that benchmark has none)."""
    return next((s for s in SCORERS.values() if benchmark in s.benchmarks), None)


# ---------------------------------------------------------------- prompts

_HEADER = re.compile(r"\A\s*<!--.*?-->\s*", re.S)


def prompt_parts(name: str) -> tuple[str | None, str]:
    """(system, user template) of a judge prompt file: its header comment dropped, split at the
    '#System:' / '#User:' lines (the papers' own markers)."""
    text = _HEADER.sub("", load_prompt(name))
    system = None
    if "#User:" not in text:
        raise ValueError(f"prompt {name} has no #User: section")
    head, user = text.split("#User:", 1)
    if "#System:" in head:
        system = head.split("#System:", 1)[1].strip()
    return system, user.strip()


def fill(scorer: Scorer, question: str, reference: str, response: str) -> tuple[str | None, str]:
    """The scorer's (system, user) messages for one answer."""
    system, user = prompt_parts(scorer.prompt)
    if scorer is LONGVQU:
        return system, fill_prompt(user, question=question, scoring_points=reference,
                                   answer=response)
    return system, fill_prompt(user, question=question, reference=reference, response=response)


# ---------------------------------------------------------------- strict parsing

_SCORE_LINE = re.compile(r"\bscore\s*[:=]\s*\**\s*(-?\d+(?:\.\d+)?)", re.I)
_BARE = re.compile(r"\A\s*\**\s*(-?\d+(?:\.\d+)?)\s*\**\s*\.?\s*\Z")


def parse_score(text: str | None, scale: tuple[int, ...]) -> int:
    """The one integer score on `scale` in a reply ("Score: 2", "**Score:** 2", or just "2")."""
    text = text or ""
    found = _SCORE_LINE.findall(text) or _BARE.findall(text)
    if not found:
        raise InvalidReply(f"no score in reply {text[:80]!r}")
    values = set(found)
    if len(values) > 1:
        raise InvalidReply(f"several scores {sorted(values)} in reply {text[:80]!r}")
    raw = values.pop()
    if not re.fullmatch(r"-?\d+", raw) or int(raw) not in scale:
        raise InvalidReply(f"score {raw} is not one of {', '.join(map(str, scale))}")
    return int(raw)


def _unit(obj: dict[str, Any], name: str) -> float:
    for k, v in obj.items():
        if re.sub(r"[\s_\-]+", "_", str(k).strip().lower()) in (name, f"{name}_score"):
            if isinstance(v, bool) or not isinstance(v, int | float | str):
                raise InvalidReply(f"{name} {v!r} is not a number")
            try:
                x = float(v)
            except ValueError:
                raise InvalidReply(f"{name} {v!r} is not a number") from None
            if not 0.0 <= x <= 1.0:
                raise InvalidReply(f"{name} {x:g} is outside 0..1")
            return x
    raise InvalidReply(f"no {name}_score in the reply")


def parse_completeness_relevance(text: str | None) -> tuple[float, float]:
    """(completeness, relevance) from the JSON object of a LongVQUBench judge reply."""
    objs = [o for o in _objects(text or "") if any("score" in str(k) for k in o)]
    if not objs:
        raise InvalidReply(f"no JSON scores in reply {(text or '')[:80]!r}")
    return _unit(objs[0], "completeness"), _unit(objs[0], "relevance")


# ---------------------------------------------------------------- one answer


def judge_answer(scorer: Scorer, judge: Asks, question: str, reference: str,
                 response: str) -> dict[str, Any]:
    """One answer's official score: {"score": ..., and the parts (rounds or completeness and
    relevance)}; InvalidReply when a reply breaks the scale (the answer stays unscored)."""
    system, user = fill(scorer, question, reference, response)
    if scorer.scale is None:
        c, r = parse_completeness_relevance(judge.ask(system, user, scorer.temperature))
        return {"completeness": c, "relevance": r, "score": None}
    rounds = [parse_score(judge.ask(system, user, scorer.temperature), scorer.scale)
              for _ in range(scorer.rounds)]
    if scorer.rounds == 1:
        return {"score": float(rounds[0])}
    return {"rounds": rounds, "score": round_total(rounds, max(scorer.scale))}


def round_total(rounds: list[int], top: int) -> float:
    """Q-Bench-Video's normalisation: the sum of the rounds over its maximum (5 x 2 = 10)."""
    if not rounds:
        raise ValueError("no rounds")
    return sum(rounds) / (top * len(rounds))
