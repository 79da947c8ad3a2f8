#!/usr/bin/env bash
# The Windows build, checked from Linux: clippy for x86_64-pc-windows-gnu (mingw-w64 builds
# the C parts: SQLite, aws-lc), then every test binary run under Wine. It does not replace
# the Windows job of .github/workflows/ci.yml (a real Windows, MSVC); it finds what only
# Windows shows (paths, signals) before a push. Needs network for rustup and apt-get.
#   dist/windows-under-wine.sh
# Left out: the image snapshots (tests named snapshot_*: Wine has no GPU adapter for
# wgpu). Wine is far slower than Windows at SQLite's file I/O (the 100,000-entry journal
# test: 170 s here, 10 s on Linux), so the UI tests wait longer (INVOICE_DESK_TEST_PATIENCE).
set -euo pipefail
cd "$(dirname "$0")/.."
T=x86_64-pc-windows-gnu
WINE=/usr/lib/wine/wine64
grep -qx $T <<<"$(rustup target list --installed)" || rustup target add $T
if ! command -v x86_64-w64-mingw32-gcc >/dev/null || [ ! -x $WINE ]; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc-mingw-w64-x86-64 wine wine64 >/dev/null
fi
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/windows-gnu}
export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
cargo clippy --locked --target $T --all-targets -- -D warnings
exes=$(cargo test --locked --target $T --no-run --message-format=json |
  python3 -c 'import sys, json
for l in sys.stdin:
    m = json.loads(l)
    if m.get("executable") and m.get("profile", {}).get("test"):
        print(m["target"]["name"], m["executable"])')
export WINEPREFIX=${WINEPREFIX:-$(realpath -m "$CARGO_TARGET_DIR/wine")} WINEDEBUG=-all INVOICE_DESK_TEST_PATIENCE=300
mkdir -p "$WINEPREFIX"
"$WINE" cmd /c exit >/dev/null 2>&1 || true   # creates the prefix
. dist/windows/wine-prng.sh
wine_prng_shim "$WINEPREFIX/drive_c/windows/system32" "$CARGO_TARGET_DIR"
failed=0
while read -r name exe; do
  if out=$("$WINE" "$exe" --skip snapshot_ 2>&1); then
    echo "$name: $(grep -a 'test result:' <<<"$out" | tail -n1)"
  else
    failed=1
    echo "$name: FAILED"
    grep -a -A12 -- '----.*stdout ----' <<<"$out" | head -n 40
  fi
done <<<"$exes"
exit $failed
