#!/usr/bin/env bash
# Assembles the table as a static site in web/dist/: the page beside the package (js/src) and
# its WebAssembly module (js/wasm), in the same relative places, so that every import is relative
# and the folder works from any static host. Serve it with: python3 -m http.server -d web/dist 8000
#
# REVERSIS_WASM_DIR names another built module directory to copy instead of js/wasm.
set -euo pipefail
cd "$(dirname "$0")/.."

wasm=${REVERSIS_WASM_DIR:-js/wasm}
if [ ! -f "$wasm/reversis_wasm.js" ] || [ ! -f "$wasm/reversis_wasm_bg.wasm" ]; then
  echo "web/build.sh: no WebAssembly module in $wasm: run bash js/build.sh first" >&2
  exit 2
fi
if [ ! -f js/src/index.js ]; then
  echo "web/build.sh: the JavaScript package js/src/index.js is missing" >&2
  exit 2
fi

out=web/dist
rm -rf "$out.tmp"
mkdir -p "$out.tmp/js"
# Every page, script, style sheet, manifest and icon of web/ (its tools, screenshot.py and build.sh,
# are not part of the site).
shopt -s nullglob
cp web/*.html web/*.js web/*.css web/*.webmanifest web/*.svg "$out.tmp/"
shopt -u nullglob
cp -R js/src "$out.tmp/js/src"
cp -R "$wasm" "$out.tmp/js/wasm"
# The learned player's network, which the worker fetches only when that player is chosen.
cp python/reversis/players/learned-hearts-computer.rvnn "$out.tmp/js/"
# The scripts go out without their whole-line comments, the code's documentation and most of its
# size gzipped; every line of code stays as written, and a template literal that spans lines is
# copied whole. (No minifier on PyPI reads nested template literals, which the table uses.)
strip_comments() {
  awk '
    in_block {
      at = index($0, "*/")
      if (!at) next
      in_block = 0
      $0 = substr($0, at + 2)
      if ($0 ~ /^[[:space:]]*$/) next
    }
    in_template { print; if (gsub(/`/, "`") % 2) in_template = 0; next }
    /^[[:space:]]*\/\// { next }
    /^[[:space:]]*\/\*/ && !index($0, "*/") { in_block = 1; next }
    /^[[:space:]]*\/\*.*\*\/[[:space:]]*$/ { next }
    { print; if (gsub(/`/, "`") % 2) in_template = 1 }
  ' "$1"
}
while IFS= read -r -d '' script; do
  strip_comments "$script" >"$script.stripped"
  mv "$script.stripped" "$script"
done < <(find "$out.tmp" -name '*.js' -print0)
# The service worker's list of the site's files is made here from what was just copied, never kept
# by hand (the network, fetched and kept only when its player is chosen, and the type
# declarations, which no page loads, left out); its version is a hash of them, so a changed site is a new worker with a new cache.
if [ -f "$out.tmp/sw.js" ]; then
  files=$(cd "$out.tmp" && find . -type f ! -path ./sw.js ! -name '*.rvnn' ! -name '*.d.ts' | sed 's|^\./||' | LC_ALL=C sort)
  version=$(cd "$out.tmp" && printf '%s\n' "$files" | while IFS= read -r f; do sha256sum "$f"; done | sha256sum | cut -c1-16)
  precache=$(printf '%s\n' "$files" | sed 's/.*/"&"/' | paste -sd, -)
  sed -i.orig -e "s|^const VERSION = .*|const VERSION = \"$version\";|" -e "s|^const PRECACHE = .*|const PRECACHE = [$precache];|" "$out.tmp/sw.js"
  rm -f "$out.tmp/sw.js.orig"
  if ! grep -q "^const VERSION = \"$version\";" "$out.tmp/sw.js" || ! grep -q '^const PRECACHE = \["' "$out.tmp/sw.js"; then
    echo "web/build.sh: web/sw.js lacks a line 'const VERSION = ...;' or 'const PRECACHE = ...;' to stamp" >&2
    exit 2
  fi
fi
rm -rf "$out"
mv "$out.tmp" "$out"
echo "web/build.sh: built $out; serve it with: python3 -m http.server -d $out 8000"
