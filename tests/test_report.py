"""`agent report`: one self-contained, escaped HTML page of a real run, also in a real browser."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agent.cli import app
from tools.errors import EXIT_STORAGE, EXIT_USAGE

runner = CliRunner()
QUESTION = "Describe the flicker in this video."  # the local brain zooms in for this one
CHROMIUM = Path("/usr/bin/chromium")


class Page(HTMLParser):
    """The parts of a report page the tests look at."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.table: str | None = None
        self.rows: dict[str, int] = {}
        self.in_body = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "table":
            self.table = a.get("id")
        elif tag == "tr" and self.table and self.in_body:
            self.rows[self.table] = self.rows.get(self.table, 0) + 1
        if tag == "tbody":
            self.in_body = True
        elif tag == "thead":
            self.in_body = False

    def handle_endtag(self, tag):
        if tag == "table":
            self.table, self.in_body = None, False

    def attrs(self, tag: str, cls: str | None = None) -> list[dict]:
        return [a for t, a in self.tags if t == tag and (cls is None or a.get("class") == cls)]


@pytest.fixture(scope="module")
def run(make_clip, tmp_path_factory):
    """A real local-brain run that zooms in: (cache dir, trace JSON, events in the index)."""
    from agent import api

    video, _ = make_clip(20.0, 1, needles=[("flicker", 3, 8, 13)])
    cache = tmp_path_factory.mktemp("report-cache")
    ans = api.answer(video, QUESTION, cache_dir=cache, progress=False)
    trace = json.loads((cache / "traces" / f"{ans.trace_id}.json").read_text())
    n_events = len(api.events(video, cache_dir=cache, progress=False))
    return cache, trace, n_events


def report(cache: Path, out: Path, trace_id: str = "last"):
    return runner.invoke(app, ["report", trace_id, "-o", str(out), "--cache-dir", str(cache)])


