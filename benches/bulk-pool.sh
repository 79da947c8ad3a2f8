#!/usr/bin/env bash
# A billing run of 1,000 rows against the loopback sandbox with 50 ms latency,
# concurrency 8, side by side with benches/bulk_pool.py (Python requests, a pool of 8
# threads, no journal): ROUNDS alternating runs of each, each on a customer of its own
# (a run first reads its customers' listings); then the fsyncs of one more run of ours
# (strace -f -c), and one with every fsync made 5 ms slower (a slow disk, strace's
# delay injection). OLD_APP=path runs an older build beside ours in those two. LOAD=n
# runs the alternating rounds again with n busy loops beside them (a machine under
# load, as #38's own figures were taken: load 7 on 2 cores).
#   benches/bulk-pool.sh   (APP=target/release/invoice-desk ROUNDS=3 OLD_APP= LOAD=)
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${APP:-target/release/invoice-desk}
ROUNDS=${ROUNDS:-3}
OLD_APP=${OLD_APP:-}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d -p "${DISK_DIR:-$PWD/target}")
. benches/sandbox.sh
BUSY=()
cleanup() { [ ${#BUSY[@]} = 0 ] || kill "${BUSY[@]}" 2>/dev/null; stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
start_sandbox --latency-ms 50 --extra-customers 40
mapfile -t customers < <(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log")
k=0
F=
file() { # name: F becomes a file of 1,000 rows to the next unused customer
  local c=${customers[$k]}
  k=$((k + 1))
  F=$WORK/$1.csv
  { echo "cliente;monto;moneda;vencimiento;referencia"
    for i in $(seq 1 1000); do echo "$c;$((1000 + i));CLP;31-12-2026;$1-$i"; done; } >"$F"
}
wall() { # command…: prints its wall time in seconds (it must succeed)
  local t0=$EPOCHREALTIME
  "$@" >/dev/null 2>"$WORK/err" || { echo "failed: $*" >&2; tail -3 "$WORK/err" >&2; exit 1; }
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f\n", b - a}'
}
median() { sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
rate() { awk -v w="$1" 'BEGIN {printf "%.0f", 1000 / w}'; }
side_by_side() { # label: ROUNDS alternating runs of each, then one line of medians
  : >"$WORK/ours"
  : >"$WORK/python"
  for r in $(seq 1 "$ROUNDS"); do
    file "A$1$r"
    wall "$APP" bulk "$F" --yes --concurrency 8 >>"$WORK/ours"
    file "P$1$r"
    wall python3 benches/bulk_pool.py "$base" "$INVOICE_DESK_CLIENT_ID" "$INVOICE_DESK_CLIENT_SECRET" \
      "$INVOICE_DESK_AUDIENCE" "$F" 8 >>"$WORK/python"
  done
  local ours python
  ours=$(median "$WORK/ours")
  python=$(median "$WORK/python")
  echo "1,000 rows, 50 ms latency, concurrency 8, $2medians of $ROUNDS alternating: invoice-desk $ours s ($(rate "$ours")/s, journal on disk), Python pool $python s ($(rate "$python")/s): x$(awk -v a="$python" -v b="$ours" 'BEGIN {printf "%.2f", a / b}') (target >= 1.5; the ceiling at 8 requests of 50 ms is 160/s)"
}
side_by_side q ""
if [ -n "${LOAD:-}" ]; then
  for _ in $(seq 1 "$LOAD"); do sh -c 'while :; do :; done' & BUSY+=($!); done
  side_by_side l "$LOAD busy loops beside (load ~$((LOAD + 1))), "
  kill "${BUSY[@]}"
  BUSY=()
fi
fsyncs() { # app delay-us name
  local t0 t1
  file "$3"
  t0=$EPOCHREALTIME
  strace -f --seccomp-bpf -c -e trace=fsync,fdatasync -e inject=fsync,fdatasync:delay_exit="$2" \
    -o "$WORK/strace" "$1" bulk "$F" --yes --concurrency 8 >/dev/null 2>&1
  t1=$EPOCHREALTIME
  echo "$(awk '/total/ {print $4}' "$WORK/strace") fsyncs, $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.0f", 1000 / (b - a)}')/s"
}
# Not in $(…): each run takes the next customer.
fsyncs "$APP" 0 S1 >"$WORK/s1"
[ -z "$OLD_APP" ] || fsyncs "$OLD_APP" 0 S2 >"$WORK/s2"
fsyncs "$APP" 5000 D1 >"$WORK/d1"
[ -z "$OLD_APP" ] || fsyncs "$OLD_APP" 5000 D2 >"$WORK/d2"
echo "fsyncs of one run of 1,000 rows (strace -f -c): ours $(cat "$WORK/s1")${OLD_APP:+; older build $(cat "$WORK/s2")} (target <= 300)"
echo "every fsync 5 ms slower (a slow disk): ours $(cat "$WORK/d1")${OLD_APP:+; older build $(cat "$WORK/d2")}"
