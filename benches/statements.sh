#!/usr/bin/env bash
# Statements of account: what a PDF costs without the network (the statement-pdf example:
# one of 50 invoices, median of 21; 200 customers' statements of 50 invoices each on two
# threads; one of 2,000 invoices, with its peak RSS), then through the CLI against the
# loopback sandbox, listing included: one statement of its 2,000-invoice customer,
# `statements` for 200 customers of 50 invoices each (--extra-customers), and for every
# regular customer. Each invoice owed has a payment link and QR.
#   benches/statements.sh   (APP=target/release/invoice-desk)
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

/usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" statement "$big" --out "$WORK/big.pdf" --as-of 2026-11-24 >/dev/null
read -r wall rss <"$WORK/t"
echo "CLI: the 2,000-invoice customer's statement, listing included: $wall s, peak RSS $((rss / 1024)) MB, $(pdfinfo "$WORK/big.pdf" 2>/dev/null | sed -n 's/^Pages: *//p') pages"
grep '^cus_m' "$WORK/customers.txt" >"$WORK/many.txt"
/usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" statements --customers "$WORK/many.txt" --out "$WORK/month200" --as-of 2026-11-24 >/dev/null
read -r wall rss <"$WORK/t"
echo "CLI: statements for 200 customers of 50 invoices each, listing included: $wall s ($(ls "$WORK/month200"/*.pdf | wc -l) PDFs), peak RSS $((rss / 1024)) MB (target <= 10 s)"
grep -v "^$big$" "$WORK/customers.txt" | grep -v '^cus_m' >"$WORK/regular.txt"
n=$(wc -l <"$WORK/regular.txt")
/usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" statements --customers "$WORK/regular.txt" --out "$WORK/month" --as-of 2026-11-24 >/dev/null
read -r wall rss <"$WORK/t"
echo "CLI: statements for the sandbox's $n regular customers, listing included: $wall s ($(ls "$WORK/month"/*.pdf | wc -l) PDFs), peak RSS $((rss / 1024)) MB"
