#!/usr/bin/env bash
# Build the npm package into pkg/:
#   cargo (wasm32, release) -> wasm-bindgen --target web -> wasm-opt (npm binaryen) -> assemble;
#   the event generator's module (crates/generator-wasm, no wasm-bindgen): cargo -> wasm-opt.
# Options: --debug      build with the `panic-hook` feature and without wasm-opt (readable panics).
#          --profiling  the release package, plus a copy for CPU profiles in Node at
#                       target/pkg-profiling whose .wasm keeps its function names
#                       (bench/profile.mjs reads it).
#          --test-faults  the release package with the test-only `test_trap` export, into
#                       target/pkg-test-faults (not pkg/), built in its own target directory.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

MODE=release
PROFILING=0
FEATURES=()
OUT=pkg
if [[ "${1:-}" == "--debug" ]]; then MODE=debug; fi
if [[ "${1:-}" == "--profiling" ]]; then PROFILING=1; fi
# The package's tables come from a native program (crates/package-tables) that assemble-pkg.mjs
# runs; it is the same for every variant, so it is built in the usual target directory.
TABLES_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
if [[ "${1:-}" == "--test-faults" ]]; then
  FEATURES=(--features test-faults)
  OUT=target/pkg-test-faults
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}/test-faults"
fi

bash scripts/ensure-tools.sh

TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
CRATE=agent_runtime_projection
GENERATOR=agent-runtime-projection-generator-wasm
if [[ "$MODE" == release ]]; then
  # `wasm-release` (Cargo.toml): the release profile optimized for size.
  cargo build --lib --profile wasm-release --target wasm32-unknown-unknown "${FEATURES[@]}"
  cargo build -p "$GENERATOR" --profile wasm-release --target wasm32-unknown-unknown
  WASM_DIR="$TARGET_DIR/wasm32-unknown-unknown/wasm-release"
else
  cargo build --lib --target wasm32-unknown-unknown --features panic-hook
  cargo build -p "$GENERATOR" --target wasm32-unknown-unknown
  WASM_DIR="$TARGET_DIR/wasm32-unknown-unknown/debug"
fi
WASM="$WASM_DIR/$CRATE.wasm"
GENERATOR_WASM="$WASM_DIR/${GENERATOR//-/_}.wasm"

rm -rf "$OUT"
mkdir -p "$OUT/glue"
wasm-bindgen --target web --out-dir "$OUT/glue" --out-name "$CRATE" "$WASM"

# Features the Rust wasm32 target enables by default (so wasm-opt keeps what rustc emitted).
WASM_FEATURES=(--enable-bulk-memory --enable-mutable-globals --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-reference-types --enable-multivalue)
if [[ "$MODE" == release ]]; then
  # --low-memory-unused: nothing lives in the first KiB of memory (Rust's data starts at 1 MiB
  # above a downward stack that would have to be nearly exhausted to reach it), so constant
  # offsets fold into loads and stores; with --converge (passes repeated until the module stops
  # shrinking) the module is ~1.5 KB gzip smaller, at no cost in speed. -Os rather than -O3 keeps
  # the module within its size budget (Cargo.toml, [profile.wasm-release]). The target-features
  # section only tells linkers what the module was built with; hosts ignore it (~120 B gzip).
  # --merge-similar-functions (before -Os) folds functions that differ only in constants, which
  # generic code instantiates many of (~1 KB gzip). --one-caller-inline-max-function-size: a
  # function with one caller is inlined into it only up to 120 instructions (binaryen's default
  # has no limit; inlining large ones made the module ~1.9 KB gzip larger; 0: 14.5 KB smaller but
  # 1-11% slower). 120 rather than 550: ~6 KB smaller, which the event reader
  # (contract::reader) needed, and ~2-5% slower than 550 in `bench/ab.mjs` (100 against 550, 15
  # rounds: batches 1.03-1.05, live apply 1.02), less than the reader gains.
  # --always-inline-max-function-size (-aimfs) 6 rather than -Os's 2: calls of tiny functions
  # (accessors, wrappers) are inlined, which leaves the module ~0.55 KB gzip smaller and no slower
  # (`bench/ab.mjs`, `bench/instructions.mjs`: within noise); 4: 0.3 KB smaller, 10: 1.5 KB larger.
  node_modules/.bin/wasm-opt --merge-similar-functions -Os --one-caller-inline-max-function-size=120 -aimfs=6 --low-memory-unused --converge --strip-debug --strip-producers \
    --strip-target-features \
    "${WASM_FEATURES[@]}" "$OUT/glue/${CRATE}_bg.wasm" -o "$OUT/glue/${CRATE}_bg.opt.wasm"
  mv "$OUT/glue/${CRATE}_bg.opt.wasm" "$OUT/glue/${CRATE}_bg.wasm"
  # The generator's module: smallest code (it is on no hot path).
  node_modules/.bin/wasm-opt -Oz --low-memory-unused --converge --strip-debug --strip-producers \
    --strip-target-features "${WASM_FEATURES[@]}" "$GENERATOR_WASM" -o "$OUT/glue/generator.wasm"
else
  install -m 0644 "$GENERATOR_WASM" "$OUT/glue/generator.wasm"
fi

PKG_OUT="$OUT" TABLES_TARGET_DIR="$TABLES_TARGET_DIR" node scripts/assemble-pkg.mjs

if [[ "$PROFILING" == 1 ]]; then
  PROF="$ROOT/target/pkg-profiling"
  rm -rf "$PROF"
  cp -r pkg "$PROF"
  wasm-bindgen --target web --keep-debug --out-dir "$PROF/glue-named" --out-name "$CRATE" "$WASM"
  # Same optimization as the package; -g keeps the name section.
  node_modules/.bin/wasm-opt --merge-similar-functions -Os --one-caller-inline-max-function-size=120 -aimfs=6 \
    --low-memory-unused --converge -g "${WASM_FEATURES[@]}" \
    "$PROF/glue-named/${CRATE}_bg.wasm" -o "$PROF/glue/${CRATE}_bg.wasm"
  # Every entry loads the inlined bytes: inline the named module.
  node -e 'const fs = require("fs"); const [wasm, out] = process.argv.slice(1);
    fs.writeFileSync(out, `export const wasmBase64 = "${fs.readFileSync(wasm).toString("base64")}";\n`);' \
    "$PROF/glue/${CRATE}_bg.wasm" "$PROF/glue/wasm-inline.js"
  rm -rf "$PROF/glue-named"
  echo "build-pkg: profiling copy in $PROF"
fi
