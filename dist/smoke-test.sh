#!/usr/bin/env bash
# Smoke test of the built app in a real X window (Xvfb, software GL): start it with fresh
# settings, press "Try the sandbox", wait for the window and the connection, take a
# screenshot, check it is not blank, quit with Ctrl+Q and check the exit is clean.
#   dist/smoke-test.sh [path/to/invoice-desk]     (default: target/release/invoice-desk)
# Installs xvfb, xdotool, imagemagick and the X11/GL runtime libraries with apt-get if
# they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${1:-target/release/invoice-desk}
[ -x "$APP" ] || { echo "smoke test: $APP is not built (cargo build --release)" >&2; exit 1; }
if ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null || [ ! -x /usr/bin/convert ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends xvfb xauth xdotool imagemagick \
    libx11-6 libx11-xcb1 libxcursor1 libxi6 libxrandr2 libxkbcommon-x11-0 libgl1 libglx-mesa0 libegl1 libgl1-mesa-dri >/dev/null
fi
WORK=$(mktemp -d)
APP_PID=
XVFB=
cleanup() { [ -n "$APP_PID" ] && kill "$APP_PID" 2>/dev/null; [ -n "$XVFB" ] && kill "$XVFB" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
fail() {
  echo "SMOKE TEST FAILED: $*" >&2
  [ -s "$WORK/app.log" ] && { echo "--- the app's last lines:" >&2; tail -n 20 "$WORK/app.log" >&2; }
  [ -s "$WORK/xvfb.log" ] && { echo "--- Xvfb's last lines:" >&2; tail -n 20 "$WORK/xvfb.log" >&2; }
  exit 1
}
. dist/xvfb.sh
start_xvfb "$WORK" || fail "no X display"

XDG_CONFIG_HOME=$WORK/config XDG_DATA_HOME=$WORK/data INVOICE_DESK_TRACE=1 "$APP" >"$WORK/app.log" 2>&1 &
APP_PID=$!
win=
for _ in $(seq 1 300); do
  win=$(xdotool search --onlyvisible --pid "$APP_PID" 2>/dev/null | head -n1 || true)
  [ -n "$win" ] && grep -q first-frame "$WORK/app.log" && break
  kill -0 "$APP_PID" 2>/dev/null || fail "the app exited before showing a window"
  sleep 0.1
done
[ -n "$win" ] || fail "no window within 30 s"
xdotool windowfocus --sync "$win"
sleep 0.5
xdotool mousemove --window "$win" 549 168 click 1          # "Try the sandbox" on the first screen
for _ in $(seq 1 300); do grep -q "trace: connected" "$WORK/app.log" && break; sleep 0.1; done
grep -q "trace: connected" "$WORK/app.log" || fail "the built-in sandbox did not connect"
sleep 1
shot=${SMOKE_SHOT:-$WORK/smoke.png}
import -window root "$shot"
colors=$(/usr/bin/convert "$shot" -format '%k' info:)
spread=$(/usr/bin/convert "$shot" -colorspace Gray -format '%[fx:standard_deviation]' info:)
echo "screenshot: $colors colours, grey standard deviation $spread"
[ "$colors" -gt 20 ] || fail "the screenshot is blank ($colors colours)"
press_key "$win" ctrl+q
for _ in $(seq 1 50); do kill -0 "$APP_PID" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$APP_PID" 2>/dev/null; then fail "Ctrl+Q did not close the app"; fi
set +e; wait "$APP_PID"; code=$?; set -e
APP_PID=
[ "$code" -eq 0 ] || fail "the app exited with code $code"
echo "smoke test passed: window shown, sandbox connected, screenshot not blank, clean exit"
