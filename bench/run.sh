#!/usr/bin/env bash
# One command for every benchmark: build the release package, run the native benchmark of the
# Rust core, the side-by-side table of short and long streams (against the TypeScript reference
# when LIME_REFERENCE_DIR names a local tsc build of it), then measure the package through its JS
# API. Writes bench/RESULTS.md and prints it.
#   bash bench/run.sh            full run (several minutes on 2 cores)
#   bash bench/run.sh --quick    fewer repetitions
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=()
if [[ "${1:-}" == "--quick" ]]; then QUICK=(--quick); fi

bash scripts/build-pkg.sh

NATIVE="$(mktemp)"
SIDE="$(mktemp)"
trap 'rm -f "$NATIVE" "$SIDE"' EXIT
echo "bench: native Rust core (cargo bench --bench native)" >&2
cargo bench --bench native -- "${QUICK[@]}" | tee "$NATIVE" >&2

echo "bench: short and long streams side by side (bench/sidebyside.mjs; LIME_REFERENCE_DIR=${LIME_REFERENCE_DIR:-unset})" >&2
node --expose-gc bench/sidebyside.mjs "${QUICK[@]}" --out "$SIDE"

echo "bench: JS API of pkg/ (node)" >&2
node --expose-gc bench/run.mjs "${QUICK[@]}" --native "$NATIVE" --sidebyside "$SIDE"
