#!/usr/bin/env bash
# `make docs`: the toolkit's API documentation as a static site. For each module given, its public symbol
# graph (from `swift package dump-symbol-graph --minimum-access-level public`, folder $1) and its DocC
# catalogue when it has one (Sources/<Module>/<Module>.docc: articles) are converted by the toolchain's
# `docc`, warnings counting as errors, into $2/<Module>; $2/index.html lists the modules. Exit 1 on the
# first warning or error.
#
#     Tests/build-docs.sh SYMBOL_GRAPH_FOLDER OUTPUT MODULE...
set -euo pipefail
cd "$(dirname "$0")/.."
graphs=$1 out=$2
shift 2
docc=$(dirname "$(command -v "${SWIFT:-swift}")")/docc
[ -x "$docc" ] || docc=$(command -v docc)
rm -rf "$out"
mkdir -p "$out/.graphs"
links=""
for module in "$@"; do
  mkdir -p "$out/.graphs/$module"
  cp "$graphs/$module.symbols.json" "$out/.graphs/$module/"
  for extension in "$graphs/$module"@*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$out/.graphs/$module/"
  done
  catalog=()
  [ -d "Sources/$module/$module.docc" ] && catalog=("Sources/$module/$module.docc")
  lower=$(tr '[:upper:]' '[:lower:]' <<< "$module")
  if ! "$docc" convert "${catalog[@]}" --additional-symbol-graph-dir "$out/.graphs/$module" \
      --fallback-display-name "$module" --fallback-bundle-identifier "io.github.postcard.$module" \
      --output-path "$out/$module" --transform-for-static-hosting --hosting-base-path "$module" \
      --warnings-as-errors > "$out/.$module.log" 2>&1; then
    cat "$out/.$module.log" >&2
    echo "docs: $module has documentation warnings or errors (above)" >&2
    exit 1
  fi
  links="$links<li><a href=\"$module/documentation/$lower/\">$module</a></li>"
done
rm -rf "$out/.graphs"
cat > "$out/index.html" <<HTML
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Postcard's navigation toolkit</title></head>
<body><h1>Postcard's navigation toolkit</h1>
<p>API documentation and articles, made by <code>make docs</code> with DocC. Serve this folder over HTTP to
read it (DocC's pages load their data with <code>fetch</code>): <code>python3 -m http.server -d .build/docs</code>,
then open <a href="http://localhost:8000/">http://localhost:8000/</a>.</p>
<ul>$links</ul></body></html>
HTML
echo "docs: $* in $out (index.html)"
