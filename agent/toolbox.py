"""The functions a brain may call, over one video's quality index.

Each tool is a typed, documented method; its JSON schema comes from its signature and
docstring (langchain's StructuredTool), its arguments are validated (times clamped to the
video, frame budgets capped) and its result is compact JSON with a one-line `summary` and
the `window`(s) it looked at. Errors are raised as ToolArgError and go back to the brain.
"""

from __future__ import annotations

import base64
from typing import Any

from langchain_core.tools import StructuredTool
from langchain_core.utils.function_calling import convert_to_openai_tool

from agent.answer import Segment, clamp_segments
from agent.context import RunContext
from agent.questions import TYPE_NAMES
from agent.timefmt import hms
from agent.tool_args import ToolArgError, resolve_type
from agent.tool_json import dumps, inline_refs
from tools import timeline as tl

__all__ = ["TOOL_NAMES", "ToolArgError", "Toolbox", "dumps", "resolve_type"]

TOOL_NAMES: tuple[str, ...] = (
    "overview", "find_events", "measure_window", "compare_windows", "zoom_in",
    "search_frames", "finish",
)
MAX_WINDOWS = 12  # compare_windows at most
MAX_EVENTS = 40  # events listed in one result
OVERVIEW_SEGMENTS = 10
ZOOM_MAX_FRAMES = 8  # frames returned as images by zoom_in


