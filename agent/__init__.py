
from agent._start import guard_start as _guard_start

_guard_start("agent")  # a Ctrl-C while `agent` starts is one line, not a traceback
