# shellcheck shell=bash
# Sourced by the bench scripts that need PostgreSQL (after sandbox.sh; needs WORK):
# start_pg MAX_CONNECTIONS makes and starts a throwaway cluster in $WORK/pg on a free
# loopback port (as the postgres user when run as root: PostgreSQL refuses root), with
# the password bench-pw; sets PORT and PGBIN, and a cleanup trap that stops it and the
# sandbox and removes $WORK. psql_pg ARGS… runs psql as the superuser over its socket.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n1)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  stop_sandbox
  as_pg "$PGBIN/pg_ctl" stop -D "$WORK/pg" -m fast >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
psql_pg() { as_pg "$PGBIN/psql" -X -q -t -A -h "$WORK/pg" -p "$PORT" -U postgres "$@"; }
start_pg() {
  trap cleanup EXIT
  chmod 755 "$WORK"
  mkdir "$WORK/pg" && echo -n bench-pw >"$WORK/pw"
  [ "$(id -u)" = 0 ] && chown postgres "$WORK/pg" "$WORK/pw"
  as_pg "$PGBIN/initdb" -D "$WORK/pg" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    --pwfile="$WORK/pw" >/dev/null
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  as_pg "$PGBIN/pg_ctl" start -w -D "$WORK/pg" -l "$WORK/pg/server.log" \
    -o "-p $PORT -k $WORK/pg -c listen_addresses=127.0.0.1 -c max_connections=$1" >/dev/null
}
