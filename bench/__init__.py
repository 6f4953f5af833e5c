"""lvq-agent benchmarks: NDQA sets, tracks, runners, reliability tables."""

from agent._start import guard_start as _guard_start

_guard_start("bench")  # a Ctrl-C while `bench` starts is one line, not a traceback
