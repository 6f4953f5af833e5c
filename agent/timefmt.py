"""Times as people read them: HH:MM:SS.s."""

from __future__ import annotations


def hms(seconds: float) -> str:
    """Format seconds as HH:MM:SS.s (e.g. 00:02:15.0)."""
    seconds = max(0.0, float(seconds))
    tenths = int(round(seconds * 10))
    h, rem = divmod(tenths, 36000)
    m, rem = divmod(rem, 600)
    s, t = divmod(rem, 10)
    return f"{h:02d}:{m:02d}:{s:02d}.{t}"
