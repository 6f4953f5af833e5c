"""lvq-agent benchmarks: NDQA sets, tracks, runners, reliability tables."""

import _signal  # built in, loaded before any script: holding Ctrl-C here reads no file

_MASK = _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT})  # until the guard is set
try:
    from agent._start import guard_start as _guard_start

    _guard_start("bench")  # a Ctrl-C while `bench` starts is one line, not a traceback
finally:
    _signal.pthread_sigmask(_signal.SIG_SETMASK, _MASK)  # a Ctrl-C held meanwhile lands now
