#!/usr/bin/env bash
# One `create` from the CLI against the loopback sandbox, the journal on this disk against
# the same journal in tmpfs (/dev/shm): RUNS of each, alternating, each with a reference of
# its own; prints the medians and their ratio, and the fsyncs of one create (strace).
# LOAD=n runs n busy loops beside (a machine under load; the load average is printed).
#   benches/create.sh   (APP=target/release/invoice-desk RUNS=50 LOAD=)
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${APP:-target/release/invoice-desk}
RUNS=${RUNS:-50}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d -p "${DISK_DIR:-$PWD/target}")
SHM=$(mktemp -d -p /dev/shm)
. benches/sandbox.sh
BUSY=()
cleanup() { [ ${#BUSY[@]} = 0 ] || kill "${BUSY[@]}" 2>/dev/null; stop_sandbox; rm -rf "$WORK" "$SHM"; }
trap cleanup EXIT
start_sandbox
if [ -n "${LOAD:-}" ]; then
  for _ in $(seq 1 "$LOAD"); do sh -c 'while :; do :; done' & BUSY+=($!); done
fi
unset INVOICE_DESK_JOURNAL
customer=$(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log" | head -n1)
n=0
one() { # journal-folder: prints the wall time in ms
  n=$((n + 1))
  local t0=$EPOCHREALTIME
  INVOICE_DESK_JOURNAL=$1/journal.sqlite3 "$APP" create --customer "$customer" \
    --amount $((5000 + n)) --external-id "ONE-$n" >/dev/null
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f\n", (b - a) * 1000}'
}
# Each journal made and warmed once, so every timed create finds it as a clerk's does.
one "$WORK" >/dev/null
one "$SHM" >/dev/null
: >"$WORK/disk.ms"
: >"$WORK/shm.ms"
load0=$(cut -d' ' -f1 /proc/loadavg)
for _ in $(seq 1 "$RUNS"); do
  one "$WORK" >>"$WORK/disk.ms"
  one "$SHM" >>"$WORK/shm.ms"
done
median() { sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
load1=$(cut -d' ' -f1 /proc/loadavg)
disk=$(median "$WORK/disk.ms")
shm=$(median "$WORK/shm.ms")
fsyncs() {
  n=$((n + 1))
  INVOICE_DESK_JOURNAL=$1/journal.sqlite3 strace -f -c -e trace=fsync,fdatasync -o "$WORK/strace" \
    "$APP" create --customer "$customer" --amount $((5000 + n)) --external-id "ONE-$n" >/dev/null
  awk '/total/ {print $4}' "$WORK/strace"
}
range() { sort -n "$1" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%s–%s", lo, hi}'; }
echo "one create, journal on disk: median $disk ms ($(range "$WORK/disk.ms")); in tmpfs: $shm ms ($(range "$WORK/shm.ms")); ratio $(awk -v a="$disk" -v b="$shm" 'BEGIN {printf "%.2f", a / b}') (target <= 1.5), $RUNS runs each, alternating; load $load0–$load1${LOAD:+ ($LOAD busy loops beside)}"
echo "fsyncs of one create (strace -f -c): $(fsyncs "$WORK")"
