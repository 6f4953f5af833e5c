"""lvq-agent's video-analysis library: decoding, quality signals, scenes, events, the index.

Knows nothing of language models, agents or benchmarks.
"""

# Bump SIGNALS_VERSION when a measurement changes: cached indexes are decoded again.
SIGNALS_VERSION = "9"
# Bump EVENTS_VERSION when scene or event detection changes: cached indexes keep their signals
# and re-derive scenes and events from them, without decoding.
EVENTS_VERSION = "79"
ANALYZER_VERSION = f"{SIGNALS_VERSION}.{EVENTS_VERSION}"
