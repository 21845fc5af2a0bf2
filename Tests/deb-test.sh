#!/usr/bin/env bash
# The Debian package, as a user gets it (make test-install runs this after Tests/install-test.sh): `make deb`
# (lintian's errors fail it), then `apt-get install ./postcard_….deb`, which must pull in what it depends on;
# the installed program needs nothing of the Swift toolchain (ldd; started with the toolchain off PATH and
# the library path); `gio open postcard://profile/ada` reaches it through the desktop's own way (the launcher
# registered by dpkg's triggers, D-Bus activation) and opens Ada's profile; `apt-get remove` leaves none of
# its files behind (dpkg -L before and after). Installs into the real system: needs root (or sudo), and
# refuses to run where a postcard package is installed already.
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "deb test: FAILED: $*" >&2; exit 1; }
if [ "$(id -u)" = 0 ]; then sudo=(); else sudo=(sudo); fi
apt_get() { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -y -q "$@"; }
id=io.github.postcard.Postcard
status() { dpkg-query -W -f='${Status}' postcard 2>/dev/null || true; }

[ -z "$(status | grep -v 'not-installed')" ] || fail "a postcard package is installed already ($(status)): remove it first (apt-get purge postcard)"
before=$(dpkg -L postcard 2>&1 || true)
grep -q "is not installed" <<< "$before" || fail "dpkg -L postcard before installing: $before"

work=$(mktemp -d /tmp/postcard-deb-XXXXXX)
installed=false
cleanup() { if $installed; then apt_get remove postcard > /dev/null 2>&1 || true; fi; rm -rf "$work"; }
trap cleanup EXIT

packaging/make-deb.sh > "$work/make-deb.log" 2>&1 || { tail -30 "$work/make-deb.log"; fail "make deb"; }
grep -E "^make deb: " "$work/make-deb.log"
deb=$(sed -n 's/^make deb: \(postcard_[^ ]*\.deb\) .*/\1/p' "$work/make-deb.log")
[ -f "$deb" ] || fail "make deb made no package"

installed=true
apt_get install "./$deb" > "$work/apt-install.log" 2>&1 || { tail -20 "$work/apt-install.log"; fail "apt-get install ./$deb"; }
[ "$(status)" = "install ok installed" ] || fail "after apt-get install, dpkg says: $(status)"
files=$(dpkg -L postcard)
for file in /usr/bin/postcard "/usr/share/applications/$id.desktop" "/usr/share/dbus-1/services/$id.service" \
    "/usr/share/metainfo/$id.metainfo.xml" /usr/share/locale/de/LC_MESSAGES/postcard.mo \
    /usr/share/locale/de/LC_MESSAGES/navigation-gtk.mo /usr/share/postcard/guide/index.html \
    /usr/share/doc/postcard/copyright /usr/share/man/man1/postcard.1.gz; do
  grep -qx "$file" <<< "$files" || fail "the package does not install $file"
  [ -f "$file" ] || fail "$file is not there after apt-get install"
done
# dpkg's trigger ran update-desktop-database: the launcher handles postcard:// links.
grep -q "x-scheme-handler/postcard=.*$id.desktop" /usr/share/applications/mimeinfo.cache \
  || fail "postcard:// is not registered in /usr/share/applications/mimeinfo.cache"
if ldd /usr/bin/postcard | grep -q -e swift -e "not found"; then
  ldd /usr/bin/postcard | grep -e swift -e "not found" >&2
  fail "the packaged program needs libraries the package does not bring"
fi

# gio open, as a file manager or a browser opens a link: with the toolchain nowhere (PATH, library path).
clean_env=(env -u LD_LIBRARY_PATH PATH=/usr/bin:/bin HOME="$work/home" XDG_DATA_HOME="$work/data"
           XDG_CACHE_HOME="$work/cache" XDG_CONFIG_HOME="$work/config")
mkdir -p "$work/home"
cat > "$work/gio-open.sh" <<SCRIPT
gio open postcard://profile/ada || exit 1
for _ in \$(seq 1 150); do grep -q "Opened postcard://profile/ada" "$work/opened.log" && break; sleep 0.2; done
gdbus call --session --dest $id --object-path /io/github/postcard/Postcard --method org.gtk.Actions.Activate quit [] {} > /dev/null
running() { for p in /proc/[0-9]*; do [ "\$(readlink \$p/exe 2>/dev/null)" = /usr/bin/postcard ] && return 0; done; return 1; }
for _ in \$(seq 1 100); do running || break; sleep 0.1; done
SCRIPT
xvfb-run -a -s "-screen 0 1280x800x24" "${clean_env[@]}" G_MESSAGES_DEBUG=Postcard G_DEBUG=fatal-warnings \
  dbus-run-session -- bash "$work/gio-open.sh" > "$work/opened.log" 2>&1 || { cat "$work/opened.log"; fail "gio open postcard://profile/ada"; }
grep -q "Opened postcard://profile/ada: My Profile › Ada Lovelace (Back: My Profile)" "$work/opened.log" \
  || { cat "$work/opened.log"; fail "gio open postcard://profile/ada did not open Ada's profile in the installed Postcard"; }
if grep -E "^\(postcard:[0-9]+\).*(WARNING|CRITICAL)" "$work/opened.log"; then fail "the installed Postcard's warnings (above)"; fi

apt_get remove postcard > "$work/apt-remove.log" 2>&1 || { tail -20 "$work/apt-remove.log"; fail "apt-get remove postcard"; }
installed=false
after=$(dpkg -L postcard 2>&1 || true)
grep -q "is not installed" <<< "$after" || fail "dpkg -L postcard after apt-get remove: $after"
[ -z "$(status | grep -v 'not-installed')" ] || fail "after apt-get remove, dpkg keeps: $(status)"
left=$(while read -r path; do if [ -f "$path" ]; then echo "$path"; fi; done <<< "$files")
[ -z "$left" ] || fail "apt-get remove left files behind: $left"
for folder in /usr/share/postcard /usr/share/doc/postcard; do [ ! -e "$folder" ] || fail "apt-get remove left $folder"; done
echo "deb test: passed ($deb installed with apt-get, opened by gio open postcard://profile/ada, removed leaving nothing)"
