#!/usr/bin/env bash
# The .deb checked by Debian's own tools, then installed, started and removed in a clean
# Debian 12 root:
#   1. lintian (no errors, no warnings: each one we accept is overridden in
#      dist/linux/lintian-overrides with its reason);
#   2. desktop-file-validate and appstreamcli validate on the files as packaged;
#   3. in a fresh Debian 12 root (debootstrap, minbase, kept as a tarball and unpacked anew
#      each run): apt-get install ./the.deb pulls in what it declares; the app is started
#      by its menu entry's Exec line, under Xvfb, and must show its window; apt-get purge
#      then leaves none of its files behind.
#   dist/linux/check-deb.sh target/debian/invoice-desk_*.deb
# Needs root (chroot, bind mounts), network for debootstrap and apt, and lintian,
# desktop-file-utils, appstream, debootstrap, xvfb, xdotool, imagemagick.
set -euo pipefail
cd "$(dirname "$0")/../.."
deb=$(realpath "${1:?usage: check-deb.sh FILE.deb}")
for t in lintian desktop-file-validate appstreamcli debootstrap Xvfb xdotool import; do
  command -v $t >/dev/null || { echo "check-deb.sh: $t is missing (apt-get install lintian desktop-file-utils appstream debootstrap xvfb xdotool imagemagick)" >&2; exit 1; }
done
WORK=$(mktemp -d)
ROOT=$WORK/root
XVFB=
APP=
mounted=()
cleanup() {
  [ -n "$APP" ] && kill "$APP" 2>/dev/null
  [ -n "$XVFB" ] && kill "$XVFB" 2>/dev/null
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[$i]}" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT
fail() { echo "DEB CHECK FAILED: $*" >&2; exit 1; }

echo "[1] lintian $(basename "$deb")"
# An error or a warning fails; a warning we accept is overridden in the package with its
# reason (dist/linux/lintian-overrides), and lintian lists those it honoured.
ok=1
out=$(lintian --fail-on error,warning --info --display-level '>=warning' "$deb" 2>&1) || ok=0
{ grep -v 'root privileges' <<<"$out" || true; } | sed 's/^/    /'
[ $ok = 1 ] || fail "lintian reports errors or warnings"
# (Shown apart: with --show-overrides lintian exits 2 even when every tag is overridden.)
lintian --fail-on none --show-overrides "$deb" 2>&1 | grep '^O:' | sed 's/^/    overridden, with its reason: /' || true
echo "    no lintian errors; no warnings but those overridden with a reason"

echo "[2] the desktop entry and the AppStream metadata, as packaged"
mkdir "$WORK/pkg"
dpkg-deb -x "$deb" "$WORK/pkg"
desktop=$WORK/pkg/usr/share/applications/invoice-desk.desktop
desktop-file-validate "$desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "$WORK"/pkg/usr/share/metainfo/*.metainfo.xml || fail "appstreamcli validate"
exec_line=$(sed -n 's/^Exec=//p' "$desktop" | head -n1)
echo "    valid; the menu entry runs: $exec_line"

echo "[3] install, start and purge in a clean Debian 12 root"
cache=${DEBIAN_ROOT_CACHE:-target/debian-root/bookworm-minbase.tar}
if [ ! -f "$cache" ]; then
  mkdir -p "$(dirname "$cache")"
  debootstrap --variant=minbase bookworm "$WORK/fresh" http://deb.debian.org/debian >"$WORK/debootstrap.log" 2>&1 ||
    { tail -n 20 "$WORK/debootstrap.log" >&2; fail "debootstrap"; }
  tar -C "$WORK/fresh" -cf "$cache.part" . && mv "$cache.part" "$cache"
  rm -rf "$WORK/fresh"
fi
mkdir "$ROOT"
tar -C "$ROOT" -xf "$cache"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
for m in dev proc sys; do
  mount --bind "/$m" "$ROOT/$m" && mounted+=("$ROOT/$m")
