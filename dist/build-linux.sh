#!/usr/bin/env bash
# Builds the Linux package: target/debian/invoice-desk_<version>-1_<arch>.deb (cargo-deb).
# The .deb declares the window libraries the app loads at run time (see Cargo.toml,
# [package.metadata.deb]); install it with `apt-get install ./target/debian/invoice-desk_*.deb`.
# No AppImage: appimagetool is a downloaded binary, which cannot be fetched offline here
# (dist/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo-deb >/dev/null; then
  cargo install cargo-deb --locked
fi
cargo build --release --locked --bin invoice-desk
cargo deb --no-build
deb=$(ls -t target/debian/invoice-desk_*.deb | head -n1)
echo "binary:  target/release/invoice-desk $(du -h target/release/invoice-desk | cut -f1)"
echo "package: $deb $(du -h "$deb" | cut -f1)"
dpkg-deb --field "$deb" Package Version Architecture Depends Recommends
