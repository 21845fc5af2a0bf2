#!/usr/bin/env bash
# `make test-install`: installs Postcard into a temporary DESTDIR as `make install` does, validates its
# desktop files, starts the installed app with the Swift toolchain off PATH and LD_LIBRARY_PATH, then
# uninstalls and checks nothing is left. Prints "install test: passed" or what failed (exit 1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(mktemp -d /tmp/postcard-install-XXXXXX)
trap 'rm -rf "$root"' EXIT
prefix=/usr
id=io.github.postcard.Postcard
fail() { echo "install test: FAILED: $*" >&2; exit 1; }

make --no-print-directory install DESTDIR="$root" PREFIX="$prefix" > "$root.log" 2>&1 || { tail -20 "$root.log"; fail "make install"; }
rm -f "$root.log"
share="$root$prefix/share"
for file in "$root$prefix/bin/postcard" "$share/postcard/style.css" "$share/postcard/guide/index.html" \
    "$share/applications/$id.desktop" "$share/metainfo/$id.metainfo.xml" \
    "$share/icons/hicolor/scalable/apps/$id.svg" "$share/icons/hicolor/symbolic/apps/$id-symbolic.svg" \
    "$share/dbus-1/services/$id.service" "$share/locale/de/LC_MESSAGES/postcard.mo"; do
  [ -e "$file" ] || fail "missing ${file#$root}"
done
desktop-file-validate "$share/applications/$id.desktop" || fail "desktop-file-validate"
appstreamcli validate --no-net "$share/metainfo/$id.metainfo.xml" > /dev/null || fail "appstreamcli validate"
grep -q "^Exec=$prefix/bin/postcard --gapplication-service$" "$share/dbus-1/services/$id.service" || fail "D-Bus service Exec"
grep -q "^DBusActivatable=true$" "$share/applications/$id.desktop" || fail "DBusActivatable"
german() { grep -A1 -x "msgid \"$1\"" po/de.po | sed -n 's/^msgstr "\(.*\)"$/\1/p'; }
grep -qx "Comment\[de\]=$(german "Post your photos with a comment")" "$share/applications/$id.desktop" || fail "the launcher's German comment"
grep -q "xml:lang=\"de\"" "$share/metainfo/$id.metainfo.xml" || fail "the metainfo's German texts"

# No Swift runtime from the toolchain: the binary links it in.
if ldd "$root$prefix/bin/postcard" | grep -q -e swift -e "not found"; then
  ldd "$root$prefix/bin/postcard" | grep -e swift -e "not found" >&2
  fail "the installed binary needs libraries it won't find without the toolchain"
fi
# The style sheet is compiled in: the installed copy is not needed.
rm "$share/postcard/style.css"
# Start it for real (its resources are found beside the binary), with the toolchain nowhere in sight.
clean_env=(env -u LD_LIBRARY_PATH PATH=/usr/bin:/bin HOME="$root" XDG_DATA_HOME="$root/data" XDG_CACHE_HOME="$root/cache")
"${clean_env[@]}" "$root$prefix/bin/postcard" --help > /dev/null || fail "postcard --help"
# The installed translations are found (German help).
"${clean_env[@]}" LANG=de_DE.UTF-8 LANGUAGE= LC_ALL= "$root$prefix/bin/postcard" --help | grep -qF "$(german "Show the version and quit")" \
  || fail "postcard --help in German"
output=$(dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" "${clean_env[@]}" G_DEBUG=fatal-warnings "$root$prefix/bin/postcard" \
  --measure-startup --data-dir "$root/posts" 2>/dev/null) || fail "the installed app did not start"
grep -q "first-frame-monotonic-us" <<< "$output" || fail "the installed app showed no window: $output"

make --no-print-directory uninstall DESTDIR="$root" PREFIX="$prefix" > /dev/null
left=$(find "$root$prefix" -type f | head -5)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install test: passed"
