"""The `bench` command line: generate NDQA sets, run tracks, report and compare results,
import public benchmark files. It gathers options and calls the library.

Bad input ends with one line on stderr and a documented non-zero exit code (tools/errors.py,
README "Exit codes"), never a traceback.
"""

from __future__ import annotations

import sys

import typer

from bench.cli_common import CacheOpt, _guard, err, fail, out  # noqa: F401 - used by rooms
from bench.cli_ndqa import ndqa_cmd
from bench.cli_results import compare_cmd, import_cmd, report_cmd
from bench.cli_run import calibrate_cmd, index_cmd, run_cmd
from bench.score.cli import score_cmd, summary_cmd
from tools.errors import run_app

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="lvq-agent benchmarks: NDQA generation, tracks, results, comparisons.")


@app.callback()
def _root() -> None:
    """lvq-agent benchmarks: NDQA generation, tracks, results, comparisons."""


# The commands, in the order `bench --help` lists them; each lives in its room.
app.command("ndqa")(ndqa_cmd)
app.command("run")(run_cmd)
app.command("index")(index_cmd)
app.command("calibrate")(calibrate_cmd)
app.command("report")(report_cmd)
app.command("compare")(compare_cmd)
app.command("import")(import_cmd)
app.command("score")(score_cmd)
app.command("summary")(summary_cmd)


def main() -> None:
    """Entry point of the `bench` console script (bugs: one line and exit 1)."""
    from tools.ray_pool import expand_ray_flag

    sys.argv[1:] = expand_ray_flag(sys.argv[1:])
    run_app(app, err)


if __name__ == "__main__":
    main()
