#!/usr/bin/env bash
# Builds the Linux packages, each with its manual page made from the command line's
# definition (dist/linux/manpage.rs):
#   dist/build-linux.sh          target/debian/invoice-desk_<version>-1_<arch>.deb (cargo-deb)
#   dist/build-linux.sh rpm      target/generate-rpm/invoice-desk-<version>-1.<arch>.rpm
# The package's path is the last line printed. The .deb declares the window libraries the
# app loads at run time (see Cargo.toml, [package.metadata.deb]); install it with
# `apt-get install ./target/debian/invoice-desk_*.deb`. dist/check-packages.sh checks both.
# No AppImage: appimagetool is a downloaded binary, which cannot be fetched offline here
# (dist/README.md).
# LINUX_PROFILE (default release) is the cargo profile of the packed program; .ci/run packs
# the `dev` build its tests already made (what it proves is the package, not the optimizer).
set -euo pipefail
cd "$(dirname "$0")/.."
kind=${1:-deb}
profile=${LINUX_PROFILE:-release}
case $profile in release) dir=release ;; dev) dir=debug ;; *) dir=$profile ;; esac
cargo build --profile "$profile" --locked --bin invoice-desk
mkdir -p target/man
cargo run --quiet --locked --example manpage >target/man/invoice-desk.1.part
mv target/man/invoice-desk.1.part target/man/invoice-desk.1
case $kind in
  deb)
    command -v cargo-deb >/dev/null || cargo install cargo-deb --locked --version 3.8.0
    # cargo-deb strips a release build by itself; a dev build only when asked.
    strip=()
    [ "$profile" = release ] || strip=(--strip)
    cargo deb --no-build --locked --profile "$profile" "${strip[@]}"
    pkg=$(ls -t target/debian/invoice-desk_*.deb | head -n1)
    dpkg-deb --field "$pkg" Package Version Architecture Depends Recommends ;;
  rpm)
    command -v cargo-generate-rpm >/dev/null || cargo install cargo-generate-rpm --locked --version 0.21.1
    cargo generate-rpm
    pkg=$(ls -t target/generate-rpm/invoice-desk-*.rpm | head -n1) ;;
  *) echo "build-linux.sh: deb or rpm, not '$kind'" >&2; exit 2 ;;
esac
echo "binary:  target/$dir/invoice-desk $(du -h "target/$dir/invoice-desk" | cut -f1)"
echo "package: $pkg $(du -h "$pkg" | cut -f1)"
echo "$pkg"
