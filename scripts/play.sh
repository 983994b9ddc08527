#!/usr/bin/env bash
# One command on a fresh machine: install the toolchain, build the wasm package, serve the playground.
#
#   bash scripts/play.sh            # then open the printed URL
#   PORT=9000 bash scripts/play.sh
#   SKIP_BUILD=1 bash scripts/play.sh   # serve an existing pkg/ as is
#
# The build (and the toolchain install it needs) is done by scripts/build-pkg.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v node >/dev/null 2>&1; then
  echo "play.sh: Node.js (>= 18) is required to serve the page; install it first (e.g. apt-get install nodejs)." >&2
  exit 1
fi

if [[ "${SKIP_BUILD:-}" != "1" || ! -f pkg/package.json ]]; then
  if [[ ! -f scripts/build-pkg.sh ]]; then
    echo "play.sh: scripts/build-pkg.sh is missing; cannot build the package." >&2
    exit 1
  fi
  echo "play.sh: building the wasm package (first run installs the toolchain; this can take a few minutes)..."
  bash scripts/build-pkg.sh
fi

if [[ ! -f pkg/package.json ]]; then
  echo "play.sh: the build did not produce pkg/package.json." >&2
  exit 1
fi

echo "play.sh: serving www/ and pkg/ (Ctrl-C to stop)"
exec node scripts/serve.mjs
