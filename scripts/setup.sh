#!/usr/bin/env bash
# Create .venv in the repository root and install lvq-agent with its test tools into it.
# Idempotent: re-installs only when pyproject.toml changed since the last successful install.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PY="${PYTHON:-python3}"
STAMP="$VENV/.lvq-installed"
WANT="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"

if [ ! -x "$VENV/bin/python" ]; then
  echo "setup: creating $VENV" >&2
  "$PY" -m venv "$VENV"
fi
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  echo "setup: installing lvq-agent and its dependencies (torch 2.14.1 + torchvision 0.29.1 are large; a few minutes the first time)" >&2
  "$VENV/bin/python" -m pip install --quiet --upgrade pip >&2
  "$VENV/bin/python" -m pip install --quiet -e "$ROOT[dev]" >&2
  echo "$WANT" > "$STAMP"
fi
