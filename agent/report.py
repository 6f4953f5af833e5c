"""One run as one self-contained HTML page: question, answer, quality timeline, steps, frames,
events. Nothing is fetched: the style is inline and every image is a data: URI.

Every value from the trace or the index is masked (API keys, as traces are) and HTML-escaped
before it enters the page; the file is written atomically.
"""

from __future__ import annotations

import base64
import html
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agent.brains.redact import scrub, scrub_value
from agent.report_frames import (
    FrameGroup,
    clean_windows,
    decode_groups,
    segment_group,
    zoom_groups,
)
from agent.report_style import CSS
from agent.timefmt import hms
from agent.trace import redact
from tools.errors import LvqError

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
MAX_EVENTS = 500  # rows of the events table at most


@dataclass
class Report:
    """A rendered report: the page, and what could not be put in it (said in the page too)."""

    html: str
    notes: list[str] = field(default_factory=list)
    path: Path | None = None


def esc(value: Any) -> str:
    """Text safe inside HTML: API keys masked, then escaped (quotes included)."""
    return html.escape(redact(scrub(str(value))), quote=True)


def _json(value: Any, indent: int | None = 1) -> str:
    return json.dumps(value, indent=indent, default=str, ensure_ascii=False,
                      separators=None if indent else (",", ":"))


def _fold(text: str, head: int = 110, code: bool = False) -> str:
    """Short text as is; longer text as a <details> whose summary is its beginning."""
    wrap = (lambda s: f"<code>{s}</code>") if code else (lambda s: s)
    if len(text) <= head:
        return wrap(esc(text))
    return (f"<details><summary>{wrap(esc(text[:head].rstrip()) + ' …')}</summary>"
            f"<pre>{esc(text)}</pre></details>")


def _load_index(trace: dict[str, Any], cache_dir: Path | None) -> tuple[Any, str]:
    """The index the run used (or None) and why it is missing."""
    from agent.plot import _load_index as load_for_plot

    try:
        return load_for_plot(trace, cache_dir), ""
    except LvqError as exc:
        return None, str(exc)


def _timeline(trace: dict[str, Any], index: Any) -> str:
    """The trace plot as an inline PNG."""
    from agent.plot import plot_trace

    with tempfile.TemporaryDirectory(prefix="lvq-report-") as tmp:
        png = plot_trace(trace, Path(tmp) / "timeline.png", index=index).read_bytes()
    b64 = base64.b64encode(png).decode("ascii")
    return (f'<img class="timeline" id="timeline" alt="quality timeline with the windows the '
            f'agent inspected" src="data:image/png;base64,{b64}">')


def _header(trace: dict[str, Any], index: Any) -> str:
    video = str(trace.get("video", ""))
    facts = []
    if index is not None:
        i = index.info
        facts = [hms(i.duration_s), f"{i.width}x{i.height}", f"{i.fps:g} fps", i.codec]
    meta = [f'<span title="{esc(video)}">{esc(Path(video).name or video)}</span>',
            *(f"<span>{esc(f)}</span>" for f in facts),
            f"<span>trace {esc(trace.get('trace_id', ''))}</span>",
            f"<span>{esc(trace.get('created', ''))}</span>",
            f"<span>brain {esc(trace.get('brain', ''))}</span>"]
    return f'<header><h1>lvq-agent report</h1><div class="meta">{"".join(meta)}</div></header>'


def _answer(trace: dict[str, Any]) -> str:
    ans = trace.get("answer") or {}
    opts = trace.get("options") or []
    parts = [f'<div class="question">{esc(trace.get("question", ""))}</div>']
    if opts:
        items = "".join(
            f'<li class="{"chosen" if ans.get("choice") == chr(65 + k) else ""}">'
            f"{chr(65 + k)}. {esc(o)}</li>" for k, o in enumerate(opts))
        parts.append(f'<ol class="options" type="A">{items}</ol>')
    if ans.get("error"):
        parts.append(f'<div class="answer failed" id="answer"><p><b>The run failed:</b> '
                     f'{esc(ans["error"])}</p></div>')
        return f'<section class="qa">{"".join(parts)}</section>'
    choice = f"<p><b>Choice {esc(ans['choice'])}</b></p>" if ans.get("choice") else ""
    chips = "".join(
        f'<span class="chip">{esc(hms(s.get("start_s", 0)))} – {esc(hms(s.get("end_s", 0)))}'
        f' {esc(s.get("label", ""))} · severity {float(s.get("severity", 0)):.2f}</span>'
        for s in ans.get("segments") or [])
    tok = trace.get("tokens") or {}
    figures = [f"confidence <b>{float(ans.get('confidence', 0)):.2f}</b>",
               f"<b>{esc(ans.get('steps', ''))}</b> brain turns",
               f"<b>{float(trace.get('elapsed_s') or 0):.2f}</b> s"]
    if tok.get("total_tokens"):
        figures.append(f"<b>{esc(tok['total_tokens'])}</b> tokens")
    parts.append(f'<div class="answer" id="answer">{choice}<p>{esc(ans.get("answer", ""))}</p>'
                 + (f'<div class="chips">{chips}</div>' if chips else "")
                 + f'<div class="figures">{" · ".join(figures)}</div></div>')
    return f'<section class="qa">{"".join(parts)}</section>'


