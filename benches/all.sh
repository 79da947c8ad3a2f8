#!/usr/bin/env bash
# The whole performance table, each figure beside its alternative and their ratio: runs
# every bench script in turn on the release build and writes what they print to
# benches/all.out (README's Performance section is that file, of one run). One build
# first, then nothing else should run on the machine: the figures are wall times.
#   benches/all.sh            (SKIP="desktop spinner …" leaves parts out; about 20 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked --bin invoice-desk --example bare-window --example screen-watch \
  --example statement-pdf 2>&1 | tail -n 1
APP=target/release/invoice-desk
export APP NO_BUILD=1
OUT=benches/all.out
part() { # name command…
  local name=$1
  shift
  case " ${SKIP:-} " in *" $name "*) return ;; esac
  local t0=$SECONDS
  echo
  echo "## $name: $*"
  "$@" 2>&1
  echo "($name took $((SECONDS - t0)) s)"
}
{
  echo "# benches/all.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD)$(git diff --quiet -- . ':!benches/all.out' || echo ' (with uncommitted changes)'); $("$APP" --version); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  part desktop benches/desktop.sh
  part spinner benches/spinner-cpu.sh "$APP"
  part export benches/export-side-by-side.sh
  part workbook benches/workbook.sh
  part bulk benches/bulk.sh
  part bulk-pool env LOAD=6 benches/bulk-pool.sh
  part create benches/create.sh
  part shared-journal benches/shared-journal.sh
  part receivables benches/receivables.sh
  part statements benches/statements.sh
} | tee "$OUT"
