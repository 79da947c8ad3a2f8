#!/usr/bin/env bash
# Every package check this machine can make before a tag is pushed (dist/README.md):
#   deb      the .deb built (dist/build-linux.sh) and checked: lintian,
#            desktop-file-validate, appstreamcli, installed, started by its menu entry and
#            purged in a clean Debian 12 root (dist/linux/check-deb.sh);
#   rpm      the .rpm built (cargo-generate-rpm) and read back with rpm -qip / -qlp;
#   windows  the program for Windows (mingw-w64) and the NSIS installer (makensis), both
#            Authenticode-signed with a throwaway certificate and verified (osslsigncode);
#            an "older" installer of the same build labelled 0.0.9; then, under Wine,
#            install/upgrade/start/doctor/uninstall in Spanish and English
#            (dist/windows/installer-under-wine.sh).
#   macos    cargo check and clippy for both Macs, with zig as the C compiler
#            (dist/macos/check-on-linux.sh).
#   dist/check-packages.sh [deb] [rpm] [windows] [macos]        (default: all four)
# Runs as root on Debian 12 (apt-get installs what is missing). Network: apt, debootstrap,
# crates.io (cargo-deb, cargo-generate-rpm), rustup targets, PyPI (ziglang).
# WINDOWS_PROFILE (default release) is the cargo profile of the Windows program; .ci/run
# uses a faster one (package-check) since what it proves is the installer, not the build.
# MACOS_ARCHES (default both: aarch64 x86_64) are the Macs checked.
set -euo pipefail
cd "$(dirname "$0")/.."
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(deb rpm windows macos)
has() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
for p in "${parts[@]}"; do
  case $p in deb | rpm | windows | macos) ;; *) echo "check-packages.sh: unknown part '$p' (deb, rpm, windows, macos)" >&2; exit 2 ;; esac
done
need=(xvfb xauth xdotool imagemagick)
has deb && need+=(lintian desktop-file-utils appstream debootstrap)
has rpm && need+=(rpm)
has windows && need+=(nsis osslsigncode gcc-mingw-w64-x86-64 wine wine64 tesseract-ocr tesseract-ocr-spa locales)
missing=()
for pkg in "${need[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
declare -A took
run() {
  local name=$1 t0=$SECONDS
  shift
  echo "=== $name"
  "$@"
  took[$name]=$((SECONDS - t0))
}

deb() {
  local deb
  deb=$(dist/build-linux.sh | tail -n1)
  DEB_SHOT=target/debian/installed-app.png dist/linux/check-deb.sh "$deb"
}

rpm_() {
  local rpm
  rpm=$(dist/build-linux.sh rpm | tail -n1)
  rpm -qip "$rpm"
  grep -qx /usr/bin/invoice-desk <<<"$(rpm -qlp "$rpm")" || { echo "the .rpm has no /usr/bin/invoice-desk" >&2; return 1; }
  echo "    requires: $(rpm -qp --requires "$rpm" | grep -v -e '\.so' -e '^rpmlib' | tr '\n' ' ')"
  echo "rpm: $rpm reads back ($(rpm -qlp "$rpm" | wc -l) files)"
}

windows() {
  local dir=${CARGO_TARGET_DIR:-target/windows-gnu} setup old exe
  export WINDOWS_TEST_CERT
  WINDOWS_TEST_CERT=$(realpath -m "$dir/test-cert")
  rm -rf "$WINDOWS_TEST_CERT"    # a new throwaway certificate each run
  setup=$(dist/windows/build-installer.sh --profile "${WINDOWS_PROFILE:-release}" | tail -n1)
  exe=$(realpath -m "$dir/installer/invoice-desk.exe")
  cp "$exe" "$dir/invoice-desk-signed.exe"
  # The "older version": this build under an older label, unless a real one is given.
  old=${OLD_WINDOWS_SETUP:-$(dist/windows/build-installer.sh --exe "$dir/invoice-desk-signed.exe" --version 0.0.9 | tail -n1)}
  for f in "$setup" "$old"; do
    # (grep -q reads a captured text: a pipe into it can end the writer with SIGPIPE,
    # which pipefail turns into a failure; a CI run failed so, exit 141, on a tesseract pipe)
    grep -q 'Signature verification: ok' <<<"$(osslsigncode verify -CAfile "$WINDOWS_TEST_CERT/ca.pem" -in "$f")"
  done
  echo "installers: $setup ($(du -h "$setup" | cut -f1)), $old"
  WINDOWS_CA=$WINDOWS_TEST_CERT/ca.pem SHOTS=$dir/installer-shots dist/windows/installer-under-wine.sh "$setup" "$old"
}

macos() {
  # shellcheck disable=SC2086 # a list of arches, split on purpose
  dist/macos/check-on-linux.sh ${MACOS_ARCHES:-}
}

for p in "${parts[@]}"; do
  f=$p; [ "$p" = rpm ] && f=rpm_   # (rpm itself is the command that reads it back)
  run "$p" "$f"
done
echo "=== all package checks passed:"
for p in "${parts[@]}"; do echo "    $p: ${took[$p]} s"; done