class Toolbox:
    """The tools over one index. Holds the index, the run context and what was looked at."""

    def __init__(self, index: Any, ctx: RunContext | None = None) -> None:
        self.index = index
        self.ctx = ctx or RunContext(video=index.info.path, duration_s=index.info.duration_s)
        self.duration = float(index.info.duration_s)

    # ------------------------------------------------------------ helpers

    def _window(self, start_s: float | None, end_s: float | None) -> tuple[float, float]:
        return tl.clamp_window(start_s, end_s, self.duration)

    def _span(self, a: float, b: float) -> str:
        return f"{hms(a)}-{hms(b)}"

    def _event_line(self, e: dict[str, Any]) -> str:
        sub = f" ({e['subtype']})" if e.get("subtype") else ""
        return f"{e['type']}{sub} {self._span(e['start_s'], e['end_s'])} sev {e['severity']:.2f}"

    # ------------------------------------------------------------ tools

    def overview(self) -> str:
        """Facts about the video, its scenes, every detected quality event and a coarse
        quality timeline. Call this first.

        Returns:
            JSON: video facts, scene count and cuts, events (type, subtype, start_s, end_s,
            severity 0..1), per-type totals, and quality 0..100 of equal segments.
        """
        idx = self.index
        evs = sorted(idx.events, key=lambda e: (-e.severity, e.start_s))
        listed = sorted(evs[:MAX_EVENTS], key=lambda e: e.start_s)
        by_type: dict[str, dict[str, float]] = {}
        for e in idx.events:
            row = by_type.setdefault(e.type, {"count": 0, "total_s": 0.0, "max_severity": 0.0})
            row["count"] += 1
            row["total_s"] = round(row["total_s"] + (e.end_s - e.start_s), 2)
            row["max_severity"] = max(row["max_severity"], round(e.severity, 3))
        n_seg = OVERVIEW_SEGMENTS if self.duration >= 60 else max(2, int(self.duration // 6))
        segs = []
        for a, b in tl.equal_segments(self.duration, n_seg):
            ovs = tl.overlaps(idx.events, a, b)
            worst = max(ovs, key=lambda o: o.event.severity * o.overlap_s, default=None)
            segs.append({"start_s": a, "end_s": b, "quality": tl.quality(ovs, b - a),
                         "worst": worst.event.type if worst else None})
        lengths = [s.end_s - s.start_s for s in idx.scenes]
        info = idx.info
        if idx.events:
            kinds = ", ".join(f"{t} x{int(v['count'])}" for t, v in by_type.items())
            summary = (f"{hms(self.duration)} video, {len(idx.scenes)} scenes, "
                       f"{len(idx.events)} events: {kinds}")
        else:
            summary = (f"{hms(self.duration)} video, {len(idx.scenes)} scenes, "
                       "no quality events detected")
        return dumps({
            "summary": summary,
            "window": [0.0, round(self.duration, 3)],
            "video": {"duration_s": info.duration_s, "fps": info.fps, "n_frames": info.n_frames,
                      "width": info.width, "height": info.height, "codec": info.codec,
                      "vfr": info.vfr},
            "scenes": {"count": len(idx.scenes),
                       "median_length_s": round(sorted(lengths)[len(lengths) // 2], 2)
                       if lengths else None,
                       "cuts_s": [round(s.start_s, 2) for s in idx.scenes[1:41]]},
            "events_total": len(idx.events),
            "events": [tl.event_dict(e) for e in listed],
            "by_type": by_type,
            "timeline": segs,
            "retrieval": idx.clip_status,
        })

    def find_events(
        self,
        type: str | None = None,
        start_s: float | None = None,
        end_s: float | None = None,
        min_severity: float = 0.0,
    ) -> str:
        """List the detected quality events of one type (or all) inside a time window.

        Args:
            type: Distortion type: blur, noise, compression, exposure, colour, sharpening,
                flicker, frame_drop, stutter, jitter, or a synonym ('grainy', 'freeze');
                omit or 'any' for all types.
            start_s: Window start in seconds (default: start of the video).
            end_s: Window end in seconds (default: end of the video).
            min_severity: Only events at least this severe (0..1).

        Returns:
            JSON: the window, the events (start_s, end_s, severity, evidence), seconds covered
            and the window's signal score for the type (>= 1 is as strong as a reported event).
        """
        etype, sub = resolve_type(type)
        a, b = self._window(start_s, end_s)
        ms = float(min(max(min_severity or 0.0, 0.0), 1.0))
        ovs = tl.overlaps(self.index.events, a, b, [etype] if etype else None, sub, ms)
        if sub and not ovs and etype:  # asked for a subtype: fall back to the whole type
            ovs = tl.overlaps(self.index.events, a, b, [etype], "", ms)
            sub = ""
        evs = [tl.event_dict(o.event, o.overlap_s) for o in ovs[:MAX_EVENTS]]
        scores = tl.type_scores(self.index, a, b)
        what = TYPE_NAMES.get(etype, etype) if etype else "quality events"
        if evs:
            summary = (f"{len(ovs)} {what} in {self._span(a, b)}: "
                       + "; ".join(self._event_line(e) for e in evs[:5]))
        else:
            score = f" (signal score {scores.get(etype, 0):.2f})" if etype else ""
            summary = f"no {what} in {self._span(a, b)}{score}"
        return dumps({
            "summary": summary,
            "window": [a, b],
            "type": etype or "any",
            "subtype": sub,
            "count": len(ovs),
            "events": evs,
            "covered_s": round(tl.covered(ovs, a, b), 2),
            "max_severity": round(max((o.event.severity for o in ovs), default=0.0), 3),
            "signal_score": scores.get(etype) if etype else max(scores.values(), default=0.0),
        })

    def measure_window(self, start_s: float, end_s: float) -> str:
        """Measure one time window: signal medians against the whole video, per-type scores,
        the events inside, and a 0..100 quality.

        Args:
            start_s: Window start in seconds.
            end_s: Window end in seconds.

        Returns:
            JSON: quality, worst_severity, events, type_scores (>= 1: as strong as a reported
            event), and signals {name: {window, video}} medians.
        """
        a, b = self._window(start_s, end_s)
        st = tl.window_stats(self.index, a, b)
        top = sorted(st["type_scores"].items(), key=lambda kv: -kv[1])[:2]
        evs = "; ".join(self._event_line(e) for e in st["events"][:4]) or "no events"
        summary = (f"{self._span(a, b)}: quality {st['quality']:.0f}/100, {evs}; strongest "
                   + ", ".join(f"{k} {v:.2f}" for k, v in top))
        return dumps({"summary": summary, "window": [a, b], **st})

    def compare_windows(self, windows: list[list[float]], type: str | None = None) -> str:
        """Compare two or more time windows, worst first (by event severity, then extent).

        Args:
            windows: Windows as [start_s, end_s] pairs, 2 to 12 of them.
            type: Only weigh this distortion type (or a synonym), or these types separated
                by commas ("stutter,frame_drop"); omit for all.

        Returns:
            JSON: for each window its quality, worst severity, events and type scores, plus
            `worst_first` (indices into windows) and a trend over the windows in order.
        """
        if not isinstance(windows, list) or not 2 <= len(windows) <= MAX_WINDOWS:
            raise ToolArgError(f"windows must be a list of 2 to {MAX_WINDOWS} [start_s, end_s]")
        named = [resolve_type(n) for n in (type.split(",") if isinstance(type, str) else [type])]
        etypes = [] if any(e is None for e, _ in named) else list(dict.fromkeys(
            e for e, _ in named))
        sub = named[0][1] if len(named) == 1 else ""
        stats = []
        for w in windows:
            if not isinstance(w, list | tuple) or len(w) != 2:
                raise ToolArgError(f"each window must be [start_s, end_s], got {w!r}")
            a, b = self._window(w[0], w[1])
            st = tl.window_stats(self.index, a, b, etypes or None, sub)
            st.pop("signals", None)
            stats.append(st)
        order = tl.rank_windows(stats)
        if etypes:
            order = sorted(order, key=lambda i: (-stats[i]["worst_severity"],
                                                 -stats[i]["impairment"],
                                                 -max(stats[i]["type_scores"].get(e, 0.0)
                                                      for e in etypes), i))
        trend = tl.trend([s["quality"] for s in stats])
        best = stats[order[-1]]
        worst = stats[order[0]]
        summary = (f"worst {self._span(worst['start_s'], worst['end_s'])} (quality "
                   f"{worst['quality']:.0f}, worst severity {worst['worst_severity']:.2f}); best "
                   f"{self._span(best['start_s'], best['end_s'])} (quality {best['quality']:.0f})")
        return dumps({"summary": summary, "type": ",".join(etypes) or "any", "windows": stats,
                      "worst_first": order, "quality_trend": trend})

    def zoom_in(
        self,
        start_s: float,
        end_s: float,
        crop: list[float] | None = None,
        max_frames: int = 6,
    ) -> str | list[dict[str, Any]]:
        """Look closely at a short window (at most 20 s): decode every frame at the native
        frame rate and measure it; vision models also receive a few frames as images.

        Args:
            start_s: Window start in seconds.
            end_s: Window end in seconds (windows longer than 20 s are cut to their centre).
            crop: Optional [x0, y0, x1, y1] region as fractions 0..1 of the frame.
            max_frames: Frames to return as images (1..8).

        Returns:
            JSON: frame rate, frames decoded, temporal measurements (brightness swing,
            repeated frames, motion jerk), spatial medians (sharpness, noise, blockiness,
            saturation...), the picked frame times, and the index events there.
        """
        from tools.zoom import check_crop, to_jpeg, zoom

        a, b = self._window(start_s, end_s)
        try:
            box = check_crop(crop)
        except (TypeError, ValueError) as exc:
            raise ToolArgError(str(exc)) from None
        n = int(min(max(int(max_frames or 1), 1), ZOOM_MAX_FRAMES))
        info = self.index.info
        z = zoom(info.path, a, b, crop=box, n_picks=n, fps=info.fps,
                 frame_size=(info.width, info.height))
        ovs = tl.overlaps(self.index.events, z.start_s, z.end_s)
        t = z.measurements.get("temporal", {})
        s = z.measurements.get("spatial", {})
        summary = (f"zoom {self._span(z.start_s, z.end_s)}: {z.n_frames} frames at "
                   f"{z.fps:g} fps; luma swing max {t.get('luma_swing_max')}, repeated "
                   f"{t.get('repeated_frames')}, jerk p90 {t.get('motion_jerk_p90')}, "
                   f"sharpness {s.get('sharpness')}, noise {s.get('noise')}")
        result = {
            "summary": summary,
            "window": [z.start_s, z.end_s],
            "fps": z.fps,
            "frames_decoded": z.n_frames,
            "frame_times": [round(float(x), 3) for x in z.pick_times],
            **z.measurements,
            "events": [tl.event_dict(o.event, o.overlap_s) for o in ovs[:10]],
        }
        if not self.ctx.vision:
            return dumps(result)
        blocks: list[dict[str, Any]] = [{"type": "text", "text": dumps(result)}]
        for img in z.picks[:n]:
            b64 = base64.b64encode(to_jpeg(img)).decode("ascii")
            blocks.append({"type": "image_url",
                           "image_url": {"url": f"data:image/jpeg;base64,{b64}"}})
        return blocks

    def search_frames(
        self, query: str, k: int = 5, start_s: float | None = None, end_s: float | None = None
    ) -> str:
        """Find the moments whose content matches a text (CLIP), e.g. 'a dark indoor scene'.
        Content only: it does not measure quality.

        Args:
            query: What the frames should show.
            k: How many frames to return (1..20).
            start_s: Optional window start in seconds.
            end_s: Optional window end in seconds.

        Returns:
            JSON: hits (time_s, score) best first and merged spans.
        """
        clip = self.index.clip
        if clip is None or not getattr(clip, "enabled", False):
            raise ToolArgError(f"CLIP search is unavailable: {self.index.clip_status}")
        try:
            from tools.embed import merge_spans
        except ImportError as exc:  # pragma: no cover - part of the install
            raise ToolArgError(f"CLIP search is unavailable: {exc}") from None
        a, b = self._window(start_s, end_s)
        kk = int(min(max(int(k or 1), 1), 20))
        try:
            hits = clip.search_text(query, kk, a, b)
        except Exception as exc:  # noqa: BLE001 - RetrievalOff, ClipError: tell the brain
            raise ToolArgError(f"CLIP search failed: {exc}") from None
        spans = merge_spans(hits, clip.gap_s, pad_s=clip.gap_s / 3)
        summary = f"{len(hits)} frames match {query!r}" + (
            f"; best at {hms(hits[0].time_s)} (score {hits[0].score:.3f})" if hits else "")
        return dumps({"summary": summary, "window": [a, b],
                      "hits": [h.to_dict() for h in hits],
                      "spans": [s.to_dict() for s in spans[:5]]})

    def finish(
        self,
        answer: str,
        choice: str | None = None,
        segments: list[Segment] | None = None,
        confidence: float = 0.5,
    ) -> str:
        """Give the final answer and end the run. Cite times and measured numbers.

        Args:
            answer: The answer in words, with times and the evidence numbers.
            choice: The option letter (A, B, ...) for multiple-choice questions, else null.
            segments: Time spans the answer points at: start_s, end_s, label, severity 0..1.
            confidence: How sure you are, 0..1.

        Returns:
            JSON: the validated answer.
        """
        letters = self.ctx.letters
        ch = (choice or "").strip().upper().rstrip(".):") or None
        if ch in ("NONE", "NULL", "N/A"):
            ch = None
        if ch is not None and ch not in letters:
            valid = ", ".join(letters) if letters else "none (no options were given: use null)"
            raise ToolArgError(f"choice {choice!r} is not an option letter; valid: {valid}")
        segs = [s if isinstance(s, Segment) else Segment.model_validate(s)
                for s in (segments or [])]
        segs = clamp_segments(segs, self.duration)
        conf = float(min(max(confidence, 0.0), 1.0))
        if not (answer or "").strip():
            raise ToolArgError("answer must not be empty")
        return dumps({"summary": "final answer", "answer": answer.strip(), "choice": ch,
                      "segments": [s.model_dump() for s in segs], "confidence": conf})

    # ------------------------------------------------------------ as LangChain tools

    def tools(self) -> list[StructuredTool]:
        """The tools as LangChain StructuredTools (schemas from signatures and docstrings)."""
        out = []
        for name in TOOL_NAMES:
            fn = getattr(self, name)
            out.append(StructuredTool.from_function(fn, name=name, parse_docstring=True))
        return out

    @property
    def retrieval_on(self) -> bool:
        """Whether the index has CLIP frame embeddings to search."""
        clip = getattr(self.index, "clip", None)
        return clip is not None and bool(getattr(clip, "enabled", False))

    def offered(self) -> list[StructuredTool]:
        """The tools a brain is offered: search_frames only when retrieval is on."""
        return [t for t in self.tools() if t.name != "search_frames" or self.retrieval_on]

    def openai_schemas(self, tools: list[StructuredTool] | None = None) -> list[dict[str, Any]]:
        """OpenAI-format tool schemas {"type": "function", "function": {...}}, refs inlined."""
        schemas = []
        for t in self.tools() if tools is None else tools:
            spec = convert_to_openai_tool(t)
            spec["function"]["parameters"] = inline_refs(spec["function"]["parameters"])
            schemas.append(spec)
        return schemas

    def call(self, name: str, **args: Any) -> Any:
        """Call a tool by name with validated arguments (the same path the graph uses)."""
        tool = {t.name: t for t in self.tools()}.get(name)
        if tool is None:
            raise ToolArgError(f"no tool {name!r}; tools: {', '.join(TOOL_NAMES)}")
        return tool.invoke(args)
