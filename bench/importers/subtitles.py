"""Video-MME's "with subtitles" setting: subtitle cues read with pysubs2, picked at the times of
uniformly sampled frames (as the paper does), and put before the question in the paper's words.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

SUBTITLE_EXTS: tuple[str, ...] = (".srt", ".vtt", ".ass", ".ssa")
# Video-MME, appendix "Evaluation details": the standard prompt's subtitle preamble.
PREAMBLE = "This video's subtitles are listed below:"
DEFAULT_LINES = 32  # the uniform track's default frame count: one cue per sampled frame


def find_subtitles(video_id: str, directory: str | os.PathLike[str]) -> Path | None:
    """The subtitle file of a video id in a folder (Video-MME: subtitle/<videoID>.srt)."""
    for ext in SUBTITLE_EXTS:
        p = Path(directory) / f"{video_id}{ext}"
        if p.is_file():
            return p
    return None


def cues(path: str | os.PathLike[str]) -> list[tuple[float, float, str]]:
    """(start_s, end_s, text) of every non-empty cue; ValueError for an unreadable file."""
    import pysubs2

    try:
        subs = pysubs2.load(str(path), encoding="utf-8")
    except (pysubs2.exceptions.Pysubs2Error, UnicodeDecodeError, OSError) as exc:
        raise ValueError(f"cannot read subtitles {path}: {exc}") from exc
    out = []
    for ev in subs:
        text = " ".join(ev.plaintext.split())
        if text and not ev.is_comment:
            out.append((ev.start / 1000.0, ev.end / 1000.0, text))
    return out


def at_times(all_cues: Sequence[tuple[float, float, str]], times: Sequence[float]) -> list[str]:
    """The cue shown at each time (else the nearest one), each cue once, in time order."""
    picked: list[int] = []
    for t in times:
        if not all_cues:
            break
        showing = [i for i, (s, e, _) in enumerate(all_cues) if s <= t <= e]
        i = showing[0] if showing else min(
            range(len(all_cues)), key=lambda k: min(abs(all_cues[k][0] - t),
                                                    abs(all_cues[k][1] - t)))
        if i not in picked:
            picked.append(i)
    return [all_cues[i][2] for i in sorted(picked)]


def uniform_times(duration_s: float, n: int) -> list[float]:
    """n frame times spread uniformly over a duration (segment centres), at most 1 per second."""
    n = max(1, min(n, int(duration_s) or 1))
    return [(k + 0.5) * duration_s / n for k in range(n)]


def subtitle_block(path: str | os.PathLike[str], duration_s: float | None = None,
                   lines: int = DEFAULT_LINES) -> str:
    """The subtitles to show with a question: cues at `lines` uniform frame times."""
    found = cues(path)
    if not found:
        return ""
    span = duration_s or max(e for _, e, _ in found)
    return "\n".join(at_times(found, uniform_times(span, lines)))


def with_subtitles(question: str, block: str) -> str:
    """The question preceded by Video-MME's subtitle preamble and the subtitle lines."""
    return f"{PREAMBLE}\n{block}\n\n{question}"