def _step_row(s: dict[str, Any], zooms: set[int]) -> str:
    kind = s.get("kind")
    n = esc(s.get("n", ""))
    ms = f"{1000 * s['elapsed_s']:.0f}" if isinstance(s.get("elapsed_s"), int | float) else ""
    if kind == "brain":
        listed = s.get("tool_calls") if isinstance(s.get("tool_calls"), list) else []
        calls = ", ".join(str(c.get("name", "?")) for c in listed if isinstance(c, dict))
        tok = s["tokens"].get("total_tokens", "") if isinstance(s.get("tokens"), dict) else ""
        args = f"→ {esc(calls)}" if calls else "(answers in text)"
        return (f'<tr class="brain"><td class="num">{n}</td><td class="what">brain turn '
                f'{esc(s.get("turn", ""))}</td><td>{args}</td>'
                f'<td>{_fold(str(s.get("text") or s.get("note") or ""))}</td>'
                f'<td class="num">{ms}</td><td class="num">{esc(tok)}</td></tr>')
    if kind == "tool":
        ok = s.get("status", "success") == "success"
        args = s.get("args") if isinstance(s.get("args"), dict) else {}
        arg_cell = (f"<details><summary><code>{esc(_json(args, None)[:90])}</code></summary>"
                    f"<pre>{esc(_json(args))}</pre></details>") if args else "<code>{}</code>"
        result = ("" if ok else f"[{s.get('status')}] ") + str(s.get("summary", ""))
        wins = ", ".join(f"{hms(a)}–{hms(b)}" for a, b in clean_windows(s.get("windows"))[:6])
        extra = f'<div class="meta">windows {esc(wins)}</div>' if wins else ""
        if s.get("n") in zooms:
            extra += f'<div class="meta"><a href="#zoom-{n}">frames below</a></div>'
        return (f'<tr class="tool{"" if ok else " error"}"><td class="num">{n}</td>'
                f'<td class="what">{esc(s.get("tool", ""))}</td><td>{arg_cell}</td>'
                f'<td>{_fold(result, 160)}{extra}</td><td class="num">{ms}</td><td></td></tr>')
    return (f'<tr class="graph"><td class="num">{n}</td><td class="what">graph</td><td></td>'
            f'<td>{_fold(str(s.get("text", "")))}</td><td></td><td></td></tr>')


