"""The HTML report's inline style sheet (one page, no external fonts, prints well)."""

CSS = """
:root { --ink: #1d2330; --muted: #5b6474; --line: #dde1e8; --soft: #f5f7fa;
        --accent: #1f5fbf; --good: #2e7d32; --bad: #c62828; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
       sans-serif; color: var(--ink); background: #fff; }
main { max-width: 1240px; margin: 0 auto; padding: 20px 28px 40px; }
header { border-bottom: 2px solid var(--ink); padding-bottom: 10px; margin-bottom: 18px; }
header h1 { font-size: 20px; margin: 0 0 4px; }
.meta { color: var(--muted); font-size: 12.5px; }
.meta span + span::before { content: "  \\00b7  "; white-space: pre; }
h2 { font-size: 16px; margin: 28px 0 10px; padding-bottom: 4px;
     border-bottom: 1px solid var(--line); }
h2 small { font-weight: normal; color: var(--muted); font-size: 12.5px; margin-left: 6px; }
.qa { display: grid; grid-template-columns: 1fr; gap: 10px; }
.question { font-size: 17px; font-weight: 600; }
.options { margin: 4px 0 0 0; padding-left: 22px; color: var(--muted); }
.options li.chosen { color: var(--good); font-weight: 600; }
.answer { background: var(--soft); border-left: 4px solid var(--good); padding: 12px 16px;
          border-radius: 4px; }
.answer.failed { border-left-color: var(--bad); }
.answer p { margin: 0 0 8px; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
.chip { background: #e7f1e8; border: 1px solid #b9d8bc; border-radius: 12px;
        padding: 1px 10px; font-size: 12.5px; white-space: nowrap; }
.figures { color: var(--muted); font-size: 12.5px; }
.figures b { color: var(--ink); font-weight: 600; }
img.timeline { width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px;
         border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; position: sticky; top: 0; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.what { white-space: nowrap; font-weight: 600; }
tr.brain td { color: var(--muted); }
tr.brain td.what { font-weight: normal; }
tr.graph td { color: #8a5a00; }
tr.error td { background: #fdecea; }
details > summary { cursor: pointer; color: var(--ink); list-style-position: inside; }
details > summary code { white-space: pre-wrap; word-break: break-word; }
details[open] > summary { color: var(--accent); }
pre { margin: 6px 0 2px; padding: 8px; background: var(--soft); border-radius: 4px;
      max-height: 320px; overflow: auto; white-space: pre-wrap; word-break: break-word;
      font-size: 12px; }
code { font: 12px/1.4 ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
.sev { display: inline-block; min-width: 44px; padding: 0 6px; border-radius: 3px;
       color: #fff; text-align: center; font-size: 12px; }
.groups { display: grid; gap: 14px; }
.group h3 { font-size: 13.5px; margin: 0 0 6px; }
.strip { display: flex; flex-wrap: wrap; gap: 10px; }
figure { margin: 0; }
figure img { display: block; height: 150px; width: auto; border: 1px solid var(--line);
             border-radius: 3px; background: #000; }
figcaption { font-size: 12px; color: var(--muted); text-align: center; margin-top: 2px; }
.note { color: var(--muted); font-style: italic; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px;
         border-top: 1px solid var(--line); padding-top: 8px; }
@media print { details { display: block; } th { position: static; } }
"""
