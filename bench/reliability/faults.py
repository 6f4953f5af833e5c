"""`python -m bench.reliability.faults`: provoke each fault and print what was expected, what was
observed, and whether they agree. Every row is computed by running the scenario now."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.reliability.faults_brain import CHECKS, Row, ss
from tools.ffmpeg import ffmpeg_exe

ROOT = Path(__file__).resolve().parents[2]
CANARY = "sk-canary-3f9d1b7e5a2c48e6"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}


def _agent(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "agent.cli", *args], capture_output=True,
                          text=True, env=kw.pop("env", _env()), timeout=kw.pop("timeout", 300),
                          **kw)


def _video(path: Path, seconds: float, size: str = "160x90") -> Path:
    subprocess.run([ffmpeg_exe(), "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    f"testsrc2=size={size}:rate=25", "-t", str(seconds), "-c:v", "libx264",
                    "-preset", "ultrafast", "-pix_fmt", "yuv420p", str(path)], check=True)
    return path


def unknown_tool(work: Path) -> Row:
    from agent.brains.openai_brain import OpenAIBrain
    from agent.run import answer_question

    video = _video(work / "u.mp4", 3.0)
    script = [ss.tool_call("delete_everything", {"t": 1}), ss.text("No defects found.")]
    with ss.ScriptedServer(script) as srv:
        brain = OpenAIBrain(model="m", base_url=srv.url, backoff_s=0.01, vision="off")
        ans = answer_question(video, "Any flicker?", brain=brain, cache_dir=work / "c",
                              progress=False)
        sent = srv.chat_requests[-1].messages[-1]
    told = sent.get("role") == "tool" and "delete_everything" in str(sent.get("content"))
    observed = f"tool result: {str(sent.get('content'))[:50]}; answer {ans.answer!r}"
    return ("unknown tool", "error result to the model, run goes on", observed,
            told and ans.answer == "No defects found.")


def sigint_index(work: Path) -> Row:
    video = _video(work / "long.mp4", 600.0, size="320x180")
    cache = work / "sig"
    proc = subprocess.Popen([sys.executable, "-m", "agent.cli", "index", str(video), "--no-clip",
                             "-q", "--cache-dir", str(cache)], env=_env(), text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            # a parent started in the background (nohup, `&`) ignores SIGINT,
                            # and its children would too: deliver it as a terminal does
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3.0)  # past the imports, inside the decoding pass
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    entries = [p for p in cache.iterdir() if p.is_dir() and p.name != "traces"] \
        if cache.exists() else []
    complete = all(json.loads((p / "meta.json").read_text()).get("complete")
                   for p in entries if (p / "meta.json").exists())
    partial = [p.name for p in entries if not (p / "meta.json").exists()]
    lines = [ln for ln in err.splitlines() if ln.strip()]
    ok = proc.returncode == 130 and len(lines) == 1 and complete and not partial
    return ("SIGINT of agent index", "exit 130, one line, no partial entry",
            f"exit {proc.returncode}, {len(lines)} line {lines[:1]}, {len(entries)} entries, "
            f"partial {partial}", ok)


def read_only_cache(work: Path) -> Row:
    video = _video(work / "ro.mp4", 2.0)
    blocker = work / "a-file"
    blocker.write_text("not a folder")  # unwritable even for root
    res = _agent("index", str(video), "--no-clip", "-q", "--json", "--cache-dir",
                 str(blocker / "cache"))
    frames = json.loads(res.stdout)["video"]["n_frames"] if res.returncode == 0 else None
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    ok = res.returncode == 0 and frames == 50 and len(lines) == 1 and "Traceback" not in res.stderr
    return ("read-only cache", "indexes in memory, one notice", f"exit {res.returncode}, "
            f"{frames} frames, stderr {lines[:1]}"[:110], ok)


def truncated_entry(work: Path) -> Row:
    from tools.index import get_index

    video = _video(work / "tr.mp4", 2.0)
    first = get_index(video, cache_dir=work / "tc", progress=False, clip=False)
    table = first.directory / "frames.parquet"
    table.write_bytes(table.read_bytes()[: table.stat().st_size // 2])
    again = get_index(video, cache_dir=work / "tc", progress=False, clip=False)
    third = get_index(video, cache_dir=work / "tc", progress=False, clip=False)
    ok = not again.meta.get("cached") and third.meta.get("cached") and \
        len(third.frames["t"]) == 50
    return ("truncated cache entry", "rebuilt, then served from cache",
            f"2nd cached={again.meta.get('cached', False)}, 3rd cached="
            f"{third.meta.get('cached', False)}, {len(third.frames['t'])} frames", bool(ok))


def trace_traversal(work: Path) -> Row:
    res = _agent("trace", "show", "../../etc/passwd", "--cache-dir", str(work / "t"))
    lines = [ln for ln in (res.stdout + res.stderr).splitlines() if ln.strip()]
    ok = res.returncode == 2 and len(lines) == 1 and "root:" not in res.stdout
    return ("trace id ../../etc/passwd", "refused, exit 2, one line",
            f"exit {res.returncode}: {lines[0] if lines else ''}"[:100], ok)


def canary(work: Path) -> Row:
    video = _video(work / "k.mp4", 3.0)
    script = [ss.tool_call("overview", {}), ss.text(f"Nothing wrong. key={CANARY}")]
    env = {**_env(), "OPENAI_API_KEY": CANARY, "LVQ_OPENAI_VISION": "off"}
    env.pop("LVQ_OPENAI_API_KEY", None)
    cache = work / "kc"
    with ss.ScriptedServer(script) as srv:
        res = _agent("answer", str(video), "Any flicker?", "--brain", "openai", "--model", "m",
                     "--base-url", srv.url, "--cache-dir", str(cache), "--json", "-q", env=env)
        sent_key = any(CANARY in str(r.headers) for r in srv.chat_requests)
    stored = "".join(p.read_text(errors="replace") for p in cache.rglob("*.json"))
    leaks = [name for name, text in (("stdout", res.stdout), ("stderr", res.stderr),
                                     ("cache", stored)) if CANARY in text]
    ok = res.returncode == 0 and sent_key and not leaks
    return ("canary key in outputs", "sent to endpoint only, never in output",
            f"exit {res.returncode}, sent {sent_key}, leaks {leaks or 'none'} "
            f"{res.stderr.strip()[-60:] if res.returncode else ''}", ok)


def run() -> list[Row]:
    """Every fault row (brain faults first, then the command line and the cache)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="lvq-faults-") as tmp:
        work = Path(tmp)
        checks = [*CHECKS, *(lambda f=f: f(work) for f in (
            unknown_tool, sigint_index, read_only_cache, truncated_entry, trace_traversal,
            canary))]
        for check in checks:
            try:
                rows.append(check())
            except Exception as exc:  # noqa: BLE001 - a check that breaks is a failed row
                rows.append((getattr(check, "__name__", "check"), "-",
                             f"check failed: {type(exc).__name__}: {exc}"[:110], False))
            print(f"  {rows[-1][0]}: {rows[-1][3]}", file=sys.stderr, flush=True)
    return rows


def print_table(rows: list[Row]) -> None:
    """fault | expected | observed | as expected?"""
    w = [max(len(h), *(len(str(r[i])) for r in rows)) for i, h in
         enumerate(("fault", "expected", "observed"))]
    w[2] = min(w[2], 100)
    head = f"{'fault':<{w[0]}}  {'expected':<{w[1]}}  {'observed':<{w[2]}}  as expected?"
    print(head)
    print("-" * len(head))
    for f, e, o, ok in rows:
        o = o if len(o) <= w[2] else o[: w[2] - 1] + "…"
        print(f"{f:<{w[0]}}  {e:<{w[1]}}  {o:<{w[2]}}  {'yes' if ok else 'NO'}")
    print(f"{sum(r[3] for r in rows)} of {len(rows)} as expected")


def main() -> int:
    rows = run()
    print_table(rows)
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
