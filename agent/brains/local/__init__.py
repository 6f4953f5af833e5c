"""The `local` brain: a deterministic planner over the toolbox (no model, no network).

planner.py plans the tool calls and dispatches the answer to one module per question family:
locate (when / whether), identify (which type, dominant factor), severity, compare, order
(temporal relation), course (trend, stability, overall), totals (cumulative effect,
integration) and explain (open answers, claim matching, questions not understood). The words
it reads questions with are data: vocabulary.toml beside this file.
"""

from agent.brains.local.evidence import READ_AS, Evidence, read_as
from agent.brains.local.levels import (
    LEVEL_CUTS,
    MILD,
    PROBE_SCORES,
    SEVERE,
    events_level,
    level_of,
    level_word,
    probed_level,
)
from agent.brains.local.planner import HANDLERS, LocalBrain

__all__ = [
    "HANDLERS", "LEVEL_CUTS", "MILD", "PROBE_SCORES", "READ_AS", "SEVERE", "Evidence",
    "LocalBrain", "events_level", "level_of", "level_word", "probed_level", "read_as",
]