done
. dist/xvfb.sh
start_xvfb "$WORK" || fail "no X display"
mkdir -p "$ROOT/tmp/.X11-unix"
mount --bind /tmp/.X11-unix "$ROOT/tmp/.X11-unix" && mounted+=("$ROOT/tmp/.X11-unix")
in_root() { chroot "$ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }
before=$WORK/files-before
in_root find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /var/cache -o -path /var/lib/apt/lists \) -prune -o -print | LC_ALL=C sort >"$before"
cp "$deb" "$ROOT/tmp/invoice-desk.deb"
in_root apt-get update -qq >/dev/null || fail "apt-get update in the root"
in_root apt-get install -y -qq --no-install-recommends /tmp/invoice-desk.deb >"$WORK/install.log" 2>&1 ||
  { tail -n 20 "$WORK/install.log" >&2; fail "apt-get install ./the.deb"; }
echo "    installed with $(grep -c '^Setting up' "$WORK/install.log") packages set up (the .deb and what it depends on)"
in_root dpkg -L invoice-desk | LC_ALL=C sort >"$WORK/owned"
[ -x "$ROOT/usr/bin/invoice-desk" ] || fail "no /usr/bin/invoice-desk"

# The menu entry's Exec line, as a desktop would run it: a fresh user's first start.
mkdir -p "$ROOT/tmp/home"
chroot "$ROOT" env -i PATH=/usr/bin:/bin HOME=/tmp/home DISPLAY="$DISPLAY" LANG=C.UTF-8 \
  INVOICE_DESK_TRACE=1 sh -c "exec $exec_line" >"$WORK/app.log" 2>&1 &
APP=$!
w=
for _ in $(seq 1 600); do
  w=$(xdotool search --onlyvisible --name '^invoice-desk$' 2>/dev/null | head -n1 || true)
  [ -n "$w" ] && grep -q first-frame "$WORK/app.log" && break
  kill -0 "$APP" 2>/dev/null || { tail -n 20 "$WORK/app.log" >&2; fail "the installed app exited before showing a window"; }
  sleep 0.1
done
[ -n "$w" ] || { tail -n 20 "$WORK/app.log" >&2; fail "the installed app showed no window within 60 s"; }
shot=${DEB_SHOT:-$WORK/deb-app.png}
import -window root "$shot"
colors=$(convert "$shot" -format '%k' info:)
[ "$colors" -gt 20 ] || fail "the installed app's window is blank ($colors colours)"
press_key "$w" ctrl+q || fail "Ctrl+Q could not be sent"
for _ in $(seq 1 100); do kill -0 "$APP" 2>/dev/null || break; sleep 0.1; done
kill -0 "$APP" 2>/dev/null && fail "Ctrl+Q did not close the installed app"
code=0; wait "$APP" || code=$?
APP=
[ "$code" = 0 ] || fail "the installed app exited with code $code"
echo "    started by its menu entry (Exec=$exec_line): a window ($colors colours), closed cleanly"

in_root apt-get purge -y -qq invoice-desk >"$WORK/purge.log" 2>&1 || { tail -n 20 "$WORK/purge.log" >&2; fail "apt-get purge"; }
in_root dpkg -s invoice-desk >/dev/null 2>&1 && fail "dpkg still knows invoice-desk after purge"
left=()
while read -r f; do
  [ -e "$ROOT$f" ] || continue
  # Folders shared with other packages (/usr/share/icons/hicolor/…) stay, as they should.
  [ -d "$ROOT$f" ] && [ -n "$(ls -A "$ROOT$f")" ] && continue
  [ -d "$ROOT$f" ] && grep -qx "$f" "$before" && continue
  left+=("$f")
done <"$WORK/owned"
[ ${#left[@]} = 0 ] || fail "purge left behind: ${left[*]}"
echo "    purged: none of its $(wc -l <"$WORK/owned") paths left behind"
