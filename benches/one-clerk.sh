#!/usr/bin/env bash
# One clerk's billing run on the desk's shared journal (PostgreSQL on loopback) against
# the same run on a local journal file: the same 1,000-row file at --concurrency C
# against the sandbox at --latency-ms 50, alternating local, shared, local, shared…
# (ROUNDS of each, at least 3), each on a fresh journal (a fresh database) with
# references and amounts of its own. Prints each side's median rows/s and range, the
# ratio shared ÷ local, and the load before and after.
# LOAD=n runs n busy loops beside it all (an office computer doing other things: the
# shared side's round trips to the server are what a busy CPU delays).
#   benches/one-clerk.sh [C]   (APP=target/release/invoice-desk ROUNDS=3 ROWS=1000 LOAD=0)
set -euo pipefail
cd "$(dirname "$0")/.."
C=${1:-16}
ROUNDS=${ROUNDS:-3}
ROWS=${ROWS:-1000}
VERBOSE=${VERBOSE:-}
APP=$(realpath "${APP:-target/release/invoice-desk}")
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d)
. benches/sandbox.sh
. benches/pg.sh
start_pg 50
start_sandbox --latency-ms 50
BUSY=()
trap '[ ${#BUSY[@]} = 0 ] || kill "${BUSY[@]}" 2>/dev/null; cleanup' EXIT
for _ in $(seq 1 "${LOAD:-0}"); do
  (while :; do :; done) &
  BUSY+=($!)
done
export INVOICE_DESK_JOURNAL_PASSWORD=bench-pw LANG=C.UTF-8
customer=$(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log" | head -n1)
ms() { date +%s%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
range() { sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%s–%s", lo, hi}'; }
load0=$(cut -d' ' -f1 /proc/loadavg)
for r in $(seq 1 "$ROUNDS"); do
  for side in local shared; do
    n=$([ "$side" = local ] && echo 1 || echo 2)
    { echo "cliente;monto;referencia"
      for i in $(seq 1 "$ROWS"); do echo "$customer;$((n * 1000000 + r * 10000 + i));C$side-$r-$i"; done; } >"$WORK/rows.csv"
    if [ "$side" = local ]; then
      journal=$WORK/local-$r.sqlite3
    else
      psql_pg -d postgres -c "CREATE DATABASE one_$r"
      journal="postgres://postgres@127.0.0.1:$PORT/one_$r"
    fi
    t0=$(ms)
    INVOICE_DESK_JOURNAL=$journal "$APP" bulk "$WORK/rows.csv" --yes --concurrency "$C" >"$WORK/out" 2>&1
    [ -z "$VERBOSE" ] || grep -v "^ *$" "$WORK/out" | grep -iv created | head -n 3
    t1=$(ms)
    created=$(sed -n 's/^\([0-9,]*\) created,.*/\1/p' "$WORK/out" | tr -d ,)
    [ "$created" = "$ROWS" ] || { echo "$side, round $r: created '$created' of $ROWS" >&2; cat "$WORK/out" >&2; exit 1; }
    awk -v d=$((t1 - t0)) -v n="$ROWS" 'BEGIN {printf "%.1f\n", n / (d / 1e9)}' >>"$WORK/$side.rate"
    [ -z "$VERBOSE" ] || echo "  $side round $r: $(tail -n1 "$WORK/$side.rate") rows/s"
  done
done
l=$(median <"$WORK/local.rate"); s=$(median <"$WORK/shared.rate")
echo "one clerk, $ROWS rows at C = $C, 50 ms a request, $ROUNDS rounds alternating, ${LOAD:-0} busy loops (load $load0–$(cut -d' ' -f1 /proc/loadavg)):"
echo "  local journal  $l rows/s ($(range <"$WORK/local.rate"))"
echo "  shared journal $s rows/s ($(range <"$WORK/shared.rate"))"
echo "  shared ÷ local x$(awk -v a="$s" -v b="$l" 'BEGIN {printf "%.2f", a / b}') (target >= 0.85)"
