#!/usr/bin/env bash
# Assembles the table as a static site in web/dist/: the page, the package (js/src) and the
# WebAssembly module (js/wasm), side by side so that every import is relative and the folder
# works from any static host. Serve it with: python3 -m http.server -d web/dist 8000
#
# Without js/src (the package), the page uses the WebAssembly module directly (web/engine.js).
# REVERSIS_WASM_DIR names another built module directory to copy instead of js/wasm.
set -euo pipefail
cd "$(dirname "$0")/.."

wasm=${REVERSIS_WASM_DIR:-js/wasm}
if [ ! -f "$wasm/reversis_wasm.js" ] || [ ! -f "$wasm/reversis_wasm_bg.wasm" ]; then
  echo "web/build.sh: no WebAssembly module in $wasm: run bash js/build.sh first" >&2
  exit 2
fi

out=web/dist
rm -rf "$out.tmp"
mkdir -p "$out.tmp/js"
cp web/index.html web/app.js web/engine.js web/worker.js web/style.css "$out.tmp/"
cp -R "$wasm" "$out.tmp/js/wasm"
if [ -f js/src/index.js ]; then
  cp -R js/src "$out.tmp/js/src"
  source=package
else
  source=wasm
fi
printf '// Written by web/build.sh: the rules come from the %s.\nexport const source = "%s";\n' \
  "$([ "$source" = package ] && echo "package in js/src" || echo "WebAssembly module alone")" "$source" \
  > "$out.tmp/engine-source.js"
rm -rf "$out"
mv "$out.tmp" "$out"
echo "web/build.sh: built $out (rules from the $source); serve it with: python3 -m http.server -d $out 8000"
