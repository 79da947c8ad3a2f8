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
t0=$(ticks); sleep 3; t1=$(ticks)
echo "idle: $(( (t1 - t0) * 100 / (3 * hz) )) % of one core ($((t1 - t0)) ticks in 3 s)"
xdotool key ctrl+f
sleep 1
t0=$(ticks); sleep 3; t1=$(ticks)
echo "a focused text field: $(( (t1 - t0) * 100 / (3 * hz) )) % of one core ($((t1 - t0)) ticks in 3 s)"
curl -s -X POST -H 'content-type: application/json' -d '{"latency_ms": 8000}' \
  "http://127.0.0.1:$port/admin/knobs" >/dev/null
xdotool type in_waiting
xdotool key Return
sleep 1
t0=$(ticks); sleep 3; t1=$(ticks)
echo "waiting with a spinner: $(( (t1 - t0) * 100 / (3 * hz) )) % of one core ($((t1 - t0)) ticks in 3 s)"
import -window root "$WORK/shot.png" 2>/dev/null && cp "$WORK/shot.png" /tmp/spinner-shot.png || true
