#!/usr/bin/env bash
# `make deb`: builds postcard_VERSION_ARCH.deb in the checkout's folder from `make install` into a staging
# folder (PREFIX=/usr: the release build with the Swift runtime linked in, the launcher, AppStream metadata,
# icons, D-Bus activation, the sample photos and guide, both translation domains), plus what a Debian
# package has (copyright, changelog, manual page, md5sums). Depends: what dpkg-shlibdeps computes from the
# libraries the program links, and what it opens at run time, which no linker records (WebKitGTK, opened on
# the first web page; GStreamer's plugins; bubblewrap, which the thumbnailers run in; the icon theme);
# image loaders beyond GdkPixbuf's own and the code reader (GStreamer's zbar element) are Recommends.
# Then lintian: an error fails the build; its warnings are printed. Prints the package's path.
set -euo pipefail
cd "$(dirname "$0")/.."
id=io.github.postcard.Postcard
version=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "data/$id.metainfo.xml" | head -1)
arch=$(dpkg --print-architecture)
package="postcard_${version}_${arch}.deb"
work="$PWD/.build/deb"
stage="$work/root"
rm -rf "$work" "$package"
mkdir -p "$stage"

make --no-print-directory install DESTDIR="$stage" PREFIX=/usr
# The tools' build folder is not the package's business; the program loses its symbols (debugging them
# would be a -dbgsym package).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/postcard"
# The installed style sheet and its GResource list are compiled into the program.
rm -f "$stage/usr/share/postcard/style.css" "$stage/usr/share/postcard/postcard.gresource.xml"
doc="$stage/usr/share/doc/postcard"
install -d "$doc" "$stage/usr/share/man/man1"
install -m 644 packaging/deb/copyright "$doc/copyright"
gzip -9n < packaging/deb/changelog > "$doc/changelog.gz"
gzip -9n < packaging/deb/postcard.1 > "$stage/usr/share/man/man1/postcard.1.gz"
find "$stage" -type d -exec chmod 755 {} +
find "$stage" -type f -exec chmod 644 {} +
chmod 755 "$stage/usr/bin/postcard"

# dpkg-shlibdeps reads debian/control of a source package: a minimal one, in a folder of its own.
mkdir -p "$work/source/debian"
printf 'Source: postcard\n\nPackage: postcard\nArchitecture: any\n' > "$work/source/debian/control"
shlibs=$(cd "$work/source" && dpkg-shlibdeps -O "-e$stage/usr/bin/postcard" 2>"$work/shlibdeps.log" \
  | sed -n 's/^shlibs:Depends=//p') || { cat "$work/shlibdeps.log"; echo "make deb: dpkg-shlibdeps failed" >&2; exit 1; }
[ -n "$shlibs" ] || { cat "$work/shlibdeps.log"; echo "make deb: dpkg-shlibdeps found no libraries" >&2; exit 1; }
size=$(du -sk --apparent-size "$stage" | cut -f1)
mkdir -p "$stage/DEBIAN"
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@SHLIBS@/$shlibs/" \
  packaging/deb/control.in > "$stage/DEBIAN/control"
(cd "$stage" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" > /dev/null

# lintian (Debian's package checker): errors fail; warnings and the rest are listed.
if ! command -v lintian > /dev/null; then echo "make deb: lintian is not installed (apt-get install lintian)" >&2; exit 1; fi
lintian --fail-on error --display-info "$package" | tee "$work/lintian.txt" || {
  echo "make deb: lintian found errors (above)" >&2; exit 1; }
echo "make deb: $package (Depends: $shlibs, …; lintian: $(grep -c '^E:' "$work/lintian.txt" || true) errors, $(grep -c '^W:' "$work/lintian.txt" || true) warnings)"
