#!/usr/bin/env bash
# Measures the release app next to a bare eframe window, in one run, in a real X window
# (Xvfb, software GL): start to first frame, idle CPU over 10 s, resident memory; then the
# app with 100,000 invoices loaded from its built-in sandbox.
#   benches/desktop.sh            (installs xvfb/xdotool with apt-get if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
if ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null; then
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends xvfb xauth xdotool \
    libx11-6 libx11-xcb1 libxcursor1 libxi6 libxkbcommon-x11-0 libgl1 libglx-mesa0 >/dev/null
fi
cargo build --release --locked --bin invoice-desk --example bare-window 2>&1 | tail -n 1
APP=target/release/invoice-desk
BARE=target/release/examples/bare-window
for n in $(seq 90 120); do [ -e /tmp/.X$n-lock ] || break; done
export DISPLAY=:$n
Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
WORK=$(mktemp -d)
trap 'kill $XVFB 2>/dev/null; rm -rf "$WORK"' EXIT
sleep 1
export INVOICE_DESK_TRACE=1
TICKS=$(getconf CLK_TCK)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_mb() { awk '/VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
wait_line() { # file pattern seconds
  for _ in $(seq 1 $(($3 * 20))); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  echo "timed out waiting for '$2' in $1" >&2; return 1
}
start_one() { # binary log -> pid; fresh config/data folders each time
  rm -rf "$WORK/xdg"; mkdir -p "$WORK/xdg"
  XDG_CONFIG_HOME=$WORK/xdg/c XDG_DATA_HOME=$WORK/xdg/d "$1" >"$2" 2>&1 &
  echo $!
}
first_frame_ms() { # binary -> ms from spawn to first frame
  local log=$WORK/ff.log t0 pid t1
  t0=$(date +%s%3N); pid=$(start_one "$1" "$log")
  wait_line "$log" first-frame 30
  t1=$(sed -n 's/.*first-frame unix_ms=\([0-9]*\).*/\1/p' "$log" | head -n1)
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo $((t1 - t0))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
idle() { # pid -> "cpu% rss"
  sleep 2
  local c0 c1; c0=$(cpu_ticks "$1"); sleep 10; c1=$(cpu_ticks "$1")
  echo "$(awk -v d=$((c1 - c0)) -v t="$TICKS" 'BEGIN {printf "%.1f", 100 * d / t / 10}') $(rss_mb "$1")"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -m), software GL under Xvfb"
for who in bare app; do
  bin=$BARE; [ $who = app ] && bin=$APP
  ff=$(for _ in $(seq 1 "$RUNS"); do first_frame_ms "$bin"; done | median)
  pid=$(start_one "$bin" "$WORK/$who.log"); wait_line "$WORK/$who.log" first-frame 30
  read -r cpu rss < <(idle "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  printf '%-5s first frame %5s ms (median of %s)   idle CPU %5s %%   RSS idle %4s MB\n' "$who" "$ff" "$RUNS" "$cpu" "$rss"
  eval "${who}_ff=$ff ${who}_rss=$rss"
done
awk -v a="$app_ff" -v b="$bare_ff" 'BEGIN {printf "first frame: app/bare = %.2f (target <= 1.5)\n", a / b}'
awk -v a="$app_rss" -v b="$bare_rss" 'BEGIN {printf "RSS idle:    app/bare = %.2f (target <= 1.5)\n", a / b}'

# The app with 100,000 invoices, from its in-process sandbox (which holds its own copy).
export INVOICE_DESK_SANDBOX_BIG=100000
pid=$(start_one "$APP" "$WORK/big.log"); wait_line "$WORK/big.log" first-frame 30
sleep 1
win=$(xdotool search --onlyvisible --pid "$pid" | head -n1)
xdotool windowfocus --sync "$win"
xdotool mousemove --window "$win" 549 168 click 1     # Try the sandbox
wait_line "$WORK/big.log" connected 60             # the sandbox seeds 100,000 invoices
rss_sandbox=$(rss_mb "$pid")
xdotool mousemove --window "$win" 371 40 click 1      # Customer invoices
xdotool mousemove --window "$win" 200 100 click 1     # Customer id
xdotool type --delay 20 cus_big; xdotool key Return
wait_line "$WORK/big.log" "listing " 60
sed -n 's/.*trace: \(listing .*\)/\1/p' "$WORK/big.log"
read -r cpu rss < <(idle "$pid")
kill "$pid"; wait "$pid" 2>/dev/null || true
echo "100k loaded: RSS $rss MB (before loading, with the sandbox's own 100k: $rss_sandbox MB; bare baseline $bare_rss MB), idle CPU $cpu %"
echo "  rows in the app: $((rss - rss_sandbox)) MB over the seeded sandbox (target: baseline + 150 MB for the app itself)"
