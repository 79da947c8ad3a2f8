#!/usr/bin/env bash
# The whole book: `invoice-desk receivables` against the loopback sandbox seeded with
# 500 extra customers of 200 invoices each (plus its 12 regular ones), every customer in
# the directory (imported first, as a clerk does); wall time and peak RSS.
#   benches/receivables.sh [CUSTOMERS] [EACH]   (APP=target/release/invoice-desk RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
EACH=${2:-200}
APP=${APP:-target/release/invoice-desk}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d)
. benches/sandbox.sh
cleanup() { stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
start_sandbox --extra-customers "$N" --invoices-each "$EACH"
{ echo "id,nombre"; sed -n 's/^  \(cus_[a-z0-9_]*\) *\(.*\) ([0-9]*)$/\1,"\2"/p' "$WORK/sandbox.log"; } >"$WORK/directory.csv"
"$APP" customers import "$WORK/directory.csv" >/dev/null
count=$(($(wc -l <"$WORK/directory.csv") - 1))
RUNS=${RUNS:-3}
load0=$(cut -d' ' -f1 /proc/loadavg)
: >"$WORK/times"
for _ in $(seq 1 "$RUNS"); do
  /usr/bin/time -f '%e %M' -o "$WORK/t" "$APP" receivables --as-of 2026-11-24 --json >"$WORK/book.json"
  cat "$WORK/t" >>"$WORK/times"
done
load1=$(cut -d' ' -f1 /proc/loadavg)
wall=$(sort -g "$WORK/times" | awk '{w[NR] = $1} END {printf "%s s (%s–%s)", w[int((NR + 1) / 2)], w[1], w[NR]}')
rss=$(awk '{print $2}' "$WORK/times" | sort -g | awk '{r[NR] = $1} END {print r[int((NR + 1) / 2)]}')
listed=$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1])); print(sum(r.get("invoices",0) for r in b), "invoices,", sum(1 for r in b if "problem" in r), "customers not listed")' "$WORK/book.json")
echo "($listed)"
echo "receivables of $count customers ($N of them with $EACH invoices), listing included: median $wall of $RUNS runs, peak RSS $((rss / 1024)) MB, load $load0–$load1 (target: 500 x 200 in <= 10 s)"
