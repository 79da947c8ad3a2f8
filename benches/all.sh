#!/usr/bin/env bash
# The whole performance table, each figure beside its alternative and their ratio: runs
# every bench script in turn on the release build and writes what they print to
# benches/all.out (docs/performance.md summarises that file, of one run). One build
# first, then nothing else should run on the machine: the figures are wall times. Every
# part alternates its subjects (A B A B …) at least three times and prints medians with
# their ranges; each part's header has the load average when it starts. LOAD=n puts n
# busy loops beside the whole run (#51 asks for its targets at load 2–4: LOAD=2).
#   benches/all.sh            (SKIP="desktop spinner …" leaves parts out; LOAD=; about 25 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --bin invoice-desk --example bare-window --example screen-watch \
  --example statement-pdf 2>&1 | tail -n 1
APP=target/release/invoice-desk
export APP NO_BUILD=1
OUT=benches/all.out
BUSY=()
trap '[ ${#BUSY[@]} = 0 ] || kill "${BUSY[@]}" 2>/dev/null' EXIT
# The busy loops are this script's, for the whole run. LOAD is taken out of the parts'
# environment: desktop.sh, bulk-ceiling.sh and create.sh start LOAD loops of their own,
# and until #51's last round they did so beside these, so they ran with twice LOAD.
LOOPS=${LOAD:-}
unset LOAD
if [ -n "$LOOPS" ]; then
  for _ in $(seq 1 "$LOOPS"); do sh -c 'while :; do :; done' & BUSY+=($!); done
  sleep 30 # the load average catches up
fi
part() { # name command…
  local name=$1
  shift
  case " ${SKIP:-} " in *" $name "*) return ;; esac
  local t0=$SECONDS
  echo
  echo "## $name: $* (load $(cut -d' ' -f1-3 /proc/loadavg)${LOOPS:+, $LOOPS busy loops beside})"
  "$@" 2>&1
  echo "($name took $((SECONDS - t0)) s)"
}
{
  echo "# benches/all.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD)$(git diff --quiet -- . ':!benches/all.out' || echo ' (with uncommitted changes)'); $("$APP" --version); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)${LOOPS:+, $LOOPS busy loops beside}"
  part desktop benches/desktop.sh
  part spinner benches/spinner-cpu.sh "$APP"
  part export benches/export-side-by-side.sh
  part workbook benches/workbook.sh
  part bulk benches/bulk.sh
  part bulk-ceiling benches/bulk-ceiling.sh
  part bulk-0ms env LATENCY_MS=0 benches/bulk-ceiling.sh
  part create benches/create.sh
  part shared-journal benches/shared-journal.sh
  part receivables benches/receivables.sh
  part statements benches/statements.sh
} | tee "$OUT"
