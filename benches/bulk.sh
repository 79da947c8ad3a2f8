#!/usr/bin/env bash
# A billing run against the loopback sandbox with --latency-ms 50: checking a 10,000-row
# file and a 100,000-row one (dry run: reading, mapping, every row validated, the service's
# listing not read), 100,000 rows naming 500 customers by name (the directory's lookups), 200,000 invalid rows reported (--skip-invalid --report), and sending
# 1,000 rows with --concurrency 8; wall time and peak RSS from /usr/bin/time.
#   benches/bulk.sh   (APP=target/release/invoice-desk)
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
rows 1000 "$WORK/1k.csv"
/usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" bulk "$WORK/10k.csv" --dry-run >/dev/null
read -r wall rss <"$WORK/t"
echo "checking 10,000 rows (dry run): $wall s, peak RSS $((rss / 1024)) MB (target <= 0.5 s)"
/usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" bulk "$WORK/100k.csv" --dry-run >/dev/null
read -r wall rss <"$WORK/t"
echo "checking 100,000 rows (dry run): $wall s, peak RSS $((rss / 1024)) MB (targets <= 1 s, <= 100 MB)"
/usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" bulk "$WORK/100k-named.csv" --dry-run >"$WORK/named.out"
read -r wall rss <"$WORK/t"
grep -q 'cus_bench' "$WORK/named.out" || { echo "the named rows were not resolved to the directory's ids" >&2; exit 1; }
echo "checking 100,000 rows naming 500 customers by name (dry run): $wall s, peak RSS $((rss / 1024)) MB (targets <= 1 s, <= 100 MB)"
/usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" bulk "$WORK/200k-invalid.csv" --yes --skip-invalid \
  --report "$WORK/report.csv" >/dev/null 2>&1
read -r wall rss <"$WORK/t"
echo "200,000 invalid rows, --skip-invalid --report: $wall s, peak RSS $((rss / 1024)) MB (target <= 5 s)"
/usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" bulk "$WORK/1k.csv" --yes --concurrency 8 >/dev/null
read -r wall rss <"$WORK/t"
echo "sending 1,000 rows, latency 50 ms, concurrency 8: $wall s = $(awk -v w="$wall" 'BEGIN {printf "%.0f", 1000 / w}') invoices/s, peak RSS $((rss / 1024)) MB (target >= 100/s)"
