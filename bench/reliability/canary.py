"""`python -m bench.reliability.canary`: with OPENAI_API_KEY set to a canary, run index, answer,
bench run, report and the trace commands with the openai brain against a local scripted endpoint
that echoes the key back (in its text, its tool arguments and its error messages), then search
every file written and every byte printed for the canary: there must be none. Trace ids that
name a path outside the trace store (`../../etc/passwd`) must be refused."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.reliability import procs
from bench.reliability.leftovers import files_containing

sys.path.insert(0, str(procs.ROOT / "tests"))
import scripted_server as ss  # noqa: E402

CANARY = "canary-7d3f0b9e41a2c8f65e1d"  # no "sk-" shape: masking must work by value
Row = tuple[str, str, str, bool]


def _key_of(req: ss.Recorded) -> str:
    auth = next((v for k, v in req.headers.items() if k.lower() == "authorization"), "")
    return auth.removeprefix("Bearer ").strip()


def echo(req: ss.Recorded) -> ss.Reply:
    """An endpoint that repeats the key it was sent: with a tool call first, then as text."""
    key = _key_of(req)
    if any(m.get("role") == "tool" for m in req.messages):
        return ss.text(f"Nothing wrong (echo {key}). Answer: B")
    call = {"id": f"call-{key}", "type": "function",
            "function": {"name": "overview", "arguments": json.dumps({"note": key})}}
    return ss.completion({"role": "assistant", "content": f"checking, key {key}",
                          "tool_calls": [call]}, finish_reason="tool_calls")


def refuse(req: ss.Recorded) -> ss.Reply:
    """An endpoint that rejects the key and quotes it in the error."""
    return ss.error(401, f"Incorrect API key provided: {_key_of(req)}")


def _commands(work: Path, url: str, bad_url: str) -> list[tuple[str, list[str]]]:
    video = procs.pattern_video(work / "videos" / "v.mp4", 6.0)
    items = work / "videos" / "items.jsonl"
    procs.item_file(items, ["v.mp4"], 2)
    cache = work / "cache"
    brain = ("--brain", "openai", "--model", "scripted-model", "--base-url", url)
    run = ("run", "--items", items, "--cache-dir", cache, "--no-open-score", "-q", *brain)
    return [
        ("agent index", procs.agent_cmd("index", video, "--no-clip", "-q", "--json",
                                        "--cache-dir", cache)),
        ("agent answer --json", procs.agent_cmd("answer", video, "Any flicker?", *brain,
                                                "-q", "--json", "--cache-dir", cache)),
        ("agent answer (text)", procs.agent_cmd("answer", video, "Is it blurry?", *brain,
                                                "-q", "--cache-dir", cache)),
        ("bench run agent", procs.bench_cmd(*run, "--track", "agent",
                                            "--out", work / "res" / "agent.jsonl")),
        ("bench run uniform", procs.bench_cmd(*run, "--track", "uniform", "--uniform-numbers",
                                              "--out", work / "res" / "uniform.jsonl")),
        ("bench report", procs.bench_cmd("report", work / "res" / "agent.jsonl")),
        ("agent trace list", procs.agent_cmd("trace", "list", "--cache-dir", cache)),
        ("agent trace show", procs.agent_cmd("trace", "show", "last", "--cache-dir", cache)),
        ("agent trace plot", procs.agent_cmd("trace", "plot", "last", "-o", work / "plot.png",
                                             "--cache-dir", cache)),
        ("endpoint quoting the key", procs.agent_cmd(
            "answer", video, "Any flicker?", "--brain", "openai", "--model", "scripted-model",
            "--base-url", bad_url, "-q", "--cache-dir", cache)),
    ]


def sweep(work: Path) -> dict[str, Any]:
    """Run every command with the canary key; what was sent, printed and written."""
    logs = work / "logs"
    logs.mkdir(parents=True)
    child = procs.env(OPENAI_API_KEY=CANARY, LVQ_VISION_CACHE=str(work / "vision.json"),
                      LVQ_RETRIES="0")
    ran: list[dict[str, Any]] = []
    with ss.ScriptedServer([echo] * 400) as good, ss.ScriptedServer([refuse] * 50) as bad:
        for name, argv in _commands(work, good.url, bad.url):
            out = procs.run(argv, child)
            slug = name.replace(" ", "-").replace("(", "").replace(")", "")
            (logs / f"{slug}.out").write_text(out.stdout)
            (logs / f"{slug}.err").write_text(out.stderr)
            ran.append({"name": name, "rc": out.rc, "printed": CANARY in out.stdout + out.stderr,
                        "last": out.lines[-1:]})
        sent = sum(_key_of(r) == CANARY for r in good.requests + bad.requests)
        requests = len(good.requests) + len(bad.requests)
    written = [p for p in files_containing(work, CANARY) if not p.startswith("logs/")]
    masked = files_containing(work, "[redacted]")  # where the echo surfaced, masked
    return {"ran": ran, "sent": sent, "requests": requests, "written": written, "masked": masked,
            "files": sum(1 for p in work.rglob("*") if p.is_file())}


def traversal(work: Path) -> list[Row]:
    """Trace ids naming a path outside the store, to show and plot: refused, nothing written."""
    rows = []
    for verb in ("show", "plot"):
        target = work / f"t-{verb}.png"
        extra = ["-o", target] if verb == "plot" else []
        out = procs.run(procs.agent_cmd("trace", verb, "../../etc/passwd", *extra,
                                        "--cache-dir", work / "cache"))
        ok = out.rc == 2 and len(out.lines) == 1 and "root:" not in out.stdout \
            and not target.exists()
        rows.append((f"trace {verb} ../../etc/passwd", "refused, exit 2, one line",
                     f"exit {out.rc}: {out.lines[:1]}"[:110], ok))
    return rows


def run() -> list[Row]:
    """The secrets rows: one per command, the files written, the traversal refusals."""
    with tempfile.TemporaryDirectory(prefix="lvq-canary-") as tmp:
        work = Path(tmp)
        found = sweep(work)
        rows: list[Row] = []
        for r in found["ran"]:
            expect_fail = r["name"] == "endpoint quoting the key"
            ok = not r["printed"] and ((r["rc"] == 4) if expect_fail else r["rc"] == 0)
            rows.append((f"canary: {r['name']}", "exit 4, key not printed" if expect_fail
                         else "exit 0, key not printed",
                         f"exit {r['rc']}, printed={r['printed']} {r['last']}"[:110], ok))
        rows.append(("canary: files written", "no file holds the key",
                     f"{found['files']} files searched, hits {found['written'] or 'none'}",
                     not found["written"]))
        rows.append(("canary: echo surfaced masked", "the echoed key shows as [redacted]",
                     f"in {len(found['masked'])} files: {', '.join(found['masked'][:3])}"[:110],
                     bool(found["masked"])))
        rows.append(("canary: key reached the endpoint", "every request carried it",
                     f"{found['sent']} of {found['requests']} requests",
                     found["requests"] > 0 and found["sent"] == found["requests"]))
        rows += traversal(work)
    return rows


def main() -> int:
    """Print the secrets table; exit 1 unless every row is as expected."""
    from bench.reliability.faults import print_table

    rows = run()
    print_table(rows)
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