def _steps(trace: dict[str, Any], groups: list[FrameGroup]) -> str:
    zooms = {g.step for g in groups if g.step is not None}
    rows = "".join(_step_row(s, zooms) for s in trace.get("steps") or [])
    return ('<table id="steps"><thead><tr><th class="num">#</th><th>step</th><th>arguments</th>'
            '<th>result</th><th class="num">ms</th><th class="num">tokens</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>")


def _frames(groups: list[FrameGroup]) -> str:
    if not groups:
        return '<p class="note">The agent did not zoom in, and the answer has no segments.</p>'
    out = []
    for g in groups:
        gid = f' id="zoom-{esc(g.step)}"' if g.step is not None else ""
        crop = f" · crop {esc(g.crop)}" if g.crop else ""
        figs = "".join(f'<figure><img class="thumb" alt="frame at {esc(hms(t))}" src="{uri}">'
                       f"<figcaption>{esc(hms(t))}</figcaption></figure>" for t, uri in g.frames)
        body = f'<div class="strip">{figs}</div>' if figs else \
            f'<p class="note">{esc(g.problem or "no frames")}</p>'
        out.append(f'<div class="group"{gid}><h3>{esc(g.title)}{crop}</h3>{body}</div>')
    return f'<div class="groups">{"".join(out)}</div>'


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _sev_colour(sev: float) -> str:
    """Green (mild) to red (severe)."""
    s = min(max(sev, 0.0), 1.0)
    return f"rgb({int(60 + 160 * s)},{int(150 - 110 * s)},{int(70 - 30 * s)})"


def _events(index: Any) -> str:
    events = sorted(index.events, key=lambda e: (e.start_s, e.end_s, e.type))
    rows = []
    for e in events[:MAX_EVENTS]:
        ev = e.evidence or {}
        head = ", ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in list(ev.items())[:3])
        evid = (f"<details><summary><code>{esc(head)}</code></summary><pre>{esc(_json(ev))}</pre>"
                "</details>") if ev else ""
        sev = float(e.severity)
        rows.append(f"<tr><td>{esc(e.type)}</td><td>{esc(e.subtype)}</td>"
                    f'<td class="num">{esc(hms(e.start_s))}</td>'
                    f'<td class="num">{esc(hms(e.end_s))}</td>'
                    f'<td class="num">{e.end_s - e.start_s:.1f} s</td>'
                    f'<td class="num"><span class="sev" style="background:{_sev_colour(sev)}">'
                    f'{sev:.2f}</span></td><td class="num">{float(e.score):.1f}</td>'
                    f"<td>{evid}</td></tr>")
    more = (f'<p class="note">{len(events) - MAX_EVENTS} more events not shown.</p>'
            if len(events) > MAX_EVENTS else "")
    if not events:
        return '<p class="note">No quality events above the reporting threshold.</p>'
    return ('<table id="events"><thead><tr><th>type</th><th>subtype</th><th class="num">start'
            '</th><th class="num">end</th><th class="num">length</th><th class="num">severity'
            '</th><th class="num">score</th><th>evidence</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>{more}')


def build_report(trace: dict[str, Any], cache_dir: Path | None = None,
                 index: Any = None) -> Report:
    """Render a stored trace (agent.trace's JSON) as one self-contained HTML page."""
    trace = scrub_value(trace)
    notes: list[str] = []
    if index is None:
        index, why = _load_index(trace, cache_dir)
        if index is None:
            notes.append(f"no timeline or events: {why}")
    fps = float(index.info.fps) if index is not None else 25.0
    groups = zoom_groups(trace, fps)
    seg = segment_group(trace)
    groups += [seg] if seg else []
    decode_groups(str(trace.get("video", "")), groups)
    notes += [f"{g.title}: {g.problem}" for g in groups if g.problem and not g.frames]
    n_steps = len(trace.get("steps") or [])
    unavailable = '<p class="note">Unavailable: the video\'s index cannot be read.</p>'
    sections = [
        _header(trace, index),
        _answer(trace),
        "<h2>Quality timeline <small>the agent's tool calls over the windows they measured, "
        "the events, and the signals</small></h2>",
        _timeline(trace, index) if index is not None else unavailable,
        f"<h2>Steps <small>{_count(n_steps, 'step')}; click arguments or long results to "
        "expand"
        "</small></h2>",
        _steps(trace, groups),
        "<h2>Frames <small>decoded from the video at the times the agent looked at"
        "</small></h2>",
        _frames(groups),
        f"<h2>Events in the index <small>"
        f"{_count(len(index.events) if index is not None else 0, 'event')}</small></h2>",
        _events(index) if index is not None else unavailable,
    ]
    if notes:
        sections.append("<h2>Notes</h2><ul>" + "".join(f"<li>{esc(n)}</li>" for n in notes)
                        + "</ul>")
    version = index.meta.get("analyzer_version", "") if index is not None else ""
    made = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    sections.append(f"<footer>Made by lvq-agent on {esc(made)} from trace "
                    f"{esc(trace.get('trace_id', ''))}"
                    + (f"; analyzer {esc(version)}" if version else "")
                    + ". A single file: it loads nothing from the network.</footer>")
    page = (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>lvq-agent: {esc(str(trace.get('question', ''))[:120])}</title>"
            f"<style>{CSS}</style></head><body><main>{''.join(sections)}</main></body></html>")
    return Report(html=page, notes=notes)


def _umask() -> int:
    """The process's file-creation mask (a report is as readable as any file it writes)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_report(trace: dict[str, Any], output: Path, cache_dir: Path | None = None,
                 index: Any = None) -> Report:
    """Render the trace and write the page to `output` atomically (no half-written file)."""
    rep = build_report(trace, cache_dir, index)
    out = Path(output)
    folder = out.parent if str(out.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(rep.html)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    rep.path = out
    return rep
