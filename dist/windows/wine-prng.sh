# shellcheck shell=bash
# Sourced by the scripts that run Rust programs under Wine (windows-under-wine.sh,
# installer-under-wine.sh): wine_prng_shim PREFIX_SYSTEM32 WORKDIR puts a
# bcryptprimitives.dll in the prefix. Rust's std asks it for randomness (ProcessPrng,
# there since Windows 10); Wine 8 lacks it, and without it every Rust program exits with
# code 53 before main. Built with mingw-w64 from this C, which hands the work to BCrypt.
wine_prng_shim() {
  local sys32=$1 work=$2
  [ -f "$sys32/bcryptprimitives.dll" ] && return 0
  cat >"$work/prng.c" <<'C'
#include <windows.h>
#include <bcrypt.h>
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
  while (len > 0) {
    ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
    if (BCryptGenRandom(NULL, data, n, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0) return FALSE;
    data += n; len -= n;
  }
  return TRUE;
}
C
  x86_64-w64-mingw32-gcc -shared -O2 -o "$sys32/bcryptprimitives.dll" "$work/prng.c" -lbcrypt
}
