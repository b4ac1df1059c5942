#!/usr/bin/env bash
# Play one Greek 31 deal (3 players, 11 cards) in a real window under Xvfb, driven by xdotool
# keystrokes only (after one tap to focus the window), and save a PNG after each stage.
#
#     bash scripts/xdotool_greek31.sh [OUT_DIR] [WIDTHxHEIGHT]     (default /tmp/greek31-xdotool 1024x600)
#
# Needs xvfb, xdotool and imagemagick (scripts/setup.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/greek31-xdotool}
size=${2:-1024x600}
mkdir -p "$out"
source scripts/xvfb_screen.sh
start_screen "$size"
trap 'kill $app $xvfb 2>/dev/null || true' EXIT
sleep 1
.venv/bin/python - <<PY
from dealer_assist.session.engine import Session
Session.new("greek31", {"min_bet": 1, "max_bet": 10},
            [{"name": "Ann", "money": 60}, {"name": "Bea", "money": 40}, {"name": "Cy", "money": 40}],
            1, path="$data/greek31.db").close()
PY
.venv/bin/python -m dealer_assist.cli gui "$data/greek31.db" >/dev/null 2>&1 &
app=$!
sleep 6
key() { xdotool key --delay 80 "$@"; sleep 0.4; }
card() { xdotool type --delay 60 "$1"; key Return; }
shot() { import -window root "$out/$1.png"; echo "$out/$1.png"; }
width=${size%x*}
xdotool mousemove $((width / 2)) 200 click 1; sleep 0.5   # focus the window (a tap on the felt)
shot 0-start
card 9h; card 5            # Cy's first card (the line says "→ Cy"), Cy bets 5
card kd; card 4            # Bea's first card, Bea bets 4
card 2c; card 8s; card 5d  # the dealer draws three
key F2                     # Dealer stands: "Which card stays hidden?"
key Return                 # the last card (the default; a tap on another card's button hides that one)
shot 1-dealer-stood
card 3c; card 4d; card 7c  # Cy hits three times
key F2                     # Cy stands
card 2h; card 3h; card 6c  # Bea hits three times
key F2                     # Bea stands
shot 2-before-settle
key F1                     # Settle the deal: the settlement is shown
sleep 0.5
shot 3-settlement
key Return                 # Confirm settlement
sleep 0.5
shot 4-settled
kill "$app"; wait "$app" 2>/dev/null || true  # one writer: the window lets go of the log first
.venv/bin/python - <<PY
from dealer_assist.session.engine import Session
s = Session.open("$data/greek31.db")
print("rounds settled:", len(s.rounds), "money:", [seat.money for seat in s.view().seats])
PY
