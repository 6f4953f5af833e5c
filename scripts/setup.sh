#!/usr/bin/env bash
# Create .venv in the repository root and install lvq-agent with every extra into it: the demo
# and the tests need CLIP retrieval ([clip]: torch, open_clip, faiss), the benchmark's
# open-answer scorers ([bench]), Ray ([ray]) and the test tools ([dev]). LVQ_EXTRAS overrides the list.
# Idempotent: re-installs only when pyproject.toml changed since the last successful install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"
STAMP="$VENV/.lvq-installed"
EXTRAS="${LVQ_EXTRAS:-dev,clip,bench,ray}"
WANT="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1) $EXTRAS"

if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV" >&2
  "$PY" -m venv "$VENV"
fi
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  echo "setup: installing lvq-agent[$EXTRAS] (torch 2.14.1 + torchvision 0.29.1 are large; a few minutes the first time)" >&2
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
  "$VENV/bin/python" -m pip install --quiet -e "$ROOT[$EXTRAS]" >&2
  echo "$WANT" > "$STAMP"
fi
