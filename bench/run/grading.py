"""Grading one item: the chosen letter, whether it is right, localisation IoU, open scores."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bench.items import Item
from bench.run.tracks import Prediction
from bench.scoring import extract_choice, temporal_iou

if TYPE_CHECKING:
    from bench.run.config import RunConfig


def option_window(text: str, duration_s: float) -> tuple[float, float] | None:
    """The time window an option names ("1:15 - 1:30"), if any."""
    from agent.questions import windows

    found = windows(text, duration_s or 1e9)
    return (found[0].start_s, found[0].end_s) if found else None


def grade(item: Item, pred: Prediction, duration_s: float) -> dict[str, Any]:
    """prediction, correct and IoU fields of one item's record."""
    out: dict[str, Any] = {"prediction": None, "correct": None, "iou": None,
                           "iou_choice": None}
    if item.format == "open":
        out["prediction"] = pred.response
        return out
    letter = pred.choice if pred.choice in {chr(65 + i) for i in range(len(item.options))} \
        else extract_choice(pred.choice or pred.response, item.options)
    out["prediction"] = letter
    out["correct"] = None if item.gold is None else letter == item.gold
    if item.tags.get("dimension") == "localization" and item.spans:
        gold = [(s.start_s, s.end_s) for s in item.spans]
        chosen = option_window(item.options[ord(letter) - 65], duration_s) if letter else None
        segs = [(s["start_s"], s["end_s"]) for s in pred.segments]
        out["iou_choice"] = round(temporal_iou([chosen] if chosen else [], gold), 4)
        out["iou"] = round(temporal_iou(segs, gold), 4) if segs else out["iou_choice"]
    return out


def open_score(item: Item, pred: Prediction, cfg: RunConfig) -> dict[str, Any] | None:
    """An open answer's scores against its gold text (None for MCQ or scoring off)."""
    if item.format != "open" or not item.gold or not (cfg.open_scoring or cfg.judge_model):
        return None
    from bench.scoring import score_open

    try:
        s = score_open(item.question, item.gold, pred.response or "",
                       judge_model=cfg.judge_model, base_url=cfg.base_url,
                       embedding=cfg.open_scoring)
    except Exception as exc:  # noqa: BLE001 - a scorer failure must not lose the answer
        return {"error": f"{type(exc).__name__}: {exc}"}
    d = s.as_dict()
    d.pop("judge_raw", None)
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in d.items()}
