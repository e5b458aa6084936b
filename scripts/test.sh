#!/usr/bin/env bash
# `npm test`: install what is missing, typecheck, then the whole suite against real servers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh
echo "[test] typecheck" >&2
npx tsc --noEmit -p tsconfig.json
echo "[test] format (prettier --check)" >&2
npx prettier --check --log-level warn "**/*.{ts,tsx,js,cjs,mjs}"
echo "[test] lint (eslint)" >&2
npx eslint --max-warnings 0 .
echo "[test] jest" >&2
NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=4096" npx jest --ci "$@"
