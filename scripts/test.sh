#!/usr/bin/env bash
# `npm test`: install what is missing, typecheck, then the whole suite against real servers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# The SDKs' downloads wait on the network, setup and the first test files on the CPU: overlap them.
# Its own session, so that everything it started stops with `npm test` (its log: .state/prefetch.log).
mkdir -p .state
setsid bash scripts/prefetch-sdk-deps.sh >.state/prefetch.log 2>&1 </dev/null &
prefetch=$!
trap 'kill -- -"$prefetch" 2>/dev/null || true' EXIT
bash scripts/setup.sh
echo "[test] typecheck" >&2
npx tsc --noEmit -p tsconfig.json
echo "[test] format (prettier --check)" >&2
npx prettier --check --log-level warn "**/*.{ts,tsx,js,cjs,mjs}"
echo "[test] lint (eslint)" >&2
npx eslint --max-warnings 0 .
echo "[test] jest" >&2
NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=4096" npx jest --ci "$@"
