#!/bin/bash
# Resources are built, not committed: in a copy of the package, editing the toolkit's style sheet
# (Sources/NavigationGtkResources/navigation.css) and its German catalogue (po/navigation-gtk/de.po), then
# running `swift build`, puts both changes into what the program uses: the GResource bundle compiled into the
# NavigationGtkResources module (the base64 in the plugin's generated source) and the catalogue it reads
# (the plugin's compiled navigation-gtk.mo). Only that module is built in the copy (the plugin and what it
# needs: seconds, not a whole build); CompiledResourcesTests, in make test's toolkit lane, checks that the
# running program uses exactly these. The check must fail on the unedited copy, and pass after the edits.
# Toolkit only (POSTCARD_TOOLKIT_ONLY=1), no display needed. Run by make test.
set -euo pipefail
swift=${SWIFT:-swift}
root=$(cd "$(dirname "$0")/.." && pwd)
copy=$(mktemp -d /tmp/postcard-resources-XXXXXX)
trap 'rm -rf "$copy"' EXIT
fail() { echo "resources test: FAILED: $*"; exit 1; }

cd "$root"
git ls-files -z --cached --others --exclude-standard -- Package.swift Plugins Sources Tests po \
  | xargs -0 cp --parents -t "$copy"
cd "$copy"
export POSTCARD_TOOLKIT_ONLY=1 XDG_CACHE_HOME="$copy/cache"
build() {
  $swift build --target NavigationGtkResources >"$copy/build.log" 2>&1 || { tail -20 "$copy/build.log"; fail "swift build $1"; }
}
# has CSS BACK: whether the build's bundle has CSS in navigation.css and its German catalogue BACK for "Back".
has() {
  /usr/bin/python3 - "$copy/.build" "$1" "$2" <<'PY'
import base64, glob, os, re, subprocess, sys, tempfile
build, css_expected, back_expected = sys.argv[1:]
found = glob.glob(os.path.join(build, "plugins/outputs/*/NavigationGtkResources/destination/CompileResources"))
if not found:
    sys.exit("the plugin's outputs are not in the build folder")
out = found[0]
source = open(os.path.join(out, "CompiledNavigationGtkResources.swift"), encoding="utf-8").read()
match = re.search(r'static let bundle = "([A-Za-z0-9+/=]*)"', source)
if not match:
    sys.exit("no bundle in the generated source")
with tempfile.NamedTemporaryFile(suffix=".gresource") as bundle:
    bundle.write(base64.b64decode(match.group(1)))
    bundle.flush()
    css = subprocess.run(["gresource", "extract", bundle.name, "/io/github/NavigationGtk/navigation.css"],
                         capture_output=True, text=True, check=True).stdout
po = subprocess.run(["msgunfmt", os.path.join(out, "locale/de/LC_MESSAGES/navigation-gtk.mo")],
                    capture_output=True, text=True, check=True).stdout
back = re.search(r'^msgid "Back"\nmsgstr "(.*)"$', po, re.M)
ok = css_expected in css and back is not None and back.group(1) == back_expected
print(f"compiled: navigation.css {'has' if css_expected in css else 'lacks'} {css_expected!r}; "
      f"Back in German: {back.group(1) if back else None!r}")
sys.exit(0 if ok else 1)
PY
}
marker="edited-in-the-resources-test-$$"

build "of the copy"
has "@define-color navigation_bar_shade_color" "Zurück" || fail "the unedited copy does not have today's style and German"
if has "/* $marker */" "Zurück ($marker)"; then fail "the unedited copy already has the edits: the test cannot tell"; fi

echo "/* $marker */" >> Sources/NavigationGtkResources/navigation.css
/usr/bin/python3 - "$marker" <<'PY'
import sys
path = "po/navigation-gtk/de.po"
text = open(path, encoding="utf-8").read()
old = 'msgid "Back"\nmsgstr "Zurück"\n'
assert old in text, "de.po translates Back as Zurück"
open(path, "w", encoding="utf-8").write(text.replace(old, 'msgid "Back"\nmsgstr "Zurück (%s)"\n' % sys.argv[1]))
PY
build "after the edits"
has "/* $marker */" "Zurück ($marker)" || fail "swift build did not put the edited style sheet and catalogue into the module"
echo "resources test: passed (an edited navigation.css and de.po are in the next swift build)"
