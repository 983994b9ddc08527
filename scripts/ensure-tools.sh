#!/usr/bin/env bash
# Install what the build and the tests need, when it is missing (idempotent).
#   rustup target wasm32-unknown-unknown, wasm-bindgen-cli (= the wasm-bindgen crate version),
#   npm dev tooling (npm ci), and with --browser: Debian chromium + chromium-driver.
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION="$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' Cargo.toml | head -n1)"
if [[ -z "$WASM_BINDGEN_VERSION" ]]; then
  echo "ensure-tools: cannot read the pinned wasm-bindgen version from Cargo.toml" >&2
  exit 1
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  echo "ensure-tools: adding rustup target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]] ||
   ! command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
  echo "ensure-tools: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
  # No --locked: it fails on a yanked transitive dependency.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if [[ ! -x node_modules/.bin/wasm-opt || ! -x node_modules/.bin/tsc || ! -x node_modules/.bin/vitest ||
      ! -d node_modules/playwright-core || ! -d node_modules/jsdom || ! -d node_modules/happy-dom ||
      ! -d node_modules/@types/react ]]; then
  echo "ensure-tools: npm ci"
  # npm 11 rejects this lock file over a Windows-only optional dependency of vite that it does not
  # record ("Missing: napi-windows-process-start-time"); fall back to a plain install of the same
  # pinned versions.
  if ! npm ci --no-audit --no-fund; then
    echo "ensure-tools: npm ci refused the lock file; running npm install"
    npm install --no-audit --no-fund
  fi
fi

if [[ "${1:-}" == "--browser" ]]; then
  if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    echo "ensure-tools: installing chromium and chromium-driver (apt)"
    SUDO=""
    if [[ "$(id -u)" != 0 ]]; then SUDO="sudo"; fi
    $SUDO apt-get update
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y chromium chromium-driver
  fi
fi
