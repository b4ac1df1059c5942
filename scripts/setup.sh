#!/usr/bin/env bash
# Install what the app and its tests need, idempotently, on Debian 12 with Python 3.11:
# the system libraries (libzbar0 for pyzbar, what Qt needs to open a window or run offscreen,
# Xvfb, poppler-utils, PostgreSQL for the card-room tests, the SVG card decks, xdotool and
# imagemagick for scripts/xdotool_greek31.sh), uv, and the project's locked Python environment
# (.venv).
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(
  libzbar0 libegl1 libgl1 libglib2.0-0 libfontconfig1 libdbus-1-3 libxkbcommon0
  libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0
  libxcb-render-util0 libxcb-shape0 libxcb-xinerama0 libxcb-randr0 libxcb-xkb1
  fonts-dejavu-core xvfb xauth poppler-utils xdotool imagemagick
  postgresql  # card-room server: the test suite starts a throwaway cluster of its own
  kdegames-card-data-kf5  # SVG deck designs: index-model training data and unseen-deck tests
  aisleriot  # its bonded.svgz: the fourth held-out deck design of the unseen-deck tests and benchmark
  gnome-cards-data  # aisleriot's other SVG decks: the index networks' render (--design-mix)
  # fonts the procedural training designs draw indices with (scripts/vision_data/variants.py)
  fonts-urw-base35 fonts-liberation2 fonts-freefont-ttf
)

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

install_system_packages() {
  command -v dpkg-query >/dev/null || { echo "setup: not a Debian system; install ${SYSTEM_PACKAGES[*]} yourself" >&2; return; }
  local missing=()
  for pkg in "${SYSTEM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing system packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

ensure_uv() {
  export PATH="$HOME/.local/bin:$PATH"
  command -v uv >/dev/null && return
  if ! python3 -m pip --version >/dev/null 2>&1; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-pip
  fi
  echo "setup: installing uv"
  python3 -m pip install --quiet --user --break-system-packages uv 2>/dev/null \
    || python3 -m pip install --quiet --user uv
}

install_system_packages
ensure_uv
# The distribution's Python when it is recent enough: Debian builds it with PGO and LTO, and the
# fold of a long session runs ~15 % faster on it than on a plain source build (pyenv's, say).
PYTHON=/usr/bin/python3
if ! { [ -x "$PYTHON" ] && "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; }; then
  PYTHON="$(command -v python3)"
fi
uv sync --frozen --python "$PYTHON" --quiet
