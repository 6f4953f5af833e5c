"""Scoring, kept as the old import path: the code lives in bench/score/ (MCQ letters and
accuracy, temporal IoU, prompts, the project's own judge and similarity, the papers' official
judges, BERTScore, per-paper summaries).
"""

from __future__ import annotations

from bench.score.iou import SpanLike, merge_spans, temporal_iou
from bench.score.mcq import (
    Accuracy,
    McqResult,
    accuracy,
    accuracy_by,
    accuracy_report,
    clustered_mean,
    extract_choice,
    grade_mcq,
)
from bench.score.open_scores import OpenScore, mean_by, score_open
from bench.score.project_judge import JudgeScore, judge_open, judge_prompt, parse_judge_reply
from bench.score.prompts import fill_prompt, load_prompt
from bench.score.similarity import (
    TokenF1,
    minilm_token_f1,
    semantic_similarities,
    semantic_similarity,
)

__all__ = [
    "Accuracy", "JudgeScore", "McqResult", "OpenScore", "SpanLike", "TokenF1", "accuracy",
    "accuracy_by", "accuracy_report", "clustered_mean", "extract_choice", "fill_prompt",
    "grade_mcq", "judge_open", "judge_prompt", "load_prompt", "mean_by", "merge_spans",
    "minilm_token_f1", "parse_judge_reply", "score_open", "semantic_similarities",
    "semantic_similarity", "temporal_iou",
]
