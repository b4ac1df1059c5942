#!/bin/bash
# The model builds' torch venv (docs/vision.md, "Why torch on the CPU"): the packages uv.lock
# pins for the app (so a render is the locked OpenCV's, the same file on every machine), plus
# torch's CPU build and onnx. Idempotent.
#
#   bash scripts/train_venv.sh [VENV]          # default build/train-venv
#   VENV/bin/python scripts/build_index_detector.py all ...
#
# TORCH: what pip installs for torch (default torch==2.13.0, a CPU wheel on this machine's
# local index; elsewhere e.g. TORCH="torch --index-url https://download.pytorch.org/whl/cpu").
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-build/train-venv}
export PATH="$HOME/.local/bin:$PATH"
command -v uv >/dev/null || { echo "train_venv: uv is missing: run bash scripts/setup.sh first" >&2; exit 1; }
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
mkdir -p build
uv export --frozen --no-hashes --no-dev --no-emit-project --format requirements-txt \
    -o build/train-requirements.txt >/dev/null
"$venv/bin/pip" install -q -r build/train-requirements.txt
# shellcheck disable=SC2086  # TORCH may carry options
"$venv/bin/pip" install -q ${TORCH:-torch==2.13.0} onnx
"$venv/bin/pip" install -q --no-deps -e .
"$venv/bin/python" -c "import cv2, torch; print('train_venv: torch', torch.__version__, \
'OpenCV', cv2.__version__, 'in $venv')"
