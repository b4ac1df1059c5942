#!/usr/bin/env bash
# Run the whole test suite (installs what it needs first). Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.local/bin:$PATH"
export QT_QPA_PLATFORM=offscreen
uv run --frozen ruff check .
uv run --frozen pytest "$@"
