"""Draw a trace: the video's quality timeline, its events, and what the agent looked at.

Top: the agent's steps in order, each a numbered bar over the window it inspected, and the
answer's segments. Below: picture detail, brightness, flicker swing and motion smoothness
over time, with detected events shaded and labelled in every panel.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402

from agent.trace import TraceError  # noqa: E402
from tools.model import EVENT_TYPES  # noqa: E402
from tools.timeline import per_second  # noqa: E402

_COLOURS = dict(zip(EVENT_TYPES, plt.get_cmap("tab20").colors, strict=False))
_TOOL_COLOURS = {"overview": "#9e9e9e", "find_events": "#1f77b4", "measure_window": "#2ca02c",
                 "compare_windows": "#9467bd", "zoom_in": "#d62728", "search_frames": "#8c564b"}


def _clock(x: float, _pos: Any = None) -> str:
    x = max(0.0, x)
    h, rem = divmod(int(round(x)), 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _load_index(trace: dict[str, Any], cache_dir: Path | None):
    from tools.errors import LvqError, exit_code_of
    from tools.index import get_index, load

    d = trace.get("index_dir")
    if d and Path(d).is_dir():
        try:
            return load(Path(d), trace.get("video"))
        except LvqError:
            pass
    try:
        return get_index(trace.get("video", ""), cache_dir=cache_dir, progress=False)
    except LvqError as exc:
        err = TraceError(f"cannot plot: the video's index is unavailable ({exc})")
        err.exit_code = exit_code_of(exc)  # a missing video stays an input error
        raise err from None


def _steps(trace: dict[str, Any]) -> list[dict[str, Any]]:
    """Tool steps with the windows they inspected (finish excluded), numbered in order."""
    out = []
    for s in trace.get("steps", []):
        if s.get("kind") != "tool" or s.get("tool") == "finish":
            continue
        args = s.get("args") or {}
        what = s.get("tool", "?")
        if args.get("type") and args.get("type") != "any":
            what += f" ({args['type']})"
        if s.get("status") != "success":
            what += " [error]"
        out.append({"n": len(out) + 1, "label": what, "tool": s.get("tool"),
                    "windows": s.get("windows") or []})
    return out


def _shade_answer(ax, segments) -> None:
    for seg in segments:
        ax.axvspan(seg["start_s"], seg["end_s"], color="#2e7d32", alpha=0.12, lw=0)


def _event_lanes(ax, events, dur: float) -> None:
    """One row per event type; a bar per event, darker when more severe, labelled."""
    types = [t for t in EVENT_TYPES if any(e.type == t for e in events)]
    for row, etype in enumerate(types):
        for e in (e for e in events if e.type == etype):
            colour = _COLOURS.get(etype, "grey")
            ax.barh(row, max(e.end_s - e.start_s, dur * 0.003), left=e.start_s, height=0.62,
                    color=colour, alpha=0.35 + 0.6 * float(e.severity), edgecolor=colour)
            ax.text(e.end_s + dur * 0.004, row, f"{e.severity:.2f}", va="center", fontsize=7,
                    color="#333333", clip_on=True)
    ax.set_yticks(range(len(types)))
    ax.set_yticklabels(types, fontsize=8)
    ax.set_ylim(len(types) - 0.4 if types else 0.6, -0.6)
    if not types:
        ax.text(0.5, 0.5, "no quality events detected", transform=ax.transAxes, ha="center",
                va="center", fontsize=9, color="grey")
        ax.set_yticks([])
    ax.set_title("Detected quality events (one row per type; darker = more severe; number = "
                 "severity 0-1)", fontsize=9, loc="left")


def plot_trace(trace: dict[str, Any], output: str | Path, cache_dir: Path | None = None,
               index: Any = None) -> Path:
    """Write the trace plot as a PNG and return its path."""
    idx = index if index is not None else _load_index(trace, cache_dir)
    dur = float(idx.info.duration_s)
    ps = per_second(idx)
    t = ps["t"]
    steps = _steps(trace)
    answer = trace.get("answer") or {}
    segs = answer.get("segments") or []

    n_rows = len(steps) + 1
    fig = plt.figure(figsize=(14, 10.5 + 0.18 * max(0, n_rows - 6)))
    n_types = len({e.type for e in idx.events})
    heights = [max(1.6, 0.32 * n_rows), max(0.8, 0.3 * n_types + 0.3), 1.5, 1.3, 1.3, 1.3]
    gs = fig.add_gridspec(len(heights), 1, height_ratios=heights, hspace=0.42)
    axes = [fig.add_subplot(gs[0])]
    axes += [fig.add_subplot(gs[i], sharex=axes[0]) for i in range(1, len(heights))]
    ax_steps, ax_events, ax_detail, ax_bright, ax_flick, ax_motion = axes
    _event_lanes(ax_events, idx.events, dur)

    # --- the agent's steps
    for s in steps:
        y = s["n"]
        colour = _TOOL_COLOURS.get(s["tool"], "#555555")
        wins = s["windows"] or [[0.0, dur]]
        gap = dur * 0.003 if len(wins) > 1 else 0.0
        for k, (a, b) in enumerate(wins):
            whole = b - a >= 0.98 * dur
            ax_steps.barh(y, max(b - a - 2 * gap, dur * 0.004), left=a + gap, height=0.6,
                          color=colour, alpha=0.25 if whole else 0.6, edgecolor=colour)
            if len(wins) > 1:  # number the windows of a comparison
                ax_steps.text(b - gap - dur * 0.004, y, f"w{k + 1}", va="center", ha="right",
                              fontsize=7, color="white", fontweight="bold")
        first = (s["windows"] or [[0.0, dur]])[0]
        ax_steps.text(first[0] + dur * 0.003, y, f" {s['n']}. {s['label']}", va="center",
                      ha="left", fontsize=8, color="black")
    ya = len(steps) + 1
    for seg in segs:
        ax_steps.barh(ya, max(seg["end_s"] - seg["start_s"], dur * 0.004), left=seg["start_s"],
                      height=0.6, color="#2e7d32", edgecolor="#1b5e20")
    ax_steps.text(dur * 0.003, ya, "  answer: " + (
        ", ".join(f"{_clock(s['start_s'])}-{_clock(s['end_s'])}" for s in segs[:4])
        if segs else "no time segments"), va="center", fontsize=8, color="#1b5e20",
        fontweight="bold")
    ax_steps.set_ylim(ya + 0.7, 0.3)
    ax_steps.set_yticks([])
    ax_steps.set_ylabel("agent steps\n(in order)", fontsize=9)
    ax_steps.set_title("What the agent inspected: each numbered bar is one tool call over the "
                       "time window it measured (faint bar = whole video)", fontsize=9,
                       loc="left")

    # --- signals
    def rel(name: str) -> np.ndarray | None:
        x = ps.get(name)
        if x is None or not np.isfinite(x).any():
            return None
        med = np.nanmedian(x)
        return x / med if med > 0 else None

    for name, colour, label in (("sharpness", "#1f77b4", "sharpness"),
                                ("noise", "#ff7f0e", "noise"),
                                ("blockiness", "#8c564b", "blockiness")):
        y = rel(name)
        if y is not None:
            ax_detail.plot(t, y, color=colour, lw=1.1, label=label)
    ax_detail.set_yscale("log")
    ax_detail.axhline(1.0, color="grey", lw=0.6, ls=":")
    ax_detail.set_ylabel("x video median\n(log)", fontsize=9)
    ax_detail.set_title("Picture detail (drops in sharpness = blur; rises in noise or "
                        "blockiness = noise / compression)", fontsize=9, loc="left")
    ax_detail.legend(loc="upper right", fontsize=8, ncol=3, framealpha=0.8)

    if "luma" in ps:
        ax_bright.plot(t, ps["luma"], color="#444444", lw=1.1, label="mean brightness")
    if "saturation" in ps:
        ax_bright.plot(t, ps["saturation"], color="#e377c2", lw=1.0, label="saturation")
    ax_bright.set_ylim(0, 260)
    ax_bright.set_ylabel("0-255", fontsize=9)
    ax_bright.set_title("Brightness and colour saturation", fontsize=9, loc="left")
    ax_bright.legend(loc="upper right", fontsize=8, ncol=2, framealpha=0.8)

    if "luma_swing" in ps:
        ax_flick.fill_between(t, 0, np.nan_to_num(ps["luma_swing"]), color="#bcbd22", alpha=0.8,
                              lw=0, step="mid")
    ax_flick.set_ylabel("grey levels", fontsize=9)
    ax_flick.set_title("Frame-to-frame brightness swing (high = flicker)", fontsize=9,
                       loc="left")

    if "repeated" in ps:
        ax_motion.fill_between(t, 0, 100 * np.nan_to_num(ps["repeated"]), color="#17becf",
                               alpha=0.7, lw=0, step="mid", label="repeated frames (%)")
    if "jerk" in ps:
        ax2 = ax_motion.twinx()
        ax2.plot(t, ps["jerk"], color="#7f7f7f", lw=0.9, label="motion jerk (px)")
        ax2.set_ylabel("jerk px", fontsize=8)
        ax2.tick_params(labelsize=7)
        ax2.legend(loc="upper left", fontsize=8, framealpha=0.8)
    ax_motion.set_ylim(0, 100)
    ax_motion.set_ylabel("% repeated", fontsize=9)
    ax_motion.set_title("Motion smoothness (repeated frames = drops / stutter; jerk = jitter)",
                        fontsize=9, loc="left")
    ax_motion.legend(loc="upper right", fontsize=8, framealpha=0.8)

    for ax in axes[1:]:
        if ax is not ax_events:
            _shade_answer(ax, segs)
        ax.grid(axis="x", color="#dddddd", lw=0.5)
        ax.tick_params(labelsize=8)
    for s in steps:  # mark the inspected windows (not whole-video ones) on the signals
        for a, b in s["windows"]:
            if b - a < 0.98 * dur:
                for ax in axes[1:]:
                    ax.axvline(a, color="#d62728", lw=0.5, ls="--", alpha=0.5)
                    ax.axvline(b, color="#d62728", lw=0.5, ls="--", alpha=0.5)
    ax_motion.set_xlim(0, dur)
    ax_motion.xaxis.set_major_formatter(FuncFormatter(_clock))
    ax_motion.xaxis.set_major_locator(MaxNLocator(nbins=14, steps=[1, 2, 3, 5, 6, 10]))
    ax_motion.set_xlabel("time in the video (m:ss).  Green shading: the answer's segments; red "
                         "dashes: windows the agent measured", fontsize=9)
    for ax in axes[:-1]:
        plt.setp(ax.get_xticklabels(), visible=False)

    q = trace.get("question", "")
    choice = f"[{answer['choice']}] " if answer.get("choice") else ""
    a_text = answer.get("answer") or answer.get("error") or ""
    lines = textwrap.wrap("Q: " + q, 150, max_lines=2) + textwrap.wrap(
        "A: " + choice + a_text, 150, max_lines=3)
    fig.suptitle("\n".join(lines), fontsize=10, x=0.06, ha="left", y=0.995)
    fig.text(0.99, 0.005, f"{Path(str(trace.get('video', ''))).name}  |  trace "
             f"{trace.get('trace_id', '')}  |  brain {trace.get('brain', '')}", ha="right",
             va="bottom", fontsize=7, color="grey")
    out = Path(output)
    if out.parent and not out.parent.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return out
