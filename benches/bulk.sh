#!/usr/bin/env bash
# A billing run against the loopback sandbox with --latency-ms 50: checking a 10,000-row
# file and a 100,000-row one (dry run: reading, mapping, every row validated, the service's
# listing not read), 100,000 rows naming 500 customers by name (the directory's lookups), 200,000 invalid rows reported (--skip-invalid --report), and sending
# 1,000 rows with --concurrency 8; wall time and peak RSS from /usr/bin/time.
#   benches/bulk.sh   (APP=target/release/invoice-desk RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${APP:-target/release/invoice-desk}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d)
. benches/sandbox.sh
cleanup() { stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
start_sandbox --latency-ms 50
customer=$(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log" | head -n1)
rows() { # n file
  { echo "cliente;monto;moneda;vencimiento;referencia"
    for i in $(seq 1 "$1"); do echo "$customer;$((1000 + i));CLP;31-12-2026;RUN-$i"; done; } >"$2"
}
invalid() { # n file: every row refused (amount below zero)
  { echo "cliente;monto"
    for i in $(seq 1 "$1"); do echo "$customer;-$i"; done; } >"$2"
}
named() { # n file: rows naming 500 directory customers by name, not by id
  { echo "cliente;monto;moneda;vencimiento;referencia"
    for i in $(seq 1 "$1"); do echo "Cliente Banco $(((i * 7) % 500));$((1000 + i));CLP;31-12-2026;NAMED-$i"; done; } >"$2"
}
{ echo "id;nombre"; for c in $(seq 0 499); do echo "cus_bench$c;Cliente Banco $c"; done; } >"$WORK/directory.csv"
"$APP" customers import "$WORK/directory.csv" >/dev/null
named 100000 "$WORK/100k-named.csv"
rows 10000 "$WORK/10k.csv"
invalid 200000 "$WORK/200k-invalid.csv"
rows 100000 "$WORK/100k.csv"

# Each series RUNS times (at least 3), the series alternating (A B C D E A B C D E …);
# medians with their ranges, the load average beside.
RUNS=${RUNS:-3}
# shellcheck source=benches/series.sh
. benches/series.sh
load0=$(cut -d' ' -f1 /proc/loadavg)
for r in $(seq 1 "$RUNS"); do
  run check10k "$APP" bulk "$WORK/10k.csv" --dry-run
  run check100k "$APP" bulk "$WORK/100k.csv" --dry-run
  run named "$APP" bulk "$WORK/100k-named.csv" --dry-run
  grep -q 'cus_bench' "$WORK/named.out" || { echo "the named rows were not resolved to the directory's ids" >&2; exit 1; }
  run invalid "$APP" bulk "$WORK/200k-invalid.csv" --yes --skip-invalid --report "$WORK/report.csv"
  # A file of its own each round (references and amounts): the last round's are issued.
  { echo "cliente;monto;moneda;vencimiento;referencia"
    for i in $(seq 1 1000); do echo "$customer;$((100000 * r + i));CLP;31-12-2026;SEND$r-$i"; done; } >"$WORK/1k.csv"
  run send "$APP" bulk "$WORK/1k.csv" --yes --concurrency 8
done
load1=$(cut -d' ' -f1 /proc/loadavg)
echo "medians and ranges of $RUNS runs each, the series alternating; load $load0–$load1"
echo "checking 10,000 rows (dry run): $(said check10k) (target <= 0.5 s)"
echo "checking 100,000 rows (dry run): $(said check100k) (targets <= 1 s, <= 100 MB)"
echo "checking 100,000 rows naming 500 customers by name (dry run): $(said named) (targets <= 1 s, <= 100 MB)"
echo "200,000 invalid rows, --skip-invalid --report: $(said invalid) (target <= 5 s)"
send=$(sort -g "$WORK/send.t" | awk '{w[NR] = $1} END {print w[int((NR + 1) / 2)]}')
echo "sending 1,000 rows, latency 50 ms, concurrency 8: $(said send) = $(awk -v w="$send" 'BEGIN {printf "%.0f", 1000 / w}') invoices/s (target >= 100/s)"
