#!/usr/bin/env bash
# Statements of account: what a PDF costs without the network (the statement-pdf example:
# one of 50 invoices, median of 21; 200 customers' statements of 50 invoices each on two
# threads; one of 2,000 invoices, with its peak RSS), then through the CLI against the
# loopback sandbox, listing included: one statement of its 2,000-invoice customer,
# `statements` for 200 customers of 50 invoices each (--extra-customers), and for every
# regular customer. Each invoice owed has a payment link and QR.
#   benches/statements.sh   (APP=target/release/invoice-desk RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${APP:-target/release/invoice-desk}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
cargo build --release --locked --example statement-pdf 2>/dev/null
EX=target/release/examples/statement-pdf
WORK=$(mktemp -d)
. benches/sandbox.sh
cleanup() { stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
"$EX" 50 200
/usr/bin/time -f '%M' -o "$WORK/t" "$EX" 2000 >"$WORK/out"
echo "$(cat "$WORK/out"), peak RSS $(($(cat "$WORK/t") / 1024)) MB (targets: 50 ms; 200 in 10 s; 2,000 in 1 s and 100 MB)"
start_sandbox --big-customer 2000 --extra-customers 200 --invoices-each 50
sed -n 's/^  \(cus_[a-z0-9_]*\) .*/\1/p' "$WORK/sandbox.log" >"$WORK/customers.txt"
big=cus_big

grep '^cus_m' "$WORK/customers.txt" >"$WORK/many.txt"
grep -v "^$big$" "$WORK/customers.txt" | grep -v '^cus_m' >"$WORK/regular.txt"
n=$(wc -l <"$WORK/regular.txt")
# Each RUNS times (at least 3), the three alternating; medians with their ranges.
RUNS=${RUNS:-3}
# shellcheck source=benches/series.sh
. benches/series.sh
load0=$(cut -d' ' -f1 /proc/loadavg)
for r in $(seq 1 "$RUNS"); do
  run big "$APP" statement "$big" --out "$WORK/big.pdf" --as-of 2026-11-24
  run many "$APP" statements --customers "$WORK/many.txt" --out "$WORK/month200-$r" --as-of 2026-11-24
  run regular "$APP" statements --customers "$WORK/regular.txt" --out "$WORK/month-$r" --as-of 2026-11-24
done
echo "CLI, medians and ranges of $RUNS runs each, alternating; load $load0–$(cut -d' ' -f1 /proc/loadavg)"
echo "CLI: the 2,000-invoice customer's statement, listing included: $(said big), $(pdfinfo "$WORK/big.pdf" 2>/dev/null | sed -n 's/^Pages: *//p') pages"
echo "CLI: statements for 200 customers of 50 invoices each, listing included: $(said many) ($(ls "$WORK/month200-1"/*.pdf | wc -l) PDFs) (target <= 10 s)"
echo "CLI: statements for the sandbox's $n regular customers, listing included: $(said regular) ($(ls "$WORK/month-1"/*.pdf | wc -l) PDFs)"
