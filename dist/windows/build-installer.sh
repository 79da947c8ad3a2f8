#!/usr/bin/env bash
# Builds the Windows installer on Linux, as the release workflow does: the app for
# x86_64-pc-windows-gnu (mingw-w64), signed; then dist/windows/installer.nsi with Debian's
# makensis, the uninstaller and the installer each signed as they are written.
#   dist/windows/build-installer.sh [--profile release|NAME] [--version V] [--exe FILE]
# Prints the installer's path on its last line: $CARGO_TARGET_DIR/installer/invoice-desk-V-setup.exe
# (CARGO_TARGET_DIR defaults to target/windows-gnu, shared with windows-under-wine.sh).
# --exe packs a given invoice-desk.exe instead of building one. --version labels the
# installer with another version (the upgrade test makes an "older" installer with it).
# Signing: dist/windows/sign.sh, with WINDOWS_CERT_PFX (release) or WINDOWS_TEST_CERT (a
# throwaway certificate); with neither set the files stay unsigned and this says so.
# Needs: rustup target x86_64-pc-windows-gnu, gcc-mingw-w64-x86-64, nsis, osslsigncode.
set -euo pipefail
cd "$(dirname "$0")/../.."
profile=release
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)
exe=
while [ $# -gt 0 ]; do
  case $1 in
    --profile) profile=$2; shift 2 ;;
    --version) version=$2; shift 2 ;;
    --exe) exe=$2; shift 2 ;;
    *) echo "build-installer.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
T=x86_64-pc-windows-gnu
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/windows-gnu}
for tool in makensis x86_64-w64-mingw32-gcc osslsigncode; do
  command -v $tool >/dev/null || { echo "build-installer.sh: $tool is missing (apt-get install nsis gcc-mingw-w64-x86-64 osslsigncode)" >&2; exit 1; }
done
sign=
# makensis runs the signing commands from the script's folder: paths made absolute.
[ -n "${WINDOWS_CERT_PFX:-}" ] && WINDOWS_CERT_PFX=$(realpath "$WINDOWS_CERT_PFX") && export WINDOWS_CERT_PFX
[ -n "${WINDOWS_TEST_CERT:-}" ] && WINDOWS_TEST_CERT=$(realpath -m "$WINDOWS_TEST_CERT") && export WINDOWS_TEST_CERT
if [ -n "${WINDOWS_CERT_PFX:-}${WINDOWS_TEST_CERT:-}" ]; then
  sign="$PWD/dist/windows/sign.sh"
else
  echo "build-installer.sh: no certificate set: the program and installer are NOT signed" >&2
fi
out=$(realpath -m "$CARGO_TARGET_DIR/installer")
mkdir -p "$out"
if [ -z "$exe" ]; then
  grep -qx $T <<<"$(rustup target list --installed)" || rustup target add $T
  export CC_x86_64_pc_windows_gnu=x86_64-w64-mingw32-gcc AR_x86_64_pc_windows_gnu=x86_64-w64-mingw32-ar
  export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
  cargo build --locked --target $T --profile "$profile" --bin invoice-desk
  dir=$profile; [ "$profile" = dev ] && dir=debug
  exe=$CARGO_TARGET_DIR/$T/$dir/invoice-desk.exe
fi
# The program is signed before it is packed (a copy: the build's own file stays as built).
cp "$exe" "$out/invoice-desk.exe"
[ -n "$sign" ] && "$sign" "$out/invoice-desk.exe"
# Windows wants four numbers: 0.1.0 -> 0.1.0.0; a pre-release's suffix is dropped there.
v4=$(echo "$version" | sed 's/[-+].*//' | awk -F. '{printf "%d.%d.%d.0", $1, $2, $3}')
setup=$out/invoice-desk-$version-setup.exe
args=(-V2 -WX -DVERSION="$version" -DVERSION4="$v4" -DEXE="$out/invoice-desk.exe" -DOUTFILE="$setup")
[ -n "$sign" ] && args+=(-DSIGN="\"$sign\" \"%1\"")
makensis "${args[@]}" dist/windows/installer.nsi
echo "$setup"
