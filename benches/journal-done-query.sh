#!/usr/bin/env bash
# Journal::done_in_scope's statement (which of 64 references a colleague issued), as it was
# (a join on "the latest outcome") and as it is (a lookup by the intent's index per row), on
# journals of 4,000 and 200,000 entries, three rounds alternating: execution and planning
# time from EXPLAIN ANALYZE.   benches/journal-done-query.sh
set -euo pipefail
cd "$(dirname "$0")/.."
APP=$(realpath "${APP:-target/release/invoice-desk}")
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
# Read by sandbox.sh and pg.sh.
# shellcheck disable=SC2034
WORK=$(mktemp -d)
. benches/sandbox.sh
. benches/pg.sh
start_pg 20
export INVOICE_DESK_JOURNAL_PASSWORD=bench-pw
for n in 2000 100000; do
  psql_pg -d postgres -c "CREATE DATABASE j$n" >/dev/null
  INVOICE_DESK_JOURNAL="postgres://postgres@127.0.0.1:$PORT/j$n" "$APP" journal verify >/dev/null
  psql_pg -d j$n -c "
    INSERT INTO entries (seq, kind, time, \"user\", profile, base_url, action, external_id, prev_hash, hash)
      OVERRIDING SYSTEM VALUE SELECT 2*g-1, 'intent', 't', 'u', 'p', 'b', 'create', 'K'||g, '', '' FROM generate_series(1,$n) g;
    INSERT INTO entries (seq, kind, time, \"user\", profile, base_url, action, intent_seq, outcome, invoice_id, prev_hash, hash)
      OVERRIDING SYSTEM VALUE SELECT 2*g, 'outcome', 't', 'u', 'p', 'b', 'create', 2*g-1, 'done', 'in_'||g, '', '' FROM generate_series(1,$n) g;
    INSERT INTO claims (scope, key, intent_seq) SELECT 's', 'K'||g, 2*g-1 FROM generate_series(1,$n) g;
    ANALYZE;" >/dev/null
  keys=$(python3 -c "import random; print(','.join(\"'K%d'\" % random.randint(1,$n) for _ in range(64)))")
  # Both are read by name below (${!q}).
  # shellcheck disable=SC2034
  old="SELECT c.key, coalesce(o.invoice_id, i.invoice_id), i.\"user\", i.time FROM claims c JOIN entries i ON i.seq = c.intent_seq JOIN entries o ON o.seq = (SELECT max(seq) FROM entries WHERE intent_seq = i.seq) WHERE c.scope = 's' AND c.key IN ($keys) AND o.outcome = 'done'"
  # shellcheck disable=SC2034
  new="SELECT c.key, i.invoice_id, i.\"user\", i.time, (SELECT o.outcome FROM entries o WHERE o.intent_seq = i.seq ORDER BY o.seq DESC LIMIT 1), (SELECT o.invoice_id FROM entries o WHERE o.intent_seq = i.seq ORDER BY o.seq DESC LIMIT 1) FROM claims c JOIN entries i ON i.seq = c.intent_seq WHERE c.scope = 's' AND c.key IN ($keys)"
  for round in 1 2 3; do
    for q in old new; do
      sql=${!q}
      t=$(psql_pg -d j$n -c "EXPLAIN (ANALYZE, SUMMARY) $sql" | sed -n 's/Execution Time: \(.*\) ms/\1/p')
      p=$(psql_pg -d j$n -c "EXPLAIN (ANALYZE, SUMMARY) $sql" | sed -n 's/Planning Time: \(.*\) ms/\1/p')
      echo "entries $((2*n)) round $round $q: execution $t ms, planning $p ms"
    done
  done
done
