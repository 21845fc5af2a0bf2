#!/bin/bash
# Resources are built, not committed: in a copy of the package, editing the toolkit's style sheet
# (Sources/NavigationGtkResources/navigation.css) and its German catalogue (po/navigation-gtk/de.po), then
# running `swift build`, gives a program with both changes. CompiledResourcesTests reads what the build
# compiled; it must fail expecting the edits before them, and pass after. Toolkit only
# (POSTCARD_TOOLKIT_ONLY=1), no display needed. Run by make test.
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
build() { $swift build --build-tests >"$copy/build.log" 2>&1 || { tail -20 "$copy/build.log"; fail "swift build $1"; }; }
run() { env "$@" $swift test --skip-build --filter '^NavigationGtkTests\.CompiledResourcesTests' >"$copy/test.log" 2>&1; }
marker="edited-in-the-resources-test-$$"
expect=(NAVIGATION_GTK_EXPECT_CSS="/* $marker */" NAVIGATION_GTK_EXPECT_BACK="Zurück ($marker)")

build "of the copy"
run || { grep -E "error|failed" "$copy/test.log" | head; fail "the unedited copy does not have today's style and German"; }
if run "${expect[@]}"; then fail "the unedited copy already has the edits: the test cannot tell"; fi

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
run "${expect[@]}" || { grep -E "error|failed" "$copy/test.log" | head; fail "swift build did not put the edited style sheet and catalogue into the program"; }
echo "resources test: passed (an edited navigation.css and de.po are in the next swift build)"
