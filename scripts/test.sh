#!/usr/bin/env bash
# Every test suite of the project (the README's test command; CI runs it through .ci/run).
# Idempotent: installs what is missing (wasm target, wasm-bindgen-cli, npm packages, chromium),
# builds pkg/, then runs the suites. Fails if any suite fails or runs 0 tests.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/ensure-tools.sh --browser

LOG_DIR="$(mktemp -d)"
trap 'rm -rf "$LOG_DIR"' EXIT
SUMMARY=()
FAILED=0

# Run a suite: name, count-parser, command... The parser reads the log and prints "passed failed".
run_suite() {
  local name="$1" parser="$2"
  shift 2
  local log="$LOG_DIR/${name//[^a-zA-Z0-9]/_}.log"
  echo
  echo "=== $name: $*"
  local start=$SECONDS rc=0
  "$@" 2>&1 | tee "$log" || rc=$?
  local counts passed failed
  counts="$($parser "$log")"
  passed="${counts% *}"
  failed="${counts#* }"
  local verdict=ok
  if [[ $rc -ne 0 || "$failed" != 0 ]]; then
    verdict=FAILED
  elif [[ "$passed" == 0 ]]; then
    verdict="FAILED (0 tests ran)"
  fi
  [[ "$verdict" == ok ]] || FAILED=1
  SUMMARY+=("$(printf '%-34s %6s passed %4s failed %5ss  %s' "$name" "$passed" "$failed" "$((SECONDS - start))" "$verdict")")
}

# cargo / wasm-bindgen-test-runner: sum the "test result:" lines.
cargo_counts() {
  awk '/test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
       END { print (p + 0) " " (f + 0) }' "$1"
}

# node --test (TAP): the final "# pass" / "# fail" lines.
node_counts() {
  awk '/^# pass / { p = $3 } /^# fail / { f = $3 } END { print (p + 0) " " (f + 0) }' "$1"
}

# A single check command: 1 passed when it succeeded.
check_counts() {
  if grep -q '^CHECK-OK$' "$1"; then echo "1 0"; else echo "0 1"; fi
}

tsc_check() {
  node_modules/.bin/tsc -p tests/ts/tsconfig.json && echo CHECK-OK
}

run_suite "cargo test (native)" cargo_counts cargo test
run_suite "wasm-bindgen-test (Node)" cargo_counts cargo test --target wasm32-unknown-unknown --test wasm_node
run_suite "wasm-bindgen-test (Chromium)" cargo_counts env WASM_BINDGEN_USE_BROWSER=1 cargo test --target wasm32-unknown-unknown --test wasm_browser

echo
echo "=== build pkg/"
bash scripts/build-pkg.sh
echo
echo "=== build target/pkg-test-faults (the package with a test-only trap, for tests/js/faults.test.mjs)"
bash scripts/build-pkg.sh --test-faults

run_suite "node:test tests/js (pkg API)" node_counts node --test tests/js/
run_suite "tsc --strict consumer" check_counts tsc_check
run_suite "packaging (Node, Vite+React, page)" node_counts node --test tests/packaging/
if compgen -G "tests/www/*.test.mjs" >/dev/null; then
  run_suite "playground (tests/www)" node_counts node --test tests/www/
fi

WASM=pkg/glue/agent_runtime_projection_bg.wasm
echo
echo "=== summary"
printf '%s\n' "${SUMMARY[@]}"
echo "wasm: $(stat -c %s "$WASM") bytes raw, $(gzip -9 -c "$WASM" | wc -c) bytes gzip; pkg/: $(du -sb pkg | cut -f1) bytes"
if [[ $FAILED -ne 0 ]]; then
  echo "test.sh: FAILED"
  exit 1
fi
echo "test.sh: all suites passed"
