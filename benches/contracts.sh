#!/usr/bin/env bash
# Contracts (#69): the period's plan of N (10000) contracts, and a run's rate beside a
# billing run's. Against the loopback sandbox (its journal on disk, in target/):
#  1. N monthly contracts imported (one file, timed once);
#  2. the plan of their first period (`contracts run --period P`, nothing sent), ROUNDS
#     (3) times: every contract's first period due;
#  3. that period issued (`--yes`, LATENCY_MS 0), then the next period's plan, ROUNDS
#     times: each contract looked back on (its last bill found), N due;
#  4. with LATENCY_MS (50) on every request and C (32) at once, RUN_N (2000) contracts'
#     period issued (`contracts run --yes`) against the same invoices as a billing file
#     (`bulk --yes`), ROUNDS alternating runs each (a fresh period and file each time), as
#     rows a second and a fraction of the ceiling C × 1000 / LATENCY_MS.
# Prints medians and ranges, with the load average beside each.
#   benches/contracts.sh   (APP=target/release/invoice-desk N=10000 RUN_N=2000 ROUNDS=3
#                           C=32 LATENCY_MS=50)
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${APP:-target/release/invoice-desk}
N=${N:-10000}
RUN_N=${RUN_N:-2000}
ROUNDS=${ROUNDS:-3}
C=${C:-32}
LATENCY_MS=${LATENCY_MS:-50}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d -p "${DISK_DIR:-$PWD/target}")
# shellcheck source=benches/sandbox.sh
. benches/sandbox.sh
cleanup() { stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
load() { cut -d' ' -f1 /proc/loadavg; }
wall() { # command…: its wall time in seconds (it must succeed)
  local t0=$EPOCHREALTIME
  "$@" >"$WORK/out" 2>"$WORK/err" || { echo "failed: $*" >&2; tail -3 "$WORK/err" >&2; exit 1; }
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}
summary() { # file of "seconds load" lines: median and range of the seconds, loads beside
  sort -g "$1" | awk '{v[NR] = $1; l = l (NR > 1 ? "," : "") $2} END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.3f s median (%.3f–%.3f), load %s", m, v[1], v[NR], l}'
}
rates() { # file of "seconds load" lines, rows, ceiling
  awk -v n="$2" '{print n / $1, $2}' "$1" | sort -g | awk -v c="$3" '
    {v[NR] = $1; l = l (NR > 1 ? "," : "") $2} END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%5.0f/s (%.0f–%.0f) = %.2f of the ceiling (%.2f–%.2f), load %s",
      m, v[1], v[NR], m / c, v[1] / c, v[NR] / c, l}'
}
echo "# benches/contracts.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $("$APP" --version); $(nproc) cores; N=$N, medians and ranges of $ROUNDS runs"
start_sandbox --extra-customers 60 --invoices-each 0
mapfile -t customers < <(sed -n 's/^  \(cus_m[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log")
[ "${#customers[@]}" -ge 60 ] || { echo "the sandbox listed ${#customers[@]} extra customers" >&2; exit 1; }
contracts() { # file n prefix start: n monthly contracts in pesos from period `start`
  { echo "contrato;cliente;monto;moneda;cada;dia;desde"
    for i in $(seq 1 "$2"); do
      echo "$3-$i;${customers[$((i % 60))]};$((10000 + i));CLP;mes;5;$4"
    done; } >"$1"
}
contracts "$WORK/c.csv" "$N" K 2031-01
echo "import of $N contracts: $(wall "$APP" contracts import "$WORK/c.csv") s"
: >"$WORK/first"
for _ in $(seq 1 "$ROUNDS"); do
  echo "$(wall "$APP" contracts run --period 2031-01) $(load)" >>"$WORK/first"
done
grep -q "Period 2031-01: " "$WORK/out" || { echo "the plan was not of $N invoices:" >&2; tail -2 "$WORK/out" >&2; exit 1; }
echo "plan of the first period ($N due, none billed before): $(summary "$WORK/first")"
issued=$(wall "$APP" contracts run --period 2031-01 --yes --concurrency 64)
echo "first period issued ($N invoices, no latency, C = 64): $issued s"
: >"$WORK/next"
for _ in $(seq 1 "$ROUNDS"); do
  echo "$(wall "$APP" contracts run --period 2031-02) $(load)" >>"$WORK/next"
done
grep -q "periods were billed before" "$WORK/out" || { echo "the look-back did not find the bills:" >&2; tail -3 "$WORK/out" >&2; exit 1; }
echo "plan of the next period ($N due, each contract's last bill looked up): $(summary "$WORK/next")"
stop_sandbox
# The run's rate beside a billing run's, on a journal of its own.
start_sandbox --extra-customers 60 --invoices-each 0 --latency-ms "$LATENCY_MS"
export INVOICE_DESK_JOURNAL=$WORK/run.sqlite3
mapfile -t customers < <(sed -n 's/^  \(cus_m[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log")
contracts "$WORK/r.csv" "$RUN_N" R 2032-01
"$APP" contracts import "$WORK/r.csv" >/dev/null
ceiling=$((C * 1000 / LATENCY_MS))
: >"$WORK/ct"
: >"$WORK/bk"
for r in $(seq 1 "$ROUNDS"); do
  period=$(printf '2032-%02d' "$r")
  echo "$(wall "$APP" contracts run --period "$period" --yes --concurrency "$C") $(load)" >>"$WORK/ct"
  { echo "cliente;monto;moneda;vencimiento;referencia"
    for i in $(seq 1 "$RUN_N"); do echo "${customers[$((i % 60))]};$((10000 + i));CLP;2033-0$r-05;B$r-$i"; done
  } >"$WORK/b$r.csv"
  echo "$(wall "$APP" bulk "$WORK/b$r.csv" --yes --concurrency "$C") $(load)" >>"$WORK/bk"
done
echo "C = $C, latency $LATENCY_MS ms, $RUN_N invoices a run (ceiling $ceiling/s):"
echo "  contracts run: $(rates "$WORK/ct" "$RUN_N" "$ceiling")"
echo "  billing run:   $(rates "$WORK/bk" "$RUN_N" "$ceiling")"
