#!/usr/bin/env bash
# An e-mail run to a desk's own relay (#71): the statements of 200 customers of 50
# invoices each e-mailed (`email statements`, `--per-minute server`: nothing paced here)
# through a relay on loopback that takes every message (Python's smtpd, no TLS: a relay
# on this computer), against making the same 200 statements to files (`statements
# --out`). RUNS of each, alternating, each e-mail run to a journal of its own (every
# statement sent, none "sent before"); medians, ranges and the load.
#   benches/email-pace.sh   (APP=target/release/invoice-desk RUNS=3)
# Target: the e-mail run in at most twice the time to make the statements.
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${APP:-target/release/invoice-desk}
RUNS=${RUNS:-3}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
WORK=$(mktemp -d)
. benches/sandbox.sh
RELAY=
cleanup() { [ -z "$RELAY" ] || kill "$RELAY" 2>/dev/null; stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
start_sandbox --extra-customers 200 --invoices-each 50
sed -n 's/^  \(cus_m[a-z0-9_]*\) .*/\1/p' "$WORK/sandbox.log" >"$WORK/many.txt"
# The relay: takes every message, keeps none (a count in its log).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -W ignore - "$port" >"$WORK/relay.log" 2>&1 <<'PY' &
import asyncore, smtpd, sys
class Sink(smtpd.SMTPServer):
    n = 0
    def process_message(self, peer, mailfrom, rcpttos, data, **kw):
        Sink.n += 1
        print(Sink.n, flush=True)
Sink(("127.0.0.1", int(sys.argv[1])), None, decode_data=False)
asyncore.loop()
PY
RELAY=$!
# A profile of its own for the mail settings (the sandbox's, the secret from the
# environment), its sender and the relay.
echo "$secret" | "$APP" profile add bench --mode oauth --base-url "$base" --auth-url "$base" \
  --audience "$audience" --client-id "$id" --account-key acc_oauth_clp >/dev/null 2>&1 || true
"$APP" profile sender --organization "Servicios Ñandú SpA" --rut 76.123.456-0 \
  --address "Av. Apoquindo 1234, Las Condes" --email cobranza@nandu.test \
  --phone "+56 2 2345 6789" --payment-text "Transferencia" >/dev/null
"$APP" profile mail --server 127.0.0.1 --port "$port" --security none \
  --from "Cobranzas <cobranza@nandu.test>" --per-minute server >/dev/null
{
  echo "id,correo"
  awk '{printf "%s,%s@clientes.test\n", $1, $1}' "$WORK/many.txt"
} >"$WORK/contacts.csv"
"$APP" customers import "$WORK/contacts.csv" >/dev/null
# Every customer has an address, or the runs below would send nothing.
[ "$("$APP" customers contacts "$(head -n1 "$WORK/many.txt")")" != "" ] ||
  { echo "the contacts were not imported" >&2; exit 1; }
# shellcheck source=benches/series.sh
. benches/series.sh
load0=$(cut -d' ' -f1 /proc/loadavg)
for r in $(seq 1 "$RUNS"); do
  run make "$APP" statements --customers "$WORK/many.txt" --out "$WORK/files-$r" --as-of 2026-11-24
  # A copy of the journal alone is whole after `journal verify` (it folds the log in).
  "$APP" journal verify >/dev/null
  cp "$WORK/journal.sqlite3" "$WORK/j-$r.sqlite3"
  run mail env INVOICE_DESK_JOURNAL="$WORK/j-$r.sqlite3" "$APP" email statements \
    --customers "$WORK/many.txt" --as-of 2026-11-24
done
sent=$(tail -n1 "$WORK/relay.log")
[ "${sent:-0}" -ge $((200 * RUNS)) ] || { echo "the relay took ${sent:-0} messages, not $((200 * RUNS))" >&2; exit 1; }
echo "200 customers of 50 invoices each, medians and ranges of $RUNS runs each, alternating; load $load0–$(cut -d' ' -f1 /proc/loadavg)"
echo "statements made to files: $(said make)"
echo "the same e-mailed to a relay on loopback (--per-minute server): $(said mail); $sent messages taken in all (target: at most twice the time to make them)"
