#!/usr/bin/env bash
# Billing runs against the wire's ceiling (#51): with LATENCY_MS (50) on every request of
# the loopback sandbox, for each concurrency C in CS (8 16 32 64), a file of 125 × C rows
# (about 6 s at the ceiling of C requests of LATENCY_MS) is sent by ours
# (`bulk --concurrency C`, journal on disk) and by benches/bulk_pool.py (Python requests,
# a pool of C threads, no journal), ROUNDS (3) alternating runs of each, each run on a
# customer of its own. Prints per C: medians and ranges of invoices a second (the whole
# run, start-up, token and the customer's listing included), each as a fraction of the
# ceiling C × 1000 / LATENCY_MS, the load average beside, ours' CPU a row (user + system,
# /usr/bin/time); then the fsyncs a row of one more run of ours (strace -f -c). First, the
# sandbox's latency as one client sees it (curl, one create at a time).
#   benches/bulk-ceiling.sh   (APP=target/release/invoice-desk ROUNDS=3 CS="8 16 32 64"
#                              LATENCY_MS=50 LOAD=n: n busy loops beside every run;
#                              LATENCY_MS=0: no ceiling, ours against Python's rate)
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${APP:-target/release/invoice-desk}
ROUNDS=${ROUNDS:-3}
CS=${CS:-8 16 32 64}
LATENCY_MS=${LATENCY_MS:-50}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
python3 -c 'import requests' 2>/dev/null || pip install --quiet requests
for t in /usr/bin/time strace; do
  command -v "$t" >/dev/null || { echo "bulk-ceiling.sh needs $t (apt-get install time strace)" >&2; exit 1; }
