#!/usr/bin/env bash
# Fresh machine to first answer: install into .venv, make a 3-minute sample video from real
# clips with a flicker burst at 01:00-01:15, index it, and ask the agent (local brain: no
# network, no model weights) when the flicker occurs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup.sh"
cd "$ROOT"
mkdir -p demo
VIDEO=demo/sample.mp4
if [ ! -f "$VIDEO" ]; then
  echo "demo: making $VIDEO (real clips + procedural scenes, flicker 60-75 s) ..." >&2
  .venv/bin/python -m bench.synth "$VIDEO" --duration 180 --seed 11 \
    --needle flicker:2:60:75 > demo/sample.json
fi
.venv/bin/agent index "$VIDEO"
.venv/bin/agent answer "$VIDEO" "When does flicker occur?"
.venv/bin/agent trace plot last -o demo/trace.png
echo "demo: trace plot written to demo/trace.png" >&2
