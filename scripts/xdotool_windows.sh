#!/usr/bin/env bash
# Look at the touch layout in a real window under Xvfb, driven by xdotool: a Trianta Ena table
# with the banker and nine players, the training window (a drill answered, then the grade) and
# the reconcile window (two logs, through the start screen's file picker). A PNG after each.
#
#     bash scripts/xdotool_windows.sh [OUT_DIR] [WIDTHxHEIGHT]   (default /tmp/windows-xdotool 1024x600)
#
# Needs xvfb, xdotool and imagemagick (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/windows-xdotool}
size=${2:-1024x600}
width=${size%x*}
height=${size#*x}
mkdir -p "$out"
data=$(mktemp -d)
display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 "${size}x24" -dpi 96 >/dev/null 2>&1 &
xvfb=$!
export DISPLAY=$display DEALER_ASSIST_DATA=$data
app=
trap 'kill $app $xvfb 2>/dev/null || true' EXIT
sleep 1
.venv/bin/python - <<PY
import sys
sys.path.insert(0, "tests/reports")
from report_sessions import greek_session, second_session
from pathlib import Path
from dealer_assist.session.engine import Session
names = ["Maria", "Nikos", "Eleni", "Giorgos", "Sofia", "Dimitris", "Anna", "Kostas",
         "Katerina", "Yannis"]
seats = [{"name": n, "money": 300 if i == 0 else 100} for i, n in enumerate(names)]
Session.new("trianta_ena", {"min_bet": 5, "bank_multiple": 3}, seats, 1,
            path="$data/trianta.db").close()
greek_session(Path("$data/friday-table1.db"))
second_session(Path("$data/friday-table2.db"))
PY
key() { xdotool key --delay 80 "$@"; sleep 0.6; }
shot() { import -window root "$out/$1.png"; echo "$out/$1.png"; }
tap() { xdotool mousemove "$1" "$2" click 1; sleep 0.8; }

# 1. Trianta Ena, banker and nine players: the stakes, then the deal after a few taps
.venv/bin/python -m dealer_assist.cli gui "$data/trianta.db" >/dev/null 2>&1 &
app=$!
sleep 6
tap $((width / 2)) 60   # focus the window (a tap on the felt)
shot 1-trianta-10-seats
card() { xdotool type --delay 60 "$1"; key Return; }
card kh; card 2c; card 3c; card 4c  # typed cards go where the line says ("→ ...")
shot 2-trianta-10-seats-deal

# 2. Training (Tools menu, third entry): the setup, a question, the verdict, the grade
key alt+t
key Down Down Return
sleep 2
shot 3-training-setup