def test_report_is_complete_and_self_contained(run, tmp_path):
    cache, trace, n_events = run
    out = tmp_path / "report.html"
    res = report(cache, out, trace["trace_id"])
    assert res.exit_code == 0, res.output
    assert res.stdout.strip() == f"wrote {out}" and "warning" not in res.output
    text = out.read_text()
    page = Page(text)
    # nothing to fetch: every src/href is inline or a same-page anchor; no script, no link
    for tag, a in page.tags:
        for key in ("src", "href"):
            if key in a:
                assert a[key].startswith(("data:", "#")), (tag, a[key][:60])
    assert not page.attrs("script") and not page.attrs("link")
    csp = [a for a in page.attrs("meta") if a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and "default-src 'none'" in csp[0]["content"]
    # the question, the answer, the timeline, one row per step, the zoomed frames, the events
    assert QUESTION in text and trace["answer"]["answer"][:40] in text
    timeline = [a for a in page.attrs("img") if a.get("id") == "timeline"]
    assert timeline and timeline[0]["src"].startswith("data:image/png;base64,")
    assert page.rows["steps"] == len(trace["steps"]) >= 6
    zoom = [s for s in trace["steps"] if s.get("tool") == "zoom_in"]
    assert len(zoom) == 1
    thumbs = page.attrs("img", "thumb")
    n_segments = len(trace["answer"]["segments"])
    assert len(thumbs) == zoom[0]["args"]["max_frames"] + n_segments
    assert all(a["src"].startswith("data:image/jpeg;base64,") for a in thumbs)
    assert f'id="zoom-{zoom[0]["n"]}"' in text and "frames below" in text
    assert page.rows.get("events", 0) == n_events >= 1
    assert "brightness oscillation" in text


def test_report_escapes_and_masks(run, tmp_path, monkeypatch):
    cache, trace, _ = run
    odd_key = "odd-shaped-key-7731"  # no sk- prefix: masked because it is the key in use
    monkeypatch.setenv("OPENAI_API_KEY", odd_key)
    evil = json.loads(json.dumps(trace))
    evil["trace_id"] = "20990101-000000-evil00"
    evil["question"] = 'Is <script>alert("q")</script> here?'
    evil["options"] = ["<b>bold</b>", "plain"]
    tool = next(s for s in evil["steps"] if s.get("kind") == "tool")
    tool["args"] = {"query": '"><img src=x onerror=alert(1)>'}
    tool["summary"] = f"result with key {odd_key} and Bearer abcdefghijklmnopqrstuvwxyz"
    evil["answer"]["answer"] = "Answer sk-abcdefghijklmnop1234 & <i>more</i>"
    store = cache / "traces" / f"{evil['trace_id']}.json"
    store.write_text(json.dumps(evil))
    try:
        out = tmp_path / "evil.html"
        res = report(cache, out, evil["trace_id"])
        assert res.exit_code == 0, res.output
        text = out.read_text()
    finally:
        store.unlink()
    assert "<script" not in text and "<img src=x" not in text and "<b>bold" not in text
    assert "&lt;script&gt;alert(&quot;q&quot;)&lt;/script&gt;" in text
    assert "&lt;i&gt;more&lt;/i&gt;" in text and "&amp;" in text
    for secret in (odd_key, "sk-abcdefghijklmnop1234", "abcdefghijklmnopqrstuvwxyz"):
        assert secret not in text
    assert text.count("[redacted]") >= 3


def test_bad_ids_and_outputs_end_in_one_line(run, tmp_path):
    cache, _, _ = run
    for bad in ("no-such-trace", "../../etc/passwd"):
        res = report(cache, tmp_path / "x.html", bad)
        assert res.exit_code == EXIT_USAGE and res.output.strip().count("\n") == 0
        assert "Traceback" not in res.output and not (tmp_path / "x.html").exists()
    res = report(tmp_path / "empty-cache", tmp_path / "x.html")
    assert res.exit_code == EXIT_USAGE and "no traces" in res.output
    res = report(cache, tmp_path / "missing-dir" / "x.html")
    assert res.exit_code == EXIT_STORAGE and "cannot write" in res.output
    assert res.output.strip().count("\n") == 0


def test_report_without_video_or_index_still_shows_the_run(run, tmp_path):
    cache, trace, _ = run
    lone = tmp_path / "lone-cache"
    (lone / "traces").mkdir(parents=True)
    gone = json.loads(json.dumps(trace))
    gone.update(video=str(tmp_path / "deleted.mp4"), index_dir=str(tmp_path / "no-index"))
    (lone / "traces" / f"{trace['trace_id']}.json").write_text(json.dumps(gone))
    out = tmp_path / "lone.html"
    res = report(lone, out)
    assert res.exit_code == 0, res.output
    assert "warning:" in res.output and "no timeline or events" in res.output
    text = out.read_text()
    page = Page(text)
    assert page.rows["steps"] == len(trace["steps"]) and not page.attrs("img", "thumb")
    assert "Unavailable" in text and "cannot decode" in text


def test_report_in_headless_chromium(run, tmp_path):
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="playwright is not installed (pip install playwright)")
    cache, trace, n_events = run
    out = tmp_path / "report.html"
    assert report(cache, out).exit_code == 0
    requested, failed, console = [], [], []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("request", lambda r: requested.append(r.url))
            page.on("requestfailed", lambda r: failed.append(r.url))
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
            page.goto(out.as_uri())
            page.wait_for_load_state("load")
            facts = page.evaluate("""() => ({
                rows: document.querySelectorAll('#steps tbody tr').length,
                events: document.querySelectorAll('#events tbody tr').length,
                timeline: document.querySelector('#timeline').naturalWidth,
                thumbs: [...document.querySelectorAll('img.thumb')].map(i => i.naturalWidth),
                width: document.documentElement.scrollWidth})""")
            details = page.locator("#steps details").first
            pre = details.locator("pre")
            assert not pre.is_visible()
            details.locator("summary").click()
            assert pre.is_visible()
        finally:
            browser.close()
    assert failed == [] and requested == [out.as_uri()], requested
    assert not [c for c in console if c.startswith("error")], console
    assert facts["rows"] == len(trace["steps"]) and facts["events"] == n_events
    assert facts["timeline"] > 1000 and facts["thumbs"] and min(facts["thumbs"]) > 0
    assert facts["width"] <= 1280  # nothing forces a horizontal scroll
