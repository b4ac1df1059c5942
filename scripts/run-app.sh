#!/usr/bin/env bash
# Start the dealer's table screen (installs what it needs first). Arguments go to `dealer-assist gui`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.local/bin:$PATH"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "run-app: no display (DISPLAY is not set). Run it on a desktop session, or for a virtual" >&2
  echo "screen: xvfb-run -s '-screen 0 1280x800x24' bash scripts/run-app.sh" >&2
  exit 2
fi
exec uv run --frozen dealer-assist gui "$@"
