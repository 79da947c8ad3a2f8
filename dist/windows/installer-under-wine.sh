#!/usr/bin/env bash
# The Windows installer, exercised under Wine (a fresh 64-bit prefix) in an X display
# (Xvfb), as a clerk and an administrator would use it:
#   1. the older installer, silently (/S);
#   2. the installed app started from its Start-menu shortcut, Windows in Spanish: a
#      window in Spanish; "Probar el sandbox" makes the clerk's data (profiles, journal);
#   3. the new installer over it, interactively, with Windows in Spanish: every page in
#      Spanish, the old version removed first, the app started from the last page;
#   4. the installed invoice-desk.exe --version and doctor;
#   5. the uninstaller, interactively in Spanish: it says the clerk's data stays;
#   6. the new installer silently, then again interactively with Windows in English;
#   7. the uninstaller silently, as "Apps & features" runs it (QuietUninstallString).
# After each: program files, shortcut and uninstall entry there (one, with the right
# version) or gone; after an upgrade the app opens with the clerk's profile; after an
# uninstall the clerk's data is untouched (the same bytes as before it).
#   dist/windows/installer-under-wine.sh NEW-setup.exe OLD-setup.exe
# dist/check-packages.sh makes both (the "older" one is this build labelled 0.0.9 when no
# real older release is given: what is proven is the installer's upgrade path).
# Screenshots of every page: $SHOTS (default target/windows-gnu/installer-shots).
# Needs: wine (64-bit), xvfb, xdotool, imagemagick, tesseract-ocr(-spa), locales.
set -euo pipefail
cd "$(dirname "$0")/../.."
new=$(realpath "${1:?usage: installer-under-wine.sh NEW-setup.exe OLD-setup.exe}")
old=$(realpath "${2:?usage: installer-under-wine.sh NEW-setup.exe OLD-setup.exe}")
new_version=$(basename "$new" | sed -n 's/^invoice-desk-\(.*\)-setup\.exe$/\1/p')
old_version=$(basename "$old" | sed -n 's/^invoice-desk-\(.*\)-setup\.exe$/\1/p')
[ -n "$new_version" ] && [ -n "$old_version" ] || { echo "installers are named invoice-desk-VERSION-setup.exe" >&2; exit 2; }
WINE=/usr/lib/wine/wine64
WINESERVER=/usr/lib/wine/wineserver
for t in $WINE Xvfb xdotool import convert tesseract localedef; do
  command -v "$t" >/dev/null || { echo "installer-under-wine.sh: $t is missing (apt-get install wine64 xvfb xdotool imagemagick tesseract-ocr tesseract-ocr-spa locales)" >&2; exit 1; }
done
grep -qx spa <<<"$(tesseract --list-langs 2>/dev/null)" || { echo "installer-under-wine.sh: tesseract-ocr-spa is missing" >&2; exit 1; }
# Wine takes Windows' language from the Unix locale, which must exist.
for l in es_CL en_US; do
  grep -qx "$l.utf8" <<<"$(locale -a)" || localedef -i $l -f UTF-8 $l.UTF-8
done

