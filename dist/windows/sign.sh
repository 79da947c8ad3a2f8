#!/usr/bin/env bash
# Authenticode-signs one Windows file in place with osslsigncode, then verifies the
# signature: the same steps here (a throwaway certificate) and in the release workflow
# (the real one). Only the certificate differs.
#   dist/windows/sign.sh FILE.exe
# The certificate, one of:
#   WINDOWS_CERT_PFX=file.pfx     the release certificate (PKCS#12) and its chain;
#     WINDOWS_CERT_PASSWORD       its password (read by osslsigncode from a 0600 file,
#                                 never put on a command line);
#     WINDOWS_TIMESTAMP_URL       an RFC 3161 time-stamping service (optional: with it the
#                                 signature stays valid after the certificate expires);
#     WINDOWS_CERT_CA             the root to verify against (default: the system's roots).
#   WINDOWS_TEST_CERT=DIR         a throwaway authority and code-signing certificate, made
#                                 in DIR on first use (openssl) and verified against it.
set -euo pipefail
f=${1:?usage: sign.sh FILE}
[ -f "$f" ] || { echo "sign.sh: no such file: $f" >&2; exit 1; }
command -v osslsigncode >/dev/null || { echo "sign.sh: osslsigncode is missing (apt-get install osslsigncode)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ts=()
if [ -n "${WINDOWS_CERT_PFX:-}" ]; then
  pfx=$WINDOWS_CERT_PFX
  ( umask 077; printf '%s' "${WINDOWS_CERT_PASSWORD:-}" >"$tmp/pass" )
  ca=${WINDOWS_CERT_CA:-/etc/ssl/certs/ca-certificates.crt}
  [ -n "${WINDOWS_TIMESTAMP_URL:-}" ] && ts=(-ts "$WINDOWS_TIMESTAMP_URL")
elif [ -n "${WINDOWS_TEST_CERT:-}" ]; then
  d=$WINDOWS_TEST_CERT
  mkdir -p "$d"
  if [ ! -f "$d/signer.pfx" ]; then
    # A root that signs a leaf with the code-signing purpose, as a real chain has.
    openssl req -x509 -newkey rsa:3072 -nodes -days 30 -subj "/CN=invoice-desk TEST root - not for release" \
      -keyout "$d/ca.key" -out "$d/ca.pem" -addext basicConstraints=critical,CA:TRUE \
      -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
    openssl req -newkey rsa:3072 -nodes -subj "/CN=invoice-desk TEST signer - not for release" \
      -keyout "$d/signer.key" -out "$d/signer.csr" 2>/dev/null
    printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=codeSigning\n' >"$d/ext"
    openssl x509 -req -in "$d/signer.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial \
      -days 30 -extfile "$d/ext" -out "$d/signer.pem" 2>/dev/null
    openssl pkcs12 -export -inkey "$d/signer.key" -in "$d/signer.pem" -certfile "$d/ca.pem" \
      -passout pass:test -out "$d/signer.pfx"
  fi
  pfx=$d/signer.pfx
  printf test >"$tmp/pass"
  ca=$d/ca.pem
else
  echo "sign.sh: no certificate: set WINDOWS_CERT_PFX (release) or WINDOWS_TEST_CERT (a throwaway one)" >&2
  exit 1
fi
osslsigncode sign -pkcs12 "$pfx" -readpass "$tmp/pass" -h sha256 \
  -n "invoice-desk" -i "https://invoice-desk.invalid" "${ts[@]}" \
  -in "$f" -out "$tmp/signed" >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; exit 1; }
# The signed file replaces the original only once it verifies.
if ! osslsigncode verify -CAfile "$ca" -in "$tmp/signed" >"$tmp/verify" 2>&1; then
  echo "sign.sh: the signature of $f does not verify:" >&2; cat "$tmp/verify" >&2; exit 1
fi
grep -q 'Signature verification: ok' "$tmp/verify" || { cat "$tmp/verify" >&2; exit 1; }
cat "$tmp/signed" >"$f"
echo "signed and verified: $f ($(grep -m1 'Subject:' "$tmp/verify" | sed 's/^[[:space:]]*//'))"
