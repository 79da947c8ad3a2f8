#!/usr/bin/env bash
# Where a shared run's CPU goes: for each N given, N clerks (CLI processes at
# --concurrency 4) run one 2,000-row file on one shared journal against the loopback
# sandbox at 20 ms latency (as benches/desk-scaling.sh), and the CPU-seconds of the
# clerks (their own /usr/bin/time), PostgreSQL's processes and the sandbox (/proc) are
# printed beside the wall time and the machine's idle time; then, after the last run, a
# clerk that finds every row issued and a clerk with one row, three times each. STATS=1
# adds PostgreSQL's busiest statements of each run (pg_stat_statements).
#   benches/desk-cpu.sh 8 32 8 32   (APP=target/release/invoice-desk)
set -euo pipefail
cd "$(dirname "$0")/.."
APP=$(realpath "${APP:-target/release/invoice-desk}")
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
# Read by sandbox.sh and pg.sh.
# shellcheck disable=SC2034
WORK=$(mktemp -d)
. benches/sandbox.sh
. benches/pg.sh
start_pg 100
# Again, with pg_stat_statements loaded (it must be preloaded).
as_pg "$PGBIN/pg_ctl" stop -D "$WORK/pg" -m fast >/dev/null
as_pg "$PGBIN/pg_ctl" start -w -D "$WORK/pg" -l "$WORK/pg/server.log" -o "-p $PORT -k $WORK/pg \
  -c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_preload_libraries=pg_stat_statements \
  -c pg_stat_statements.track=all -c pg_stat_statements.track_planning=on" >/dev/null
unset INVOICE_DESK_JOURNAL
export INVOICE_DESK_JOURNAL_PASSWORD=bench-pw LANG=C.UTF-8
# CPU ticks (1/100 s) of a process and its reaped children; of every PostgreSQL process.
ticks() { awk '{print $14 + $15 + $16 + $17}' "/proc/$1/stat"; }
pgcpu() {
  local s=0 t
  for p in $(pgrep -u postgres postgres); do
    t=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$p/stat" 2>/dev/null || echo 0)
    s=$((s + t))
  done
  echo "$s"
}
secs() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b - a) / 100}'; }
run=0
url=
for n in "$@"; do
  run=$((run + 1))
  stop_sandbox
  start_sandbox --latency-ms 20
  mapfile -t customers < <(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log")
  { echo "cliente;monto;referencia"
    for i in $(seq 1 2000); do
      echo "${customers[$((i % ${#customers[@]}))]};$((run * 100000 + i));D$run-$i"
    done; } >"$WORK/month.csv"
  psql_pg -d postgres -c "CREATE DATABASE run$run" >/dev/null
  url="postgres://postgres@127.0.0.1:$PORT/run$run"
  INVOICE_DESK_JOURNAL=$url "$APP" journal verify >/dev/null
  psql_pg -d "run$run" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()" >/dev/null
  s0=$(ticks "$SANDBOX"); p0=$(pgcpu)
  read -r _ _ _ _ idle0 _ </proc/stat
  t0=$(date +%s%N)
  pids=()
  for p in $(seq 1 "$n"); do
    INVOICE_DESK_JOURNAL=$url USER="clerk$p" /usr/bin/time -f "%U %S" -o "$WORK/time.$run.$p" \
      "$APP" bulk "$WORK/month.csv" --yes >/dev/null 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}" || true
  t1=$(date +%s%N)
  s1=$(ticks "$SANDBOX"); p1=$(pgcpu)
  read -r _ _ _ _ idle1 _ </proc/stat
  clerks=$(cat "$WORK"/time."$run".* | awk '{s += $1 + $2} END {printf "%.2f", s}')
  echo "N=$n wall $(((t1 - t0) / 1000000)) ms; CPU s: clerks $clerks, sandbox $(secs "$s0" "$s1"), postgres $(secs "$p0" "$p1"), idle $(secs "$idle0" "$idle1") (load $(cut -d' ' -f1 /proc/loadavg))"
  if [ -n "${STATS:-}" ]; then
    psql_pg -d "run$run" -F ' | ' -c "SELECT round(total_exec_time::numeric) exec_ms,
      round(total_plan_time::numeric) plan_ms, calls, left(regexp_replace(query, '\s+', ' ', 'g'), 110)
      FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 12"
  fi
done
[ -n "$url" ] || exit 0
head -n1 "$WORK/month.csv" >"$WORK/one.csv"
for k in 1 2 3; do
  p0=$(pgcpu)
  INVOICE_DESK_JOURNAL=$url USER=late /usr/bin/time -f "%U %S" -o "$WORK/late" "$APP" bulk "$WORK/month.csv" --yes >/dev/null 2>&1 || true
  p1=$(pgcpu)
  echo "a clerk that finds all 2,000 rows issued: client $(tail -n1 "$WORK/late" | awk '{print $1 + $2}') s, postgres $(secs "$p0" "$p1") s"
  # A different amount each time: the same one would be a look-alike, not sent.
  echo "${customers[0]};$((7000 + k));ONE$k" >>"$WORK/one.csv"
  p0=$(pgcpu)
  INVOICE_DESK_JOURNAL=$url USER=late /usr/bin/time -f "%U %S" -o "$WORK/late" "$APP" bulk "$WORK/one.csv" --yes >/dev/null 2>&1 || true
  p1=$(pgcpu)
  echo "a clerk with one row to issue: client $(tail -n1 "$WORK/late" | awk '{print $1 + $2}') s, postgres $(secs "$p0" "$p1") s"
  head -n1 "$WORK/month.csv" >"$WORK/one.csv"
done
