#!/usr/bin/env bash
# The shared journal (PostgreSQL on loopback) against the local SQLite file, with the
# loopback sandbox at --latency-ms 50:
#  - one create, median of N runs of the CLI, local journal vs shared journal;
#  - a 1,000-row billing run at --concurrency 8 run by 1, 2 and 4 processes at once on
#    one shared journal (a fresh database each time): wall time until all end, the rate,
#    and each row issued once (the processes' "created" counts add up to 1,000).
# Starts a throwaway PostgreSQL cluster of its own (as the postgres user when run as root).
#   benches/shared-journal.sh [N]   (APP=target/release/invoice-desk ROUNDS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-21}
APP=$(realpath "${APP:-target/release/invoice-desk}")
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d)
. benches/sandbox.sh
. benches/pg.sh
start_pg 50
db() { psql_pg -d postgres -c "CREATE DATABASE $1"; }
start_sandbox --latency-ms 50
unset INVOICE_DESK_JOURNAL
export INVOICE_DESK_JOURNAL_PASSWORD=bench-pw LANG=C.UTF-8
customer=$(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log" | head -n1)
ms() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

db creates
shared="postgres://postgres@127.0.0.1:$PORT/creates"
local_j="$WORK/local.sqlite3"
for i in $(seq 1 "$N"); do # alternate: local, shared
  t0=$(ms); INVOICE_DESK_JOURNAL=$local_j "$APP" create --customer "$customer" --amount $((5000 + i)) --external-id "L-$i" >/dev/null; t1=$(ms)
  INVOICE_DESK_JOURNAL=$shared "$APP" create --customer "$customer" --amount $((7000 + i)) --external-id "S-$i" >/dev/null; t2=$(ms)
  echo $(((t1 - t0) / 1000)) >>"$WORK/local.us"; echo $(((t2 - t1) / 1000)) >>"$WORK/shared.us"
done
l=$(median <"$WORK/local.us"); s=$(median <"$WORK/shared.us")
range_ms() { sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%d–%d", lo / 1000, hi / 1000}'; }
echo "one create (CLI process, token and journal included), median of $N alternating (load $(cut -d' ' -f1 /proc/loadavg)): local journal $((l / 1000)) ms ($(range_ms <"$WORK/local.us")), shared journal $((s / 1000)) ms ($(range_ms <"$WORK/shared.us")), added $(((s - l) / 1000)) ms (target <= 5 ms)"

# The journal's own part of a create in a running program (the app, a billing run): no
# process start, no connection set-up.
CLAIM=$(dirname "$APP")/examples/journal-claim
if [ ! -x "$CLAIM" ]; then
  # An APP from elsewhere (another build to compare) has no example beside it.
  cargo build --release --locked --example journal-claim 2>&1 | tail -n 1
  CLAIM=${CARGO_TARGET_DIR:-target}/release/examples/journal-claim
fi
db claims
read -r lmed lp90 < <("$CLAIM" "$WORK/claims.sqlite3" 300)
read -r smed sp90 < <("$CLAIM" "postgres://postgres@127.0.0.1:$PORT/claims" 300)
echo "the journal's part of one create in a running program (claim + outcome), median of 300: local $(awk -v u="$lmed" 'BEGIN {printf "%.2f", u / 1000}') ms (p90 $(awk -v u="$lp90" 'BEGIN {printf "%.2f", u / 1000}')), shared $(awk -v u="$smed" 'BEGIN {printf "%.2f", u / 1000}') ms (p90 $(awk -v u="$sp90" 'BEGIN {printf "%.2f", u / 1000}')), added $(awk -v a="$smed" -v b="$lmed" 'BEGIN {printf "%.2f", (a - b) / 1000}') ms (target <= 5 ms)"

# Each configuration ROUNDS times (at least 3), the three alternating, each run on a fresh
# database with references and amounts of its own.
ROUNDS=${ROUNDS:-3}
load0=$(cut -d' ' -f1 /proc/loadavg)
for r in $(seq 1 "$ROUNDS"); do
  for procs in 1 2 4; do
    { echo "cliente;monto;referencia"
      for i in $(seq 1 1000); do echo "$customer;$((procs * 100000 + r * 10000 + i));RUN$procs-$r-$i"; done; } >"$WORK/1k.csv"
    db "run${procs}_$r"
    url="postgres://postgres@127.0.0.1:$PORT/run${procs}_$r"
    t0=$(ms)
    pids=()
    for p in $(seq 1 "$procs"); do
      INVOICE_DESK_JOURNAL=$url USER="clerk$p" "$APP" bulk "$WORK/1k.csv" --yes --concurrency 8 \
        >"$WORK/out.$procs.$p" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}" || true
    t1=$(ms)
    created=$(cat "$WORK"/out."$procs".* | sed -n 's/^\([0-9,]*\) created,.*/\1/p' | tr -d , | awk '{s += $1} END {print s}')
    [ "$created" = 1000 ] || { echo "$procs process(es), round $r: created $created of 1000" >&2; exit 1; }
    awk -v d=$((t1 - t0)) 'BEGIN {printf "%.2f\n", d / 1e9}' >>"$WORK/run$procs.s"
  done
done
echo "1,000 rows on one shared journal, medians and ranges of $ROUNDS rounds, alternating (load $load0–$(cut -d' ' -f1 /proc/loadavg)); every run created each row once:"
rate1=
for procs in 1 2 4; do
  wall=$(median <"$WORK/run$procs.s")
  range=$(sort -g "$WORK/run$procs.s" | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%s–%s", lo, hi}')
  rate=$(awk -v w="$wall" 'BEGIN {printf "%.0f", 1000 / w}')
  [ -z "$rate1" ] && rate1=$rate
  echo "  $procs process(es): $wall s ($range), $rate invoices/s (x$(awk -v a="$rate" -v b="$rate1" 'BEGIN {printf "%.2f", a / b}') one process)"
done
