#!/usr/bin/env bash
# Builds the WebAssembly module of the package into js/wasm/: reversis-core and reversis-players
# through the binding crate rust/reversis-wasm, for wasm32-unknown-unknown.
#
# Needs Debian's rustc-web and rust-web-src (a rustc whose standard library can be built for
# wasm32-unknown-unknown with -Z build-std), wasm-ld (Debian's lld) and, for a smaller module,
# wasm-opt (Debian's binaryen); installs wasm-bindgen-cli, at the version the binding crate pins,
# into $REVERSIS_TOOLS (default: target/wasm-tools) if it is not there.
set -euo pipefail
cd "$(dirname "$0")/.."

rustc_web=${REVERSIS_WASM_RUSTC:-/usr/bin/rustc}
if [ ! -x "$rustc_web" ] || [ ! -d /usr/lib/rustlib/src/rust/library ]; then
  echo "js/build.sh: needs Debian's rustc-web and rust-web-src (apt-get install rustc-web rust-web-src lld binaryen)" >&2
  exit 2
fi
if ! command -v wasm-ld >/dev/null; then
  echo "js/build.sh: needs wasm-ld (apt-get install lld)" >&2
  exit 2
fi

# The wasm-bindgen the binding crate pins, e.g. "=0.2.130" -> 0.2.130.
bindgen_version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' rust/reversis-wasm/Cargo.toml)
tools=${REVERSIS_TOOLS:-$PWD/target/wasm-tools}
bindgen="$tools/bin/wasm-bindgen"
if ! { [ -x "$bindgen" ] && "$bindgen" --version | grep -qx "wasm-bindgen $bindgen_version"; }; then
  echo "js/build.sh: installing wasm-bindgen-cli $bindgen_version into $tools" >&2
  # Without --locked: the registry these machines use lacks one of the versions its lock names.
  cargo install --quiet --root "$tools" --version "=$bindgen_version" wasm-bindgen-cli
fi

# The size of the module (the page's budget is 300 KB gzipped with the page, benches/README.md):
# - panic_immediate_abort: a panic traps at once, as it did (the module has no panic hook to show
#   a message), without the formatting code and the messages of every panic site;
# - without reference types, wasm-bindgen keeps JavaScript values in a JavaScript array rather than
#   an externref table, and Debian's wasm-opt (Binaryen 108) can then read the module and keep
#   it working (with them it wrote the externref table's export as the function table);
# - the `wasm` profile of Cargo.toml optimizes for size all but the search's own code.
RUSTC_BOOTSTRAP=1 RUSTC="$rustc_web" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=-reference-types" \
  cargo build --locked --quiet -Z build-std=std,panic_abort -Z build-std-features=panic_immediate_abort \
  --target wasm32-unknown-unknown --profile wasm -p reversis-wasm

out=js/wasm
rm -rf "$out.tmp"
"$bindgen" --target web --remove-name-section --out-dir "$out.tmp" --out-name reversis_wasm \
  target/wasm32-unknown-unknown/wasm/reversis_wasm.wasm
# A wasm-opt older than the rustc may not read every instruction it emits (Binaryen 108 and
# rustc-web 1.96's table.fill): the module is then kept as rustc and wasm-bindgen left it.
if command -v wasm-opt >/dev/null && ! wasm-opt -O3 --enable-bulk-memory --enable-sign-ext \
    --enable-nontrapping-float-to-int --enable-mutable-globals --enable-reference-types \
    "$out.tmp/reversis_wasm_bg.wasm" -o "$out.tmp/optimized.wasm" 2>"$out.tmp/wasm-opt.log"; then
  echo "js/build.sh: this wasm-opt ($(wasm-opt --version)) cannot read the module ($(tail -n 1 "$out.tmp/wasm-opt.log")); keeping it unoptimized" >&2
  rm -f "$out.tmp/optimized.wasm"
fi
rm -f "$out.tmp/wasm-opt.log"
if [ -f "$out.tmp/optimized.wasm" ]; then
  # Binaryen 108 (Debian 12's) writes the export of wasm-bindgen's externref table as the
  # function table, and the module then fails to start ("Table.set(): Argument 1 is invalid"):
  # keep the optimized module only if that export still names a table of references.
  listing=$(wasm-dis "$out.tmp/optimized.wasm")
  table=$(sed -n 's/^ *(export "__wbindgen_externrefs" (table \([^)]*\)))$/\1/p' <<<"$listing")
  if [ -n "$table" ] && ! grep -Eq "^ *\(table \\$table [0-9 ]*(anyref|externref)\)" <<<"$listing"; then
    echo "js/build.sh: this wasm-opt ($(wasm-opt --version)) breaks the module's externref table; keeping it unoptimized" >&2
    rm "$out.tmp/optimized.wasm"
  elif [ "$(gzip -9 -c "$out.tmp/optimized.wasm" | wc -c)" -lt "$(gzip -9 -c "$out.tmp/reversis_wasm_bg.wasm" | wc -c)" ]; then
    mv "$out.tmp/optimized.wasm" "$out.tmp/reversis_wasm_bg.wasm"
  else
    # What the page loads is the module gzipped: wasm-opt's output of a module optimized for
    # size by rustc is smaller but compresses worse (by 6 to 9 KB gzipped: benches/README.md).
    rm "$out.tmp/optimized.wasm"
  fi
fi
rm -rf "$out"
mv "$out.tmp" "$out"
ls -l "$out"/reversis_wasm_bg.wasm
