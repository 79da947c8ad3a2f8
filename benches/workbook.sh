#!/usr/bin/env bash
# Writing a customer's Excel workbook: `invoice-desk export --out F.xlsx` of the big
# customer from the loopback sandbox, against the same export to CSV. Prints the medians
# of wall time, client CPU and client peak RSS (GNU time), and the workbook's size.
#   benches/workbook.sh [SIZES…]      (default: 100000)
#   RUNS=5, APP=target/release/invoice-desk
# Targets (#17): the workbook of 100,000 invoices in ≤ 1.5 s and ≤ 200 MB.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${*:-100000}
RUNS=${RUNS:-5}
APP=${APP:-target/release/invoice-desk}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)"; exit 1; }
WORK=$(mktemp -d)
. benches/sandbox.sh
cleanup() { stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $("$APP" --version)"
for n in $SIZES; do
  start_sandbox --big-customer "$n"
  export INVOICE_DESK_CONFIG_DIR=$WORK/config
  : >"$WORK/xlsx.times"
  : >"$WORK/csv.times"
  for r in $(seq 0 "$RUNS"); do        # run 0 is a warm-up, not counted; the formats alternate
    for fmt in xlsx csv; do
      rm -f "$WORK/out.$fmt"
      /usr/bin/time -f '%e %U %S %M' -o "$WORK/t" "$APP" export cus_big --as-of 2026-11-23 \
        --out "$WORK/out.$fmt" 2>/dev/null
      [ "$r" = 0 ] || cat "$WORK/t" >>"$WORK/$fmt.times"
    done
  done
  for fmt in xlsx csv; do
    wall=$(awk '{print $1}' "$WORK/$fmt.times" | median)
    walls=$(awk '{print $1}' "$WORK/$fmt.times" | sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {printf "%s–%s", lo, hi}')
    cpu=$(awk '{print $2 + $3}' "$WORK/$fmt.times" | median)
    rss=$(awk '{print $4 / 1024}' "$WORK/$fmt.times" | median)
    size=$(du -k "$WORK/out.$fmt" | cut -f1)
    printf '%-5s %8d invoices: wall %.2f s (%s), CPU %.2f s, peak RSS %.0f MB, file %d KB (medians of %d, alternating; load %s)\n' \
      "$fmt" "$n" "$wall" "$walls" "$cpu" "$rss" "$size" "$RUNS" "$(cut -d' ' -f1 /proc/loadavg)"
  done
  stop_sandbox
done
