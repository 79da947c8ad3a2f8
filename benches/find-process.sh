#!/usr/bin/env bash
# The whole `invoice-desk find --local` process (start, journal, index, answer, exit) at
# 100,000 and at 1,000,000 indexed invoices, alternating (#71: at 1,000,000 at most ×1.5
# the time at 100,000). The two indexes are made by the search bench and kept:
#   SEARCH_N=100000 SEARCH_KEEP=/tmp/i100k.sqlite3 cargo bench --bench search
#   SEARCH_N=1000000 SEARCH_KEEP=/tmp/i1m.sqlite3 cargo bench --bench search
#   benches/find-process.sh /tmp/i100k.sqlite3 /tmp/i1m.sqlite3   (APP=…, RUNS=15)
# Each run is one query of the bench's (alternating); medians and ranges in ms, the load.
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${APP:-target/release/invoice-desk}
RUNS=${RUNS:-15}
[ $# = 2 ] || { echo "usage: $0 INDEX_100K INDEX_1M" >&2; exit 2; }
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The bench's service, no secret needed to search what is kept (--local asks nothing).
export INVOICE_DESK_BASE_URL=https://api.example.cl INVOICE_DESK_API_KEY=unused \
  INVOICE_DESK_KEYRING=none INVOICE_DESK_CONFIG_DIR=$WORK/config
sizes=(small big)
for k in 0 1; do
  mkdir -p "$WORK/${sizes[$k]}"
  cp "${@:$((k + 1)):1}" "$WORK/${sizes[$k]}/search.sqlite3"
  # The first run reads the (empty) journal into the index: done once, before timing.
  INVOICE_DESK_JOURNAL="$WORK/${sizes[$k]}/journal.sqlite3" "$APP" find --local warm >/dev/null || true
done
queries=("FAC-2026-00421" "2026-004" "zzzz no such thing")
load0=$(cut -d' ' -f1 /proc/loadavg)
for _ in $(seq 1 "$RUNS"); do
  for q in "${queries[@]}"; do
    for who in small big; do
      t0=$EPOCHREALTIME
      INVOICE_DESK_JOURNAL="$WORK/$who/journal.sqlite3" "$APP" find --local "$q" >/dev/null 2>&1 || true
      t1=$EPOCHREALTIME
      awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f\n", (b - a) * 1000}' >>"$WORK/$who-${q// /_}.t"
    done
  done
done
stat() { sort -g "$1" | awk '{w[NR] = $1} END {printf "%s ms (%s–%s)", w[int((NR + 1) / 2)], w[1], w[NR]}'; }
med() { sort -g "$1" | awk '{w[NR] = $1} END {print w[int((NR + 1) / 2)]}'; }
echo "invoice-desk find --local, the whole process, $RUNS runs each, alternating; load $load0–$(cut -d' ' -f1 /proc/loadavg)"
for q in "${queries[@]}"; do
  f=${q// /_}
  printf '  %-20s 100,000: %s   1,000,000: %s   ×%s\n' "\"$q\"" "$(stat "$WORK/small-$f.t")" "$(stat "$WORK/big-$f.t")" \
    "$(awk -v a="$(med "$WORK/small-$f.t")" -v b="$(med "$WORK/big-$f.t")" 'BEGIN {printf "%.2f", b / a}')"
done
