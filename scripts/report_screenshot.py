"""Make a sample run's HTML report and screenshot it in headless Chromium (docs/report.png).

Builds a 60-second video with a flicker burst over a real clip (bench.synth), asks the
local brain to describe the flicker (it zooms in, so the report has frames), writes the
report with `agent report`, and photographs the page with Playwright driving Debian's
chromium (`apt-get install chromium`; no browser is downloaded).

    python scripts/report_screenshot.py [-o docs/report.png] [--keep DIR] [--full-page]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
QUESTION = "Describe the flicker in this video."


def make_report(work: Path) -> Path:
    """A real run on a fresh sample video; returns the written report."""
    from agent import api
    from bench.synth import make_video, needle

    video = work / "flicker-sample.mp4"
    make_video(video, 60.0, width=640, height=360, seed=11,
               needles=[needle("flicker", 2, 4.0, 16.0)], preset="ultrafast")
    cache = work / "cache"
    ans = api.answer(video, QUESTION, cache_dir=cache, progress=False)
    report = work / "report.html"
    # the command itself, as a user runs it
    subprocess.run([sys.executable, "-m", "agent.cli", "report", ans.trace_id, "-o",
                    str(report), "--cache-dir", str(cache)], check=True)
    return report


def screenshot(report: Path, output: Path, full_page: bool = True) -> dict:
    """Open the report in headless Chromium and save a PNG; returns what the page loaded."""
    from playwright.sync_api import sync_playwright

    requests: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900},
                                device_scale_factor=1)
        page.on("request", lambda r: requests.append(r.url))
        page.goto(report.resolve().as_uri())
        page.wait_for_load_state("load")
        # open the first zoom's arguments so the picture shows what expands
        page.evaluate("document.querySelector('#steps details')?.setAttribute('open', '')")
        page.screenshot(path=str(output), full_page=full_page)
        facts = page.evaluate("""() => ({
            steps: document.querySelectorAll('#steps tbody tr').length,
            thumbs: document.querySelectorAll('img.thumb').length,
            timeline: document.querySelector('#timeline')?.naturalWidth || 0})""")
        browser.close()
    facts["requests"] = [u for u in requests if not u.startswith(("file:", "data:"))]
    return facts


def main() -> None:
    """Build, report, photograph."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", type=Path, default=Path("docs/report.png"))
    ap.add_argument("--keep", type=Path, help="Also copy the report HTML here.")
    ap.add_argument("--viewport-only", action="store_true", help="Only the first screen.")
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"error: {CHROMIUM} is missing: apt-get install chromium")
    with tempfile.TemporaryDirectory(prefix="lvq-shot-") as tmp:
        report = make_report(Path(tmp))
        facts = screenshot(report, args.output, full_page=not args.viewport_only)
        if args.keep:
            shutil.copy(report, args.keep)
    print(f"wrote {args.output}: {facts}")


if __name__ == "__main__":
    main()
