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
source scripts/xvfb_screen.sh
start_screen "$size"
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
xdotool windowfocus "$(xdotool search --name "Dealer training" | tail -1)"; sleep 0.5
# where "Start drill" is in a window of this size (the same layout, drawn off screen)
read -r sx sy < <(QT_QPA_PLATFORM=offscreen .venv/bin/python - <<PY 2>/dev/null
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QPushButton
from dealer_assist.gui.app import MainWindow, application
from dealer_assist.gui.training_window import open_training
app = application()
main = MainWindow(); main.resize($width, $height); main.show()
window = open_training(main); window.resize($width, $height)
for _ in range(5):
    app.processEvents()
point = window.findChild(QPushButton, "start").mapTo(window, QPoint(0, 0))
button = window.findChild(QPushButton, "start")
print(point.x() + button.width() // 2, point.y() + button.height() // 2)
PY
)
tap "$sx" "$sy"                 # Start drill (10 questions, the default)
shot 4-training-question
xdotool type 1; key Return      # answer "1" (a first choice, or an amount of 1)
shot 5-training-verdict
key Return
for _ in 2 3 4 5 6 7 8 9 10; do xdotool type 1; key Return; key Return; done
shot 6-training-grade
kill "$app"; wait "$app" 2>/dev/null || true

# 3. Reconcile (Tools menu, second entry) two logs typed into the file picker
.venv/bin/python -m dealer_assist.cli gui "$data/trianta.db" >/dev/null 2>&1 &
app=$!
sleep 6
tap $((width / 2)) 60
key alt+t
key Down Return
sleep 2
xdotool type --delay 30 "\"$data/friday-table1.db\" \"$data/friday-table2.db\""
key Return
sleep 3
shot 7-reconcile
key ctrl+Next
shot 8-reconcile-second-log
kill "$app"; wait "$app" 2>/dev/null || true
echo "screen ${width}x${height}: PNGs in $out"
