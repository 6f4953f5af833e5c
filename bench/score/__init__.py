"""Scoring, one job a module: mcq (letters, clustered accuracy), iou, prompts, project_judge and
similarity (the project's own open scores), official (the papers' judges), bertscore, rescore
(official scores of a finished results file) and layouts (per-paper summary tables)."""
