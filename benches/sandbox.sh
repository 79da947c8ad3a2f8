# shellcheck shell=bash
# Sourced by the bench scripts (needs APP and WORK). start_sandbox ARGS… starts
# `$APP sandbox --port 0 ARGS…` (its log in $WORK/sandbox.log), waits until it is ready,
# sets base, audience, id and secret, and exports what the CLI reads: OAuth against it,
# account acc_oauth_clp, no keyring, settings and journal in $WORK. SANDBOX is its pid;
# stop_sandbox ends it (the scripts' cleanup calls it too).
SANDBOX=
sandbox_field() { sed -n "s/^ *$1: *\([^ ]*\).*/\1/p" "$WORK/sandbox.log" | head -n1; }
start_sandbox() {
  "$APP" sandbox --port 0 "$@" >"$WORK/sandbox.log" 2>&1 &
  SANDBOX=$!
  for _ in $(seq 1 300); do grep -q "client secret" "$WORK/sandbox.log" && break; sleep 0.1; done
  base=$(sandbox_field "base URL")
  audience=$(sandbox_field audience)
  id=$(sandbox_field "client id")
  secret=$(sandbox_field "client secret")
  export INVOICE_DESK_BASE_URL=$base INVOICE_DESK_AUTH_URL=$base INVOICE_DESK_AUDIENCE=$audience \
    INVOICE_DESK_CLIENT_ID=$id INVOICE_DESK_CLIENT_SECRET=$secret \
    INVOICE_DESK_ACCOUNT_KEY=acc_oauth_clp INVOICE_DESK_KEYRING=none \
    INVOICE_DESK_CONFIG_DIR=$WORK INVOICE_DESK_JOURNAL=$WORK/journal.sqlite3
}
stop_sandbox() {
  if [ -n "$SANDBOX" ]; then
    kill "$SANDBOX" 2>/dev/null || true
    wait "$SANDBOX" 2>/dev/null || true
  fi
  SANDBOX=
}