done
WORK=$(mktemp -d -p "${DISK_DIR:-$PWD/target}")
# shellcheck source=benches/sandbox.sh
. benches/sandbox.sh
BUSY=()
cleanup() { [ ${#BUSY[@]} = 0 ] || kill "${BUSY[@]}" 2>/dev/null; stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
start_sandbox --latency-ms "$LATENCY_MS" --extra-customers 60
mapfile -t customers < <(sed -n 's/^  \(cus_[a-z0-9]*\) .*/\1/p' "$WORK/sandbox.log")
if [ -n "${LOAD:-}" ]; then
  for _ in $(seq 1 "$LOAD"); do sh -c 'while :; do :; done' & BUSY+=($!); done
fi
k=0
F=
file() { # name rows: F becomes a file of that many rows to the next unused customer
  local c=${customers[$k]}
  k=$((k + 1))
  F=$WORK/$1.csv
  { echo "cliente;monto;moneda;vencimiento;referencia"
    for i in $(seq 1 "$2"); do echo "$c;$((1000 + i));CLP;31-12-2026;$1-$i"; done; } >"$F"
}
wall() { # command…: prints its wall time in seconds (it must succeed)
  local t0=$EPOCHREALTIME
  "$@" >/dev/null 2>"$WORK/err" || { echo "failed: $*" >&2; tail -3 "$WORK/err" >&2; exit 1; }
  local t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f\n", b - a}'
}
# rows/s of each wall time in a file, then median and range, and fractions of the ceiling
stats() { # file rows ceiling (0: none)
  awk -v n="$2" '{print n / $1}' "$1" | sort -g | awk -v c="$3" '
    {v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%5.0f/s (%.0f–%.0f)", m, v[1], v[NR]
      if (c > 0) printf " = %.2f of the ceiling (%.2f–%.2f)", m / c, v[1] / c, v[NR] / c}'
}
median_rate() { awk -v n="$2" '{print n / $1}' "$1" | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "# benches/bulk-ceiling.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $("$APP" --version); $(nproc) cores; ${LOAD:+$LOAD busy loops beside; }latency $LATENCY_MS ms; medians and ranges of $ROUNDS alternating runs"
# The instrument: what the sandbox's latency is at its door, 30 creates one at a time on
# one kept-alive connection (curl, each timed from send to answer), on the last customer,
# which no run uses.
# shellcheck disable=SC2154  # base: set by start_sandbox (benches/sandbox.sh)
bearer=$(cd benches && python3 -c 'import sys; from sandbox_token import token; print(token(*sys.argv[1:]))' \
  "$base" "$INVOICE_DESK_CLIENT_ID" "$INVOICE_DESK_CLIENT_SECRET" "$INVOICE_DESK_AUDIENCE")
urls=()
for _ in $(seq 1 30); do urls+=(-o /dev/null "$base/invoices"); done
mapfile -t door < <(curl -s -w '%{http_code} %{time_total}\n' -H "authorization: Bearer $bearer" \
  -H 'x-account-key: acc_oauth_clp' -H 'content-type: application/json' \
  -d "{\"customer\":\"${customers[-1]}\",\"amount\":1000,\"currency_code\":\"CLP\"}" "${urls[@]}")
printf '%s\n' "${door[@]}" | awk '$1 != 201 {bad++} {print $2 * 1000}
  END {if (bad) {print "the sandbox refused " bad " creates" > "/dev/stderr"; exit 1}}' | sort -g |
  awk -v asked="$LATENCY_MS" '{v[NR] = $1; s += $1} END {
    printf "the sandbox, one create at a time: %.2f ms median, %.2f mean (%.2f–%.2f), for %d ms asked\n",
      v[int((NR + 1) / 2)], s / NR, v[1], v[NR], asked}'
for c in $CS; do
  rows=$((125 * c))
  ceiling=0
  [ "$LATENCY_MS" = 0 ] || ceiling=$((c * 1000 / LATENCY_MS))
  : >"$WORK/ours"
  : >"$WORK/python"
  : >"$WORK/cpu"
  load0=$(cut -d' ' -f1 /proc/loadavg)
  # Each create's time as ours saw it is in the support log ($WORK/logs): the lines
  # ours' runs of this C add.
  logged0=$({ cat "$WORK"/logs/*.log 2>/dev/null || true; } | wc -l)
  for r in $(seq 1 "$ROUNDS"); do
    file "A$c-$r" "$rows"
    wall /usr/bin/time -f '%U %S' -a -o "$WORK/cpu" "$APP" bulk "$F" --yes --concurrency "$c" >>"$WORK/ours"
    file "P$c-$r" "$rows"
    # shellcheck disable=SC2154  # base: set by start_sandbox (benches/sandbox.sh)
    wall python3 benches/bulk_pool.py "$base" "$INVOICE_DESK_CLIENT_ID" "$INVOICE_DESK_CLIENT_SECRET" \
      "$INVOICE_DESK_AUDIENCE" "$F" "$c" >>"$WORK/python"
  done
  load1=$(cut -d' ' -f1 /proc/loadavg)
  answers=$({ cat "$WORK"/logs/*.log 2>/dev/null || true; } | tail -n +"$((logged0 + 1))" |
    sed -n '/POST path="\/invoices"/s/.* ms=\([0-9]*\).*/\1/p' | sort -n |
    awk '{v[NR] = $1; s += $1} END {if (NR) printf "%.2f %d %d", s / NR, v[int(NR * 0.9)], NR}')
  file "S$c" "$rows"
  strace -f --seccomp-bpf -c -e trace=fsync,fdatasync -o "$WORK/strace" \
    "$APP" bulk "$F" --yes --concurrency "$c" >/dev/null 2>&1
  fs=$(awk '/total/ {print $4}' "$WORK/strace")
  printf 'C=%-3s %5d rows, ceiling %4d/s, load %s–%s\n' "$c" "$rows" "$ceiling" "$load0" "$load1"
  printf '  invoice-desk  %s\n' "$(stats "$WORK/ours" "$rows" "$ceiling")"
  printf '  Python pool   %s\n' "$(stats "$WORK/python" "$rows" "$ceiling")"
  printf '  ours / Python: x%.2f\n' "$(awk -v a="$(median_rate "$WORK/ours" "$rows")" -v b="$(median_rate "$WORK/python" "$rows")" 'BEGIN {print a / b}')"
  printf '  CPU of ours (user + system): %s ms a row\n' "$(awk -v n="$rows" '{print ($1 + $2) * 1000 / n}' "$WORK/cpu" | sort -g | awk '{v[NR] = $1} END {printf "%.2f (%.2f–%.2f)", v[int((NR + 1) / 2)], v[1], v[NR]}')"
  printf '  fsyncs of one more run of ours: %s, %.2f a row (target <= 0.3)\n' "$fs" "$(awk -v f="$fs" -v n="$rows" 'BEGIN {print f / n}')"
  # What the service's own answer times allow: C over their mean, and ours against it.
  if [ -n "$answers" ]; then
    read -r mean p90 n <<<"$answers"
    awk -v m="$mean" -v p="$p90" -v n="$n" -v c="$c" -v r="$(median_rate "$WORK/ours" "$rows")" 'BEGIN {
      printf "  the service answered ours'"'"' %d creates in %.2f ms on average (p90 %d): C/mean = %.0f/s, ours reached %.2f of that\n", n, m, p, c * 1000 / m, r / (c * 1000 / m)}'
  fi
done
