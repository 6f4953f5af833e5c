"""Importers from public benchmark files to Items: Q-Bench-Video, Video-MME (with its
subtitle settings), MMBench-Video, and LongVQUBench-style JSON/JSONL; every Item keeps its
source record verbatim in ``original``. One module per format; `detect` picks and runs them.

A bad record is reported (file, line/record number and reason) and skipped and counted, or with
ImportOptions(strict=True) stops the import before anything is written (docs/benchmarks.md).
"""

from bench.importers.common import gold_letter
from bench.importers.detect import (
    CONVERTERS,
    FORMATS,
    ImportOptions,
    detect_format,
    import_file,
)
from bench.importers.longvqubench import from_longvqubench
from bench.importers.mmbench import from_mmbench_video
from bench.importers.qbench import from_qbench_video, qbench_videos
from bench.importers.readers import read_records
from bench.importers.videomme import apply_subtitles, from_videomme

__all__ = [
    "CONVERTERS", "FORMATS", "ImportOptions", "apply_subtitles", "detect_format",
    "from_longvqubench", "from_mmbench_video", "from_qbench_video", "from_videomme",
    "gold_letter", "import_file", "qbench_videos", "read_records",
]
