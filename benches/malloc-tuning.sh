#!/usr/bin/env bash
# glibc's own thresholds against the ones src/memory.rs used to set (a 1 MB mmap
# threshold, a 4 MB trim threshold), on one binary: the old setting is given through
# GLIBC_TUNABLES, the default is nothing. Runs alternate (default, tuned, default, …):
# the 2,000-invoice customer's statement and a 100,000-invoice export through the CLI
# against the loopback sandbox. Prints medians and ranges of wall, CPU (user + system)
# and peak RSS, with the machine's load beside them.
#   benches/malloc-tuning.sh [RUNS]        (default 3; APP=target/release/invoice-desk)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
APP=${APP:-target/release/invoice-desk}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d)
. benches/sandbox.sh
cleanup() { stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
TUNED=glibc.malloc.mmap_threshold=1048576:glibc.malloc.trim_threshold=4194304
stats() { # label file: "median (min-max)" of wall, cpu, rss
  awk -v l="$1" '{w[NR]=$1; c[NR]=$2+$3; r[NR]=$4/1024}
    function med(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
      return sprintf("%.3f (%.3f-%.3f)", a[int((n + 1) / 2)], a[1], a[n]) }
    END { printf "  %-8s wall %s s, cpu %s s, peak RSS %s MB\n", l, med(w, NR), med(c, NR), med(r, NR) }' "$2"
}
bench() { # what, then the command
  local what=$1
  shift
  : >"$WORK/default"
  : >"$WORK/tuned"
  for _ in $(seq 1 "$RUNS"); do
    for how in default tuned; do
      rm -f "$WORK"/out.*
      if [ "$how" = tuned ]; then
        GLIBC_TUNABLES=$TUNED python3 benches/measure.py "$WORK/t" "$@" >/dev/null 2>&1
      else
        python3 benches/measure.py "$WORK/t" "$@" >/dev/null 2>&1
      fi
      cat "$WORK/t" >>"$WORK/$how"
    done
  done
  echo "$what (load $(cut -d' ' -f1-3 /proc/loadavg)):"
  stats "glibc" "$WORK/default"
  stats "tuned" "$WORK/tuned"
}
echo "machine: $(nproc) cores, $(uname -m); $("$APP" --version); $RUNS runs each, alternating"
start_sandbox --big-customer 2000
bench "statement of the 2,000-invoice customer" \
  "$APP" statement cus_big --out "$WORK/out.pdf" --as-of 2026-11-24
stop_sandbox
start_sandbox --big-customer 100000
bench "export of 100,000 invoices to CSV" "$APP" export cus_big --out "$WORK/out.csv"
