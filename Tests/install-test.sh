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
# Its window, read the way a screen reader reads it (AT-SPI), then quit through its D-Bus action.
names="/usr/bin/python3 $PWD/Tests/GtkTesting/Scripts/atspi_names.py"
cat > "$root/start.sh" <<SCRIPT
"\$@" & app=\$!
for _ in \$(seq 1 150); do
  if $names \$app 2>/dev/null | grep -qx "push button|New Post"; then
    $names \$app
    gdbus call --session --dest $id --object-path /io/github/postcard/Postcard --method org.gtk.Actions.Activate quit [] {} > /dev/null \\
      || { kill \$app; exit 1; }
    wait \$app; exit \$?
  fi
  kill -0 \$app 2>/dev/null || { wait \$app; exit 1; }
  sleep 0.2
done
kill \$app; exit 1
SCRIPT
output=$(dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" bash "$root/start.sh" "${clean_env[@]}" G_DEBUG=fatal-warnings \
  "$root$prefix/bin/postcard" 2>/dev/null) || fail "the installed app did not start, show My Profile and quit: $output"
grep -qx "frame|Postcard" <<< "$output" || fail "the installed app showed no window named Postcard: $output"
# A journey replayed by the installed program, built for release: New Post, Cancel, Keep Editing, Post, a
# reply discarded, My Code. Posting waits on the store's writer thread and comes back to the main thread (a
# release build once skipped that hop and crashed on Post, while the debug-built tests passed).
cat > "$root/replay.sh" <<SCRIPT
"\$@" > "$root/replay.out" 2>&1 & app=\$!
for _ in \$(seq 1 300); do
  grep -q "^Replayed " "$root/replay.out" && { kill -TERM \$app; wait \$app; exit \$?; }
  kill -0 \$app 2>/dev/null || { wait \$app; echo "exited with status \$?" >> "$root/replay.out"; exit 1; }
  sleep 0.2
done
kill \$app; exit 1
SCRIPT
mkdir -p "$root/replayed"
dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" bash "$root/replay.sh" "${clean_env[@]}" G_DEBUG=fatal-warnings \
  "$root$prefix/bin/postcard" --replay "$PWD/Tests/PostcardTests/Fixtures/post-reply-and-code.journey" --fast --data-dir "$root/replayed" \
  || fail "the installed app did not replay a journey that posts: $(tail -5 "$root/replay.out")"
ls "$root/replayed/photos/" | grep -q . || fail "the replayed post's photo is not in the store"
# The tools are not installed: the shipped program is only the app.
[ ! -e "$root$prefix/bin/postcard-review" ] && [ ! -e "$root$prefix/bin/postcard-measure" ] || fail "a tool was installed"

# Links from the desktop: the launcher handles postcard:// (x-scheme-handler/postcard, %U), and a real
# `gio open` reaches the installed app by D-Bus activation in a private session bus, which finds the
# launcher through XDG_DATA_DIRS (after update-desktop-database) and the D-Bus service beside it (here
# pointing at the DESTDIR binary).
grep -q "^MimeType=.*x-scheme-handler/postcard;" "$share/applications/$id.desktop" || fail "the launcher does not handle postcard:// links"
grep -q "^Exec=postcard %U$" "$share/applications/$id.desktop" || fail "the launcher's Exec takes URIs (%U)"
links="$root/links-share"
mkdir -p "$links/applications" "$links/dbus-1/services"
cp "$share/applications/$id.desktop" "$links/applications/"
update-desktop-database "$links/applications"
printf '[D-BUS Service]\nName=%s\nExec=%s --gapplication-service\n' "$id" "$root$prefix/bin/postcard" > "$links/dbus-1/services/$id.service"
cat > "$root/gio-open.sh" <<SCRIPT
gio open postcard://post/1/comments || exit 1
for _ in \$(seq 1 150); do grep -q "Opened postcard://post/1/comments" "$root/activated.log" && break; sleep 0.2; done
gio open postcard://profile/ada || exit 1
for _ in \$(seq 1 150); do grep -q "Opened postcard://profile/ada" "$root/activated.log" && break; sleep 0.2; done
gdbus call --session --dest $id --object-path /io/github/postcard/Postcard --method org.gtk.Actions.Activate quit [] {} > /dev/null
# The session bus ends with this script: first let every Postcard on it finish (one still registering when
# the bus goes logs a critical).
running() { for p in /proc/[0-9]*; do [ "\$(readlink \$p/exe 2>/dev/null)" = "$root$prefix/bin/postcard" ] && return 0; done; return 1; }
for _ in \$(seq 1 100); do running || break; sleep 0.1; done
SCRIPT
# (GIO offers a launcher only when its Exec program is on PATH, as an installed postcard is.)
xvfb-run -a -s "-screen 0 1280x800x24" "${clean_env[@]}" PATH="$root$prefix/bin:/usr/bin:/bin" \
  XDG_DATA_DIRS="$links:$share:/usr/share" G_MESSAGES_DEBUG=Postcard \
  G_DEBUG=fatal-warnings dbus-run-session -- bash "$root/gio-open.sh" > "$root/activated.log" 2>&1 || { cat "$root/activated.log"; fail "gio open postcard://…"; }
grep -q "Opened postcard://post/1/comments: My Profile › Not Found (Back: My Profile)" "$root/activated.log" \
  || { cat "$root/activated.log"; fail "gio open postcard://post/1/comments did not open its Not Found page (there are no posts)"; }
grep -q "Opened postcard://profile/ada: My Profile › Ada Lovelace (Back: My Profile)" "$root/activated.log" \
  || { cat "$root/activated.log"; fail "gio open postcard://profile/ada did not open Ada's profile in the running Postcard"; }
# (The log also holds what the bus activated besides Postcard, such as the desktop portal.)
if grep -E "^\(postcard:[0-9]+\).*(WARNING|CRITICAL)" "$root/activated.log"; then fail "Postcard's warnings while opening links (above)"; fi

make --no-print-directory uninstall DESTDIR="$root" PREFIX="$prefix" > /dev/null
left=$(find "$root$prefix" -type f | head -5)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install test: passed"
