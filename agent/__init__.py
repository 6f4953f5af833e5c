"""lvq-agent's agent: the LangGraph loop, brains, tools, traces and the `agent` command line."""

import _signal  # built in, loaded before any script: holding Ctrl-C here reads no file

_MASK = _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT})  # until the guard is set
try:
    from agent._start import guard_start as _guard_start

    _guard_start("agent")  # a Ctrl-C while `agent` starts is one line, not a traceback
finally:
    _signal.pthread_sigmask(_signal.SIG_SETMASK, _MASK)  # a Ctrl-C held meanwhile lands now
