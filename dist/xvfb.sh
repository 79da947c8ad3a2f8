# shellcheck shell=bash
# Sourced by the scripts that need an X display (dist/smoke-test.sh, benches/desktop.sh,
# benches/spinner-cpu.sh): start_xvfb DIR starts Xvfb (1280x800, no TCP) on a free display,
# waits until it accepts connections, exports DISPLAY and sets XVFB to its pid. Xvfb's own
# output goes to DIR/xvfb.log. On failure it says why on stderr and returns 1.
# press_key (below) sends keys to a window.
# Xvfb picks the display itself and writes its number to fd 3 only once it is ready: a
# fixed display number or a fixed sleep raced a slow or busy CI machine.
# -noreset: by default Xvfb resets when its last client leaves (here, the readiness check
# below), and a client that connects during the reset is dropped: CI's smoke test once
# failed so ("Failed to open connection to X server"). Four clients connecting in a loop
# lost 80 of 1,200 connects without it, none with it.
start_xvfb() {
  local dir=$1
  Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp -noreset 3>"$dir/display" >"$dir/xvfb.log" 2>&1 &
  XVFB=$!
  for _ in $(seq 1 300); do
    grep -q '^[0-9][0-9]*$' "$dir/display" 2>/dev/null && break
    if ! kill -0 "$XVFB" 2>/dev/null; then
      echo "Xvfb exited before it was ready:" >&2; tail -n 20 "$dir/xvfb.log" >&2; return 1
    fi
    sleep 0.1
  done
  if ! grep -q '^[0-9][0-9]*$' "$dir/display"; then
    echo "Xvfb was not ready within 30 s" >&2; return 1
  fi
  DISPLAY=:$(head -n1 "$dir/display")
  export DISPLAY
  if ! xdotool getdisplaygeometry >/dev/null; then
    echo "no connection to Xvfb on $DISPLAY" >&2; return 1
  fi
}

# press_key WINDOW KEYS: focuses WINDOW and sends it KEYS. A key that closes its window
# (Ctrl+Q, an installer's last Return) can close it before xdotool sends the key's
# release; xdotool then fails with BadWindow (CI's .deb check once failed so). Only a
# failure while the window is still there is one.
press_key() {
  xdotool windowfocus --sync "$1" 2>/dev/null || true
  xdotool key --window "$1" "$2" 2>/dev/null && return 0
  if xdotool getwindowname "$1" >/dev/null 2>&1; then
    echo "xdotool could not send $2 to window $1" >&2; return 1
  fi
}
