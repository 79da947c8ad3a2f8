#!/usr/bin/env bash
# macOS compiled here, on Linux: `cargo clippy -D warnings` (all targets, so a check too)
# for aarch64-apple-darwin and x86_64-apple-darwin. Rust needs no Mac for that; the C
# parts (SQLite, aws-lc) are compiled by build scripts, and zig (PyPI's `ziglang`, kept in
# target/zig-venv) is their C compiler for the Mac: it carries macOS's libc headers.
#   dist/macos/check-on-linux.sh [aarch64|x86_64 ...]     (default: both)
# Not proven here, needing a real Mac (the release workflow's macOS runners do it):
# linking (Apple's SDK and linker), the keychain, the .app starting, codesign and
# notarization.
set -euo pipefail
cd "$(dirname "$0")/../.."
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(aarch64 x86_64)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/macos-check}
venv=target/zig-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -m ziglang version >/dev/null 2>&1; then
  python3 -m venv "$venv" 2>/dev/null || { apt-get install -y -qq python3-venv >/dev/null && python3 -m venv "$venv"; }
  "$venv/bin/pip" install --quiet ziglang
fi
echo "zig $("$venv/bin/python" -m ziglang version)"
wrap=$(realpath -m "$CARGO_TARGET_DIR/zig-wrappers")
mkdir -p "$wrap"
for arch in "${arches[@]}"; do
  zt=$arch; [ "$arch" = aarch64 ] || zt=x86_64
  # cc-rs speaks Apple clang's dialect (-arch, a versioned target); zig takes its own
  # -target, so the wrapper drops what zig would refuse.
  cat >"$wrap/cc-$arch" <<W
#!/usr/bin/env bash
args=()
skip=0
for a in "\$@"; do
  if [ \$skip = 1 ]; then skip=0; continue; fi
  case \$a in
    -arch) skip=1 ;;
    --target=*|-mmacosx-version-min=*) ;;
    *) args+=("\$a") ;;
  esac
done
exec "$(realpath "$venv")/bin/python" -m ziglang cc -target $zt-macos.11.0 "\${args[@]}"
W
  cat >"$wrap/ar" <<W
#!/usr/bin/env bash
exec "$(realpath "$venv")/bin/python" -m ziglang ar "\$@"
W
  chmod +x "$wrap/cc-$arch" "$wrap/ar"
done
for arch in "${arches[@]}"; do
  T=$arch-apple-darwin
  grep -qx "$T" <<<"$(rustup target list --installed)" || rustup target add "$T"
  v=${T//-/_}
  export "CC_$v=$wrap/cc-$arch" "AR_$v=$wrap/ar"
  # Clippy type-checks every target as `cargo check` does (the same dependencies, built
  # once), and lints: one pass instead of two.
  echo "== $T: cargo clippy -D warnings (all targets)"
  cargo clippy --locked --target "$T" --all-targets -- -D warnings
done
echo "macOS compiled: ${arches[*]} (clippy clean)"
