# Sourced by the xdotool scripts: a private Xvfb screen and a fresh data folder for the app.
#     start_screen 1024x600   sets data, display, xvfb (its pid) and exports DISPLAY and
#                             DEALER_ASSIST_DATA; the caller kills $xvfb when it ends
start_screen() {
  data=$(mktemp -d)
  display=:$((90 + RANDOM % 100))
  Xvfb "$display" -screen 0 "${1}x24" -dpi 96 >/dev/null 2>&1 &
  xvfb=$!
  export DISPLAY=$display DEALER_ASSIST_DATA=$data
}
