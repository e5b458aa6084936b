#!/usr/bin/env bash
# `npm test`: install what is missing, typecheck, then the whole suite against real servers.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh
echo "[test] typecheck" >&2
npx tsc --noEmit -p tsconfig.json
echo "[test] jest" >&2
NODE_OPTIONS="${NODE_OPTIONS:-} --max-old-space-size=4096" npx jest --ci "$@"
