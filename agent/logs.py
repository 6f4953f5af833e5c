"""Log level from `--verbose` or $LVQ_LOG_LEVEL: lvq-agent's own loggers on stderr, keys masked.

Only the `agent` and `tools` loggers are raised (retries, vision probe, fallbacks); the HTTP
libraries stay at WARNING, so a request's headers never reach the log.
"""

from __future__ import annotations

import logging
import os
import sys

from agent.brains.redact import scrub
from tools.errors import UsageError

ENV_LEVEL = "LVQ_LOG_LEVEL"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
OWN_LOGGERS = ("agent", "tools")


class _Masked(logging.Filter):
    """Replaces every known API key in a record's message by the mask."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = scrub(record.getMessage()), ()
        return True


def log_level(verbose: int = 0) -> int:
    """-v INFO, -vv DEBUG; else $LVQ_LOG_LEVEL (a level name); else WARNING."""
    if verbose:
        return logging.DEBUG if verbose > 1 else logging.INFO
    name = os.environ.get(ENV_LEVEL, "").strip().upper()
    if not name:
        return logging.WARNING
    if name not in LEVELS:
        raise UsageError(f"{ENV_LEVEL}={name.lower()!r} invalid; choose one of "
                         f"{', '.join(v.lower() for v in LEVELS)}")
    return getattr(logging, name)


def setup_logging(verbose: int = 0) -> int:
    """Send lvq-agent's own log records at the chosen level to stderr; the level."""
    level = log_level(verbose)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(_Masked())
    for name in OWN_LOGGERS:
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.handlers = [handler]
        logger.propagate = False
    return level
