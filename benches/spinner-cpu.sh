#!/usr/bin/env bash
# CPU the app uses while it only waits, measured from /proc over 3 s under Xvfb with
# software GL, in % of one core: idle; with the keyboard focus in a text field (a blinking
# cursor would repaint); with a spinner on screen (a lookup answered after 8 s, the in-app
# sandbox's latency knob).
#   benches/spinner-cpu.sh [path/to/invoice-desk]   (default: target/release/invoice-desk)
set -euo pipefail
APP=${1:-target/release/invoice-desk}
WORK=$(mktemp -d)
APP_PID=
XVFB=
cleanup() { [ -n "$APP_PID" ] && kill "$APP_PID" 2>/dev/null; [ -n "$XVFB" ] && kill "$XVFB" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
. "$(dirname "$0")/../dist/xvfb.sh"
start_xvfb "$WORK" || exit 1
HOME=$WORK XDG_CONFIG_HOME=$WORK/config XDG_DATA_HOME=$WORK/data LANG=en_US.UTF-8 "$APP" >"$WORK/app.log" 2>&1 &
APP_PID=$!
sleep 4
win=$(xdotool search --onlyvisible --pid "$APP_PID" | head -n1)
xdotool windowfocus --sync "$win"
xdotool mousemove 549 167 click 1   # Try the sandbox
sleep 4
port=$(ss -ltnp | grep "pid=$APP_PID," | grep -o '127.0.0.1:[0-9]*' | head -n1 | cut -d: -f2)
[ -n "$port" ] || { echo "no sandbox port found" >&2; exit 1; }
ticks() { awk '{print $14 + $15}' "/proc/$APP_PID/stat"; }
hz=$(getconf CLK_TCK)
cpu() { # what: three windows of 2 s, their median and range in % of one core, the load
  local t0 t1 all=()
  for _ in 1 2 3; do
    t0=$(ticks); sleep 2; t1=$(ticks)
    all+=("$(( (t1 - t0) * 100 / (2 * hz) ))")
  done
  printf '%s\n' "${all[@]}" | sort -n | awk -v what="$1" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    '{v[NR] = $1} END {printf "%s: %d %% of one core (%d–%d, three windows of 2 s), load %s\n", what, v[2], v[1], v[3], load}'
}
cpu idle
xdotool key ctrl+l                  # Lookup's field
sleep 1
cpu "a focused text field"
curl -s -X POST -H 'content-type: application/json' -d '{"latency_ms": 8000}' \
  "http://127.0.0.1:$port/admin/knobs" >/dev/null
xdotool type in_waiting
xdotool key Return
sleep 1
cpu "waiting with a spinner"
import -window root "$WORK/shot.png" 2>/dev/null && cp "$WORK/shot.png" /tmp/spinner-shot.png || true
