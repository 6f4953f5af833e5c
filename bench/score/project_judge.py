"""The project's own open-answer judge (relevance and completeness in [0, 1], appendix-D.2 form,
prompts/judge_open.md): prompt, tolerant reply parsing and one call over HTTP."""

from __future__ import annotations

import ast
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bench.score.prompts import fill_prompt, load_prompt

# ---------------------------------------------------------------- LLM judge


@dataclass(frozen=True)
class JudgeScore:
    """Judge scores in [0, 1] (None when the reply did not give one) and the raw reply."""

    completeness: float | None
    relevance: float | None
    raw: str

    @property
    def ok(self) -> bool:
        return self.completeness is not None and self.relevance is not None


def judge_prompt(question: str, reference: str, response: str) -> str:
    """The appendix-D.2-style judge prompt filled for one answer."""
    return fill_prompt(
        load_prompt("judge_open.md"), question=question, reference=reference, response=response
    )


def _objects(text: str) -> Iterable[dict[str, Any]]:
    """Every brace-balanced {...} in text that parses as a JSON (or Python literal) dict."""
    for start in [i for i, ch in enumerate(text) if ch == "{"]:
        depth = 0
        for end in range(start, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                chunk = text[start : end + 1]
                for parse in (json.loads, ast.literal_eval):
                    try:
                        obj = parse(chunk)
                    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                        continue
                    if isinstance(obj, dict):
                        yield obj
                    break
                break


def _unit_score(value: Any) -> float | None:
    """A score in [0, 1] from a number, "0.75" or "75%"; None if missing or out of range."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        if isinstance(value, str):
            s = value.strip()
            x = float(s.rstrip("%")) / 100 if s.endswith("%") else float(s)
        else:
            x = float(value)
    except ValueError:
        return None
    return x if 0.0 <= x <= 1.0 else None


def _field(obj: dict[str, Any], name: str) -> float | None:
    for k, v in obj.items():
        key = re.sub(r"[\s_\-]+", "_", str(k).strip().lower())
        if key in (name, f"{name}_score"):
            return _unit_score(v)
    return None


def _regex_field(text: str, name: str) -> float | None:
    m = re.search(
        rf"{name}(?:[\s_\-]*score)?[\"'*\s]*[:=]\s*[\"'*]*\s*(\d+(?:\.\d+)?|\.\d+)\s*(%?)",
        text,
        re.I,
    )
    return _unit_score(m.group(1) + m.group(2)) if m else None


def parse_judge_reply(text: str | None) -> tuple[float | None, float | None]:
    """(completeness, relevance) from a judge reply: JSON, fenced JSON, or "key: value" prose."""
    text = text or ""
    for obj in _objects(text):
        c, r = _field(obj, "completeness"), _field(obj, "relevance")
        if c is not None or r is not None:
            return c, r
    return _regex_field(text, "completeness"), _regex_field(text, "relevance")


def judge_open(
    question: str,
    reference: str,
    response: str,
    *,
    model: str,
    client: Any = None,
    base_url: str | None = None,
    api_key_env: str = "OPENAI_API_KEY",
    temperature: float | None = 0.0,
    timeout: float = 60.0,
) -> JudgeScore:
    """Ask an OpenAI-compatible chat endpoint to score one open answer (relevance, completeness).

    Pass a ready ``client`` or a ``base_url``; the key is read from the environment only.
    """
    if client is None:
        from openai import OpenAI

        key = os.environ.get(api_key_env) or "not-needed"  # local servers accept any key
        client = OpenAI(base_url=base_url, api_key=key, timeout=timeout)
    kwargs: dict[str, Any] = {}
    if temperature is not None:
        kwargs["temperature"] = temperature
    reply = client.chat.completions.create(
        model=model,
        messages=[{"role": "user", "content": judge_prompt(question, reference, response)}],
        **kwargs,
    )
    raw = reply.choices[0].message.content or ""
    completeness, relevance = parse_judge_reply(raw)
    return JudgeScore(completeness=completeness, relevance=relevance, raw=raw)


