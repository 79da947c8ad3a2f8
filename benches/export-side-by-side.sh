#!/usr/bin/env bash
# Export of the big customer's invoices from the loopback sandbox, side by side and in
# turn (A B C A B C …): `invoice-desk export`, a plain Python requests + csv script
# (benches/export_natural.py) and a download-only floor (one curl process, keep-alive,
# bodies discarded). Prints medians of wall time, client CPU, client peak RSS and the
# sandbox's CPU, and each one's ratio to invoice-desk.
#   benches/export-side-by-side.sh [SIZES…]      (default: 100000 1000000)
#   RUNS=5 (per size; 3 above 500,000), APP=target/release/invoice-desk
#   BEFORE=path/to/another/invoice-desk adds that build to the turns (and checks that its
#   CSV is byte for byte ours)
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${*:-100000 1000000}
APP=${APP:-target/release/invoice-desk}
[ -x "$APP" ] || cargo build --release --locked --bin invoice-desk
python3 -c 'import requests' 2>/dev/null || pip install --quiet requests
WORK=$(mktemp -d)
. benches/sandbox.sh
cleanup() { stop_sandbox; rm -rf "$WORK"; }
trap cleanup EXIT
hz=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
range() { sort -g | awk 'NR == 1 {lo=$1} {hi=$1} END {printf "%.3f–%.3f", lo, hi}'; }
whos=(invoice-desk python curl)
[ -n "${BEFORE:-}" ] && whos=(invoice-desk before python curl)

echo "machine: $(nproc) cores, $(uname -m), $(date -u +%Y-%m-%d); $("$APP" --version); $(python3 -c 'import requests, sys; print("Python", sys.version.split()[0], "requests", requests.__version__)'); $(curl --version | head -n1 | cut -d' ' -f1-2)"
for n in $SIZES; do
  runs=${RUNS:-$([ "$n" -gt 500000 ] && echo 3 || echo 5)}
  start_sandbox --big-customer "$n"
  export INVOICE_DESK_CONFIG_DIR=$WORK/config
  unset INVOICE_DESK_JOURNAL

  # The floor: every page's address is known in advance (the cursor is a position), so
  # one curl fetches them all over one connection and throws the bodies away; the list of
  # addresses is written before the clock starts, the token is fetched inside it.
  for ((pos = 0; pos < n; pos += 1000)); do
    cursor=$(printf 'pos:%d' "$pos" | base64 | tr '+/' '-_' | tr -d '=')
    [ "$pos" = 0 ] && q="page_size=1000" || q="page_size=1000&cursor=$cursor"
    echo "url = \"$base/invoices/customer/cus_big?$q\""
    echo 'output = "/dev/null"'
  done >"$WORK/curl.cfg"
  cat >"$WORK/floor.sh" <<FLOOR
curl -s -X POST "$base/oauth/token" -H 'content-type: application/json' \\
  -d '{"client_id":"$id","client_secret":"$secret","audience":"$audience","grant_type":"client_credentials"}' |
  sed 's/.*"access_token":"\([^"]*\)".*/authorization: Bearer \1/' >"$WORK/auth"
exec curl -s -f -H @"$WORK/auth" --config "$WORK/curl.cfg"
FLOOR

  declare -A out=()
  for r in $(seq 0 "$runs"); do          # run 0 is a warm-up, not counted
    for who in "${whos[@]}"; do
      rm -f "$WORK/out.csv"
      case $who in
        invoice-desk) cmd=("$APP" export cus_big --out "$WORK/out.csv") ;;
        before) cmd=("$BEFORE" export cus_big --out "$WORK/out.csv") ;;
        python) cmd=(python3 benches/export_natural.py "$base" "$id" "$secret" "$audience" cus_big "$WORK/out.csv") ;;
        curl) cmd=(sh "$WORK/floor.sh") ;;
      esac
      s0=$(ticks "$SANDBOX")
      # Wall and CPU to the microsecond (GNU time prints hundredths: 0.09 against 0.11
      # at 100,000 invoices is a ratio of 1.22 or of 1.0 by rounding alone).
      python3 benches/measure.py "$WORK/time" "${cmd[@]}" >/dev/null 2>"$WORK/err" ||
        { echo "$who failed:"; cat "$WORK/err"; exit 1; }
      s1=$(ticks "$SANDBOX")
      if [ "$who" != curl ]; then
        rows=$(($(wc -l <"$WORK/out.csv") - 1))
        [ "$rows" = "$n" ] || { echo "$who wrote $rows rows, expected $n"; exit 1; }
      fi
      [ "$who" = invoice-desk ] && cp "$WORK/out.csv" "$WORK/ours.csv"
      if [ "$who" = before ]; then
        cmp -s "$WORK/out.csv" "$WORK/ours.csv" || { echo "before's CSV is not ours, byte for byte"; exit 1; }
      fi
      [ "$r" = 0 ] && continue
      read -r wall user sys rss <"$WORK/time"
      out[$who.wall]+="$wall "
      out[$who.cpu]+="$(awk -v u="$user" -v s="$sys" 'BEGIN {print u + s}') "
      out[$who.rss]+="$((rss / 1024)) "
      out[$who.srv]+="$(awk -v d=$((s1 - s0)) -v h="$hz" 'BEGIN {print d / h}') "
    done
  done
  stop_sandbox

  echo
  echo "export of $n invoices (pages of 1000), medians of $runs alternating runs:"
  printf '  %-13s %9s %13s %11s %13s %9s %12s %12s %11s\n' who "wall s" "wall range" "client CPU s" "CPU range" "RSS MB" "sandbox CPU s" "wall ×ours" "CPU ×ours"
  for who in "${whos[@]}"; do
    for k in wall cpu rss srv; do
      eval "m_$k=$(echo "${out[$who.$k]}" | tr ' ' '\n' | grep . | median)"
    done
    r_wall=$(echo "${out[$who.wall]}" | tr ' ' '\n' | grep . | range)
    r_cpu=$(echo "${out[$who.cpu]}" | tr ' ' '\n' | grep . | range)
    [ "$who" = invoice-desk ] && { ours_wall=$m_wall; ours_cpu=$m_cpu; }
    printf '  %-13s %9.3f %13s %11.3f %13s %9d %12.2f %12.2f %11.2f\n' "$who" "$m_wall" "$r_wall" "$m_cpu" "$r_cpu" "$m_rss" "$m_srv" \
      "$(awk -v a="$m_wall" -v b="$ours_wall" 'BEGIN {print a / b}')" \
      "$(awk -v a="$m_cpu" -v b="$ours_cpu" 'BEGIN {print a / b}')"
  done
  echo "  invoice-desk client CPU per invoice: $(awk -v c="$ours_cpu" -v n="$n" 'BEGIN {printf "%.2f", c * 1e6 / n}') µs"
done
