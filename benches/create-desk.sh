#!/usr/bin/env bash
# What the desk's journal adds to one create from the CLI (#71: at most 5 ms): the same
# `invoice-desk create` with a local journal file and with the shared journal
# (PostgreSQL on loopback, password exchange included), against the loopback sandbox at
# --latency-ms 50, alternating within each run (local, shared), builds alternating too.
# Prints each build's medians and ranges, what the shared journal added, and the load.
#   benches/create-desk.sh [RUNS] [SERIES]   (APP=target/release/invoice-desk, BEFORE=another build)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-21}
SERIES=${2:-3}
APP=$(realpath "${APP:-target/release/invoice-desk}")
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
apps=("$APP")
[ -n "${BEFORE:-}" ] && apps+=("$(realpath "$BEFORE")")
WORK=$(mktemp -d)
. benches/sandbox.sh
. benches/pg.sh
start_pg 50
start_sandbox --latency-ms 50
unset INVOICE_DESK_JOURNAL
export INVOICE_DESK_JOURNAL_PASSWORD=bench-pw LANG=C.UTF-8
customer=$(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log" | head -n1)
psql_pg -d postgres -c "CREATE DATABASE creates"
shared="postgres://postgres@127.0.0.1:$PORT/creates"
ms() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
range() { sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%d–%d", lo / 1000, hi / 1000}'; }
n=0
for series in $(seq 1 "$SERIES"); do
  load0=$(cut -d' ' -f1 /proc/loadavg)
  for _ in $(seq 1 "$RUNS"); do
    for k in "${!apps[@]}"; do
      n=$((n + 1))
      # Amounts of their own: a create like an earlier one needs --allow-similar.
      t0=$(ms)
      INVOICE_DESK_JOURNAL=$WORK/local$k.sqlite3 "${apps[$k]}" create --customer "$customer" \
        --amount $((100000 + 2 * n)) --external-id "L-$n" >/dev/null
      t1=$(ms)
      INVOICE_DESK_JOURNAL=$shared "${apps[$k]}" create --customer "$customer" \
        --amount $((100001 + 2 * n)) --external-id "S-$n" >/dev/null
      t2=$(ms)
      echo $(((t1 - t0) / 1000)) >>"$WORK/local.$series.$k"
      echo $(((t2 - t1) / 1000)) >>"$WORK/shared.$series.$k"
    done
  done
  load1=$(cut -d' ' -f1 /proc/loadavg)
  for k in "${!apps[@]}"; do
    l=$(median <"$WORK/local.$series.$k"); s=$(median <"$WORK/shared.$series.$k")
    echo "series $series, ${apps[$k]}: local $((l / 1000)) ms ($(range <"$WORK/local.$series.$k")), shared $((s / 1000)) ms ($(range <"$WORK/shared.$series.$k")), added $(((s - l) / 1000)) ms (target <= 5); $RUNS of each, load $load0–$load1"
  done
done
