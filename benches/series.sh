# shellcheck shell=bash
# Sourced by the bench scripts that time a command several times (needs WORK):
# `run NAME COMMAND…` times one run (wall and peak RSS, GNU time) and appends it to
# $WORK/NAME.t, its output in $WORK/NAME.out (a failure stops the script, saying why);
# `said NAME` prints "median s (min–max), peak RSS median MB" of NAME's runs.
run() {
  local name=$1
  shift
  /usr/bin/time -f '%e %M' -o "$WORK/t" "$@" >"$WORK/$name.out" 2>&1 ||
    { echo "$name failed:" >&2; tail -3 "$WORK/$name.out" >&2; exit 1; }
  cat "$WORK/t" >>"$WORK/$name.t"
}
said() {
  sort -g "$WORK/$1.t" | awk '{w[NR] = $1} END {printf "%s s (%s–%s)", w[int((NR + 1) / 2)], w[1], w[NR]}'
  awk '{print $2}' "$WORK/$1.t" | sort -g | awk '{r[NR] = $1} END {printf ", peak RSS %d MB", r[int((NR + 1) / 2)] / 1024}'
}
