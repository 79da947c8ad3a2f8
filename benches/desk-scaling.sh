#!/usr/bin/env bash
# How the desk scales: N clerks (N processes, each at --concurrency 4, the default) run
# one shared 2,000-row billing file at once on one shared journal (PostgreSQL on
# loopback), against the loopback sandbox at --latency-ms 20. For each N: the wall time
# until all end, the rate (and its ratio to one clerk), the creates' p99 on the server's
# clock (intent to outcome, journal included), and the duplicates (references issued
# twice, from the sandbox's own count of creates received and the journal's invoice
# ids: must be 0).
# Each N is run SERIES times, the Ns alternating (1 2 4 … 32, then again), a fresh
# database each time; medians and min–max are printed with the load average beside them.
#   benches/desk-scaling.sh [SERIES] [NS]   (APP=target/release/invoice-desk)
#   e.g. benches/desk-scaling.sh 3 "1 2 4 8 16 32"
set -euo pipefail
cd "$(dirname "$0")/.."
SERIES=${1:-3}
NS=${2:-1 2 4 8 16 32}
ROWS=${ROWS:-2000}
APP=$(realpath "${APP:-target/release/invoice-desk}")
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d)
. benches/sandbox.sh
. benches/pg.sh
start_pg 100
unset INVOICE_DESK_JOURNAL
export INVOICE_DESK_JOURNAL_PASSWORD=bench-pw LANG=C.UTF-8
ms() { date +%s%N; }

run=0
results="$WORK/results"
for series in $(seq 1 "$SERIES"); do
  for n in $NS; do
    run=$((run + 1))
    # A fresh sandbox each run: every clerk first reads the service's listing of the
    # file's customers, which must not grow from run to run (that would be measured
    # instead of the journal).
    stop_sandbox
    start_sandbox --latency-ms 20
    mapfile -t customers < <(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log")
    # Fresh references each run: every run issues ROWS new invoices.
    { echo "cliente;monto;referencia"
      for i in $(seq 1 "$ROWS"); do
        echo "${customers[$((i % ${#customers[@]}))]};$((run * 100000 + i));D$run-$i"
      done; } >"$WORK/month.csv"
    psql_pg -d postgres -c "CREATE DATABASE run$run" >/dev/null
    url="postgres://postgres@127.0.0.1:$PORT/run$run"
    # The layout first (as `journal init` would), so the clerks start together.
    INVOICE_DESK_JOURNAL=$url "$APP" journal verify >/dev/null
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(ms)
    pids=()
    for p in $(seq 1 "$n"); do
      INVOICE_DESK_JOURNAL=$url USER="clerk$p" "$APP" bulk "$WORK/month.csv" --yes \
        >"$WORK/out.$run.$p" 2>&1 &
      pids+=($!)
    done
    wait "${pids[@]}" || true
    t1=$(ms)
    created=$(cat "$WORK"/out."$run".* | sed -n 's/^\([0-9,]*\) created,.*/\1/p' | tr -d , |
      awk '{s += $1} END {print s + 0}')
    # Issued twice, counted two ways: the creates the service received (a fresh sandbox
    # each run: more than the rows means a reference was sent again), and references the
    # journal says became two different invoices. An intent settled twice (its writer's
    # answer after a colleague's check found the same invoice) is shown apart: not a
    # second invoice.
    sent=$(curl -s "$base/admin/state" | python3 -c 'import json, sys; print(json.load(sys.stdin)["counters"]["api"].get("create", 0))')
    twice=$(psql_pg -d "run$run" -c "SELECT count(*) FROM (SELECT i.external_id FROM entries i
      JOIN entries o ON o.intent_seq = i.seq AND o.outcome = 'done' WHERE i.action = 'create'
      GROUP BY i.external_id HAVING count(DISTINCT o.invoice_id) > 1) t")
    twice=$((twice + (sent > ROWS ? sent - ROWS : 0)))
    settled=$(psql_pg -d "run$run" -c "SELECT count(*) FROM (SELECT o.intent_seq FROM entries o
      WHERE o.outcome = 'done' GROUP BY o.intent_seq HAVING count(*) > 1) t")
    p99=$(psql_pg -d "run$run" -c "SELECT round(1000 * extract(epoch FROM
      percentile_cont(0.99) WITHIN GROUP (ORDER BY o.server_time - i.server_time)))
      FROM entries i JOIN entries o ON o.intent_seq = i.seq
      WHERE i.action = 'create' AND o.outcome = 'done'")
    if [ "$created" -lt "$ROWS" ]; then
      echo "not every row was created; what clerk 1 said:" >&2
      tail -n 5 "$WORK/out.$run.1" >&2
      # And why, from the support log the clerks write (the journal's own words).
      echo "the support log's last warnings:" >&2
      grep -h -i "warn\|error" "$WORK"/logs/*.log 2>/dev/null | tail -n 5 >&2 || true
    fi
    wall=$(awk -v d=$((t1 - t0)) 'BEGIN {printf "%.3f", d / 1e9}')
    rate=$(awk -v w="$wall" -v r="$ROWS" 'BEGIN {printf "%.1f", r / w}')
    echo "$n $rate ${p99:-0} $created $twice $load" >>"$results"
    echo "series $series, $n clerk(s): $wall s, $rate rows/s, create p99 ${p99} ms, created $created of $ROWS (the service received $sent), twice $twice, settled twice $settled, load $load" >&2
  done
done

echo
echo "$ROWS rows shared by N clerks (each --concurrency 4), sandbox latency 20 ms, $SERIES series alternating"
python3 - "$results" "$NS" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
ns = sys.argv[2].split()
def med(v): return statistics.median(v)
one = med([float(r[1]) for r in rows if r[0] == "1"]) if any(r[0] == "1" for r in rows) else None
print(f"{'N':<4} {'rows/s median (min-max)':<26} {'x 1 clerk':<10} {'p99 ms median (max)':<20} {'created':<12} {'twice':<6} load median (min-max)")
for n in ns:
    mine = [r for r in rows if r[0] == n]
    rate = [float(r[1]) for r in mine]; p99 = [float(r[2] or 0) for r in mine]
    created = [int(r[3]) for r in mine]; twice = sum(int(r[4]) for r in mine); load = [float(r[5]) for r in mine]
    ratio = f"x{med(rate) / one:.2f}" if one else "-"
    print(f"{n:<4} {f'{med(rate):.1f} ({min(rate):.1f}-{max(rate):.1f})':<26} {ratio:<10} "
          f"{f'{med(p99):.0f} ({max(p99):.0f})':<20} {f'{min(created)}-{max(created)}':<12} {twice:<6} "
          f"{med(load):.2f} ({min(load):.2f}-{max(load):.2f})")
PY