SHOTS=$(realpath -m "${SHOTS:-target/windows-gnu/installer-shots}")
rm -rf "$SHOTS"; mkdir -p "$SHOTS"
WORK=$(mktemp -d)
XVFB=
cleanup() {
  WINEPREFIX=$WORK/prefix $WINESERVER -k 2>/dev/null || true
  [ -n "$XVFB" ] && kill "$XVFB" 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT
step=0
fail() { echo "WINDOWS INSTALLER CHECK FAILED: $*" >&2; echo "(screenshots: $SHOTS)" >&2; exit 1; }
say() { step=$((step + 1)); echo "[$step] $*"; }

. dist/xvfb.sh
start_xvfb "$WORK" || fail "no X display"
export WINEPREFIX=$WORK/prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" LANG=en_US.UTF-8
$WINE wineboot -i >/dev/null 2>&1 || true
$WINESERVER -w
. dist/windows/wine-prng.sh
wine_prng_shim "$WINEPREFIX/drive_c/windows/system32" "$WORK"

C=$WINEPREFIX/drive_c
PF="$C/Program Files/invoice-desk"
LNK="$C/ProgramData/Microsoft/Windows/Start Menu/Programs/invoice-desk.lnk"
KEY='HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall\invoice-desk'
DATA="$C/users/$(id -un)/AppData/Roaming/invoice-desk"

reg_value() { $WINE reg query "$KEY" /v "$1" 2>/dev/null | tr -d '\r' | sed -n "s/^ *$1 *REG_[A-Z_]* *//p"; }

# The window whose title matches (a regular expression), once it is shown.
wait_window() {
  local w
  for _ in $(seq 1 600); do
    w=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | head -n1 || true)
    [ -n "$w" ] && { echo "$w"; return 0; }
    sleep 0.1
  done
  return 1
}
# The text of a window: a screenshot cropped to it, enlarged, read by tesseract as it
# is and inverted (the installer is dark on light, the app's dark theme the reverse).
read_window() {
  # shellcheck disable=SC2034  # (set by getwindowgeometry --shell, some unused)
  local w=$1 png=$2 lang=$3 X Y WIDTH HEIGHT SCREEN WINDOW
  import -window root "$png"
  eval "$(xdotool getwindowgeometry --shell "$w")"
  convert "$png" -crop "${WIDTH}x${HEIGHT}+${X}+${Y}" -resize 200% -colorspace Gray "$WORK/ocr.png"
  tesseract "$WORK/ocr.png" - -l "$lang" 2>/dev/null || true
  convert "$WORK/ocr.png" -negate -threshold 60% "$WORK/ocr-n.png"
  tesseract "$WORK/ocr-n.png" - -l "$lang" 2>/dev/null || true
}
# Waits (30 s at most) until the window shows text matching the pattern; keeps the
# screenshot as SHOTS/NAME.png. Pages change when the installer gets there, not on a clock.
expect_page() {
  local w=$1 name=$2 lang=$3 re=$4 text
  for _ in $(seq 1 60); do
    text=$(read_window "$w" "$SHOTS/$name.png" "$lang")
    if grep -qiE "$re" <<<"$text"; then echo "    $name: \"$(grep -iEo "$re" <<<"$text" | head -n1)\""; return 0; fi
    sleep 0.5
  done
  echo "--- what the window said:" >&2; echo "$text" >&2
  fail "$name: no text matching /$re/"
}
# Clicks the middle of a word as tesseract finds it in the window (where a person sees it).
# awk reads to the end: leaving early ended tesseract with SIGPIPE, which pipefail made a
# failure (exit 141 in CI).
click_word() {
  # shellcheck disable=SC2034  # (set by getwindowgeometry --shell, some unused)
  local w=$1 word=$2 lang=$3 X Y WIDTH HEIGHT SCREEN WINDOW pos
  import -window root "$WORK/click.png"
  eval "$(xdotool getwindowgeometry --shell "$w")"
  convert "$WORK/click.png" -crop "${WIDTH}x${HEIGHT}+${X}+${Y}" -resize 200% -colorspace Gray "$WORK/click2.png"
  pos=$(tesseract "$WORK/click2.png" - -l "$lang" tsv 2>/dev/null |
    awk -F'\t' -v w="$word" '!done && $12 == w { print int(($7 + $9 / 2) / 2), int(($8 + $10 / 2) / 2); done = 1 }')
  [ -n "$pos" ] || fail "no '$word' to click in the window"
  xdotool mousemove --window "$w" ${pos% *} ${pos#* } click 1
}
press() { press_key "$1" "$2" || fail "could not press $2"; }
# Waits for a Wine process started in the background to end; its exit code.
finish() { local code=0; wait "$1" || code=$?; return $code; }

check_installed() {
  local v=$1
  [ -f "$PF/invoice-desk.exe" ] || fail "no $PF/invoice-desk.exe"
  [ -f "$PF/uninstall.exe" ] || fail "no uninstaller in $PF"
  [ -f "$LNK" ] || fail "no Start-menu shortcut ($LNK)"
  # The shortcut names the installed program (its path is in the .lnk as text).
  grep -aq 'invoice-desk\\invoice-desk.exe' <(tr -d '\0' <"$LNK") || fail "the shortcut does not point at the program"
  [ "$(reg_value DisplayVersion)" = "$v" ] || fail "uninstall entry: version '$(reg_value DisplayVersion)', not $v"
  [ "$(reg_value InstallLocation)" = 'C:\Program Files\invoice-desk' ] || fail "uninstall entry: InstallLocation '$(reg_value InstallLocation)'"
  [ "$(reg_value QuietUninstallString)" = '"C:\Program Files\invoice-desk\uninstall.exe" /S' ] || fail "uninstall entry: QuietUninstallString '$(reg_value QuietUninstallString)'"
  local n
  n=$($WINE reg query 'HKLM\Software\Microsoft\Windows\CurrentVersion\Uninstall' 2>/dev/null | tr -d '\r' | grep -ci 'invoice-desk' || true)
  [ "$n" = 1 ] || fail "$n uninstall entries for invoice-desk"
  if [ -n "${WINDOWS_CA:-}" ]; then
    for f in "$PF/invoice-desk.exe" "$PF/uninstall.exe"; do
      grep -q 'Signature verification: ok' <<<"$(osslsigncode verify -CAfile "$WINDOWS_CA" -in "$f" 2>&1)" || fail "$(basename "$f") as installed is not signed"
    done
  fi
  echo "    installed $v: program, uninstaller, Start-menu shortcut, one uninstall entry$([ -n "${WINDOWS_CA:-}" ] && echo ', signatures verify')"
}
check_removed() {
  [ ! -e "$PF" ] || fail "program files left behind: $(ls "$PF")"
  [ ! -e "$LNK" ] || fail "the Start-menu shortcut is left behind"
  $WINE reg query "$KEY" >/dev/null 2>&1 && fail "the uninstall entry is left behind"
  echo "    removed: program files, shortcut and uninstall entry gone"
}
data_sums() { (cd "$DATA" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum); }
check_data_kept() {
  [ "$(data_sums)" = "$DATA_SUMS" ] || fail "the clerk's data changed: $(data_sums)"
  echo "    the clerk's data is untouched ($(wc -l <<<"$DATA_SUMS") files in %APPDATA%\\invoice-desk)"
}
# The installed app, started from a shortcut or the installer's last page: its window.
app_window() {
  local w
  w=$(wait_window '^invoice-desk$') || fail "the installed app showed no window within 60 s"
  echo "$w"
}
close_app() {
  press "$1" ctrl+q
  for _ in $(seq 1 100); do xdotool search --name '^invoice-desk$' >/dev/null 2>&1 || return 0; sleep 0.1; done
  fail "Ctrl+Q did not close the installed app"
}

# The new installer run by hand with Windows in LOCALE: its window titled TITLE (a regular
# expression), its pages read back in OCR's language (welcome, folder, finish: each must
# show its pattern; screenshots SHOTS-*.png), Enter on each; "Finish" with "Run
# invoice-desk" ticked starts the app. The app opens on the invoice form, in Spanish:
# the clerk's profile and the language chosen at the first start (Windows in Spanish)
# are kept. Then the installed files and entry are checked.
#   install_by_hand LOCALE TITLE SHOTS OCR WELCOME FOLDER FINISH
install_by_hand() {
  local locale=$1 title=$2 shots=$3 ocr=$4 w inst
  LANG=$locale.UTF-8 $WINE "$new" &
  inst=$!
  w=$(wait_window "$title") || fail "no installer window titled /$title/"
  expect_page "$w" "$shots-welcome" "$ocr" "$5"
  press "$w" Return
  expect_page "$w" "$shots-folder" "$ocr" "$6"
  grep -q 'Program Files' <(read_window "$w" "$WORK/x.png" eng) || fail "the folder page does not offer Program Files"
  press "$w" Return
  expect_page "$w" "$shots-finish" "$ocr" "$7"
  press "$w" Return
  finish $inst || fail "the installer ended with code $?"
  w=$(app_window)
  expect_page "$w" "$shots-app" spa 'Emitiendo con el perfil'
  close_app "$w"
  $WINESERVER -w
  check_installed "$new_version"
}

say "the older installer ($old_version), silently"
$WINE "$old" /S || fail "the older installer failed ($?)"
check_installed "$old_version"

say "the installed app, from the Start-menu shortcut, Windows in Spanish"
LANG=es_CL.UTF-8 $WINE start /unix "$LNK" >/dev/null 2>&1
w=$(app_window)
expect_page "$w" 02-app-es spa 'Probar el sandbox'
click_word "$w" sandbox spa
expect_page "$w" 02-app-sandbox spa 'Emitiendo con el perfil'
close_app "$w"
$WINESERVER -w
[ -f "$DATA/invoice-desk/config/profiles.toml" ] || fail "the app kept no profiles in %APPDATA% (looked in $DATA)"
echo "    the clerk's data: $(cd "$DATA" && find . -type f | tr '\n' ' ')"

say "the new installer ($new_version) over it, interactively, Windows in Spanish"
install_by_hand es_CL '^Instalación de invoice-desk$' 03-es spa 'Bienvenido' 'Elegir lugar de instalaci' 'Completando'

say "the installed invoice-desk.exe --version and doctor"
v=$($WINE "$PF/invoice-desk.exe" --version | tr -d '\r')
echo "    $v"
[ "$v" = "invoice-desk $new_version" ] || [ "$new_version" != "$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)" ] || fail "--version says '$v'"
set +e
doctor=$($WINE "$PF/invoice-desk.exe" doctor 2>&1 | tr -d '\r')
code=$?
set -e
sed 's/^/    | /' <<<"$doctor"
# A fresh Wine prefix has all doctor checks, the keyring (Windows' Credential Manager) among them.
[ "$code" = 0 ] || fail "doctor found a problem (exit $code)"

say "the uninstaller, interactively, Windows in Spanish"
DATA_SUMS=$(data_sums)
LANG=es_CL.UTF-8 $WINE "$PF/uninstall.exe" &
un=$!
w=$(wait_window '^Desinstalación de invoice-desk *$') || fail "no uninstaller window titled in Spanish"
expect_page "$w" 05-es-uninstall spa 'se conservan'
press "$w" Return     # "Desinstalar"
expect_page "$w" 05-es-uninstalled spa 'Completad'
press "$w" Return     # "Cerrar"
finish $un || true    # the uninstaller hands over to its copy in %TEMP% and ends at once
$WINESERVER -w
check_removed
check_data_kept

say "the new installer, silently"
$WINE "$new" /S || fail "the installer failed ($?)"
check_installed "$new_version"

say "the new installer again, interactively, Windows in English (a repair over itself)"
install_by_hand en_US '^invoice-desk Setup$' 06-en eng 'Welcome to invoice-desk Setup' 'Choose Install Location' 'Completing'

say "the uninstaller, silently, as Apps & features runs it"
DATA_SUMS=$(data_sums)
$WINE "$PF/uninstall.exe" /S || fail "the uninstaller failed ($?)"
$WINESERVER -w
check_removed
check_data_kept
echo "Windows installer checked under Wine: $(ls "$SHOTS" | wc -l) screenshots in $SHOTS"
