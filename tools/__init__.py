"""lvq-agent's video-analysis library: decoding, quality signals, scenes, events, the index.

Knows nothing of language models, agents or benchmarks.
"""

# Bump when measurements or detectors change: cached indexes of another version are rebuilt.
ANALYZER_VERSION = "7"
