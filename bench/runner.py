"""The benchmark runner, kept importable here: it lives in bench.run (config, results,
summary, grading, video, execute, parallel, ray_jobs, indexes)."""

from bench.run.config import RESULT_VERSION, RunConfig
from bench.run.execute import job_key, pending_jobs, resolve_videos, run
from bench.run.grading import grade, open_score, option_window
from bench.run.indexes import build_indexes
from bench.run.results import ResultWriter, read_results, summary_path, write_summary
from bench.run.summary import summarize, summarize_records
from bench.run.video import (
    base_record,
    check_brain,
    fail_items,
    make_brain,
    run_video,
    torch_first,
)

# The names bench.pairs imports from here.
_base, _brain, _check_brain, _open_score = base_record, make_brain, check_brain, open_score

__all__ = ["RESULT_VERSION", "ResultWriter", "RunConfig", "base_record", "build_indexes",
           "check_brain", "fail_items", "grade", "job_key", "make_brain", "open_score",
           "option_window", "pending_jobs", "read_results", "resolve_videos", "run",
           "run_video", "summarize", "summarize_records", "summary_path", "torch_first",
           "write_summary"]
