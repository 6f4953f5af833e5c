"""lvq-agent's video-analysis library: decoding, quality signals, scenes, events, the index.

Knows nothing of language models, agents or benchmarks.
"""

import hashlib
from pathlib import Path


def _calibration_digest() -> str:
    """Short digest of the detectors' calibration file: new thresholds re-derive events."""
    try:
        data = (Path(__file__).parent / "detectors" / "calibration.json").read_bytes()
    except OSError:
        return "uncalibrated"
    return hashlib.sha256(data).hexdigest()[:8]


# Bump SIGNALS_VERSION when a measurement changes: cached indexes are decoded again.
SIGNALS_VERSION = "17"
# Bump EVENTS_RULES when scene or event detection changes: cached indexes keep their signals
# and re-derive scenes and events from them, without decoding (as they do when `bench
# calibrate` writes new thresholds).
EVENTS_RULES = 172
EVENTS_VERSION = f"{EVENTS_RULES}+{_calibration_digest()}"
ANALYZER_VERSION = f"{SIGNALS_VERSION}.{EVENTS_VERSION}"
