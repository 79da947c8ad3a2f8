#!/usr/bin/env bash
# The release's macOS signing (the release workflow's macOS jobs; it needs a Mac): the
# .app signed with the Developer ID (hardened runtime, secure timestamp), notarized by
# Apple and stapled; then the .dmg made from it, signed, notarized and stapled.
#   dist/macos/sign-and-notarize.sh target/packages/invoice-desk.app OUT.dmg
# From the repository's secrets (dist/README.md): APPLE_CERTIFICATE (the .p12, base64),
# APPLE_CERTIFICATE_PASSWORD, APPLE_SIGNING_IDENTITY, APPLE_ID, APPLE_PASSWORD (an
# app-specific password), APPLE_TEAM_ID. The certificate lives only in a temporary
# keychain, deleted at the end.
set -euo pipefail
app=${1:?usage: sign-and-notarize.sh APP OUT.dmg}
dmg=${2:?usage: sign-and-notarize.sh APP OUT.dmg}
for v in APPLE_CERTIFICATE APPLE_CERTIFICATE_PASSWORD APPLE_SIGNING_IDENTITY APPLE_ID APPLE_PASSWORD APPLE_TEAM_ID; do
  [ -n "${!v:-}" ] || { echo "sign-and-notarize.sh: $v is not set: a release is never unsigned" >&2; exit 1; }
done
tmp=$(mktemp -d)
kc=$tmp/release.keychain-db
kcpass=$(openssl rand -hex 16)
cleanup() { security delete-keychain "$kc" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
printf '%s' "$APPLE_CERTIFICATE" | base64 --decode >"$tmp/cert.p12"
security create-keychain -p "$kcpass" "$kc"
security set-keychain-settings -lut 3600 "$kc"
security unlock-keychain -p "$kcpass" "$kc"
security import "$tmp/cert.p12" -k "$kc" -P "$APPLE_CERTIFICATE_PASSWORD" -T /usr/bin/codesign
security set-key-partition-list -S apple-tool:,apple:,codesign: -s -k "$kcpass" "$kc" >/dev/null
# shellcheck disable=SC2046  # (the existing keychains, one word each)
security list-keychains -d user -s "$kc" $(security list-keychains -d user | tr -d '"')
sign() { codesign --force --timestamp --keychain "$kc" --sign "$APPLE_SIGNING_IDENTITY" "$@"; }
# Apple's verdict, waited for; anything but "Accepted" stops the release.
notarize() {
  local out
  out=$(xcrun notarytool submit "$1" --apple-id "$APPLE_ID" --password "$APPLE_PASSWORD" \
    --team-id "$APPLE_TEAM_ID" --wait --output-format json)
  echo "$out"
  grep -q '"status" *: *"Accepted"' <<<"$out" || { echo "notarization of $1 was not accepted" >&2; exit 1; }
}
sign --options runtime "$app"
codesign --verify --deep --strict --verbose=2 "$app"
ditto -c -k --keepParent "$app" "$tmp/app.zip"
notarize "$tmp/app.zip"
xcrun stapler staple "$app"
spctl --assess --type execute --verbose "$app"
hdiutil create -volname invoice-desk -srcfolder "$app" -ov -format UDZO "$dmg"
sign "$dmg"
notarize "$dmg"
xcrun stapler staple "$dmg"
echo "signed, notarized and stapled: $app, $dmg"
