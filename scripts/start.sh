#!/usr/bin/env bash
# `npm start`: install what is missing, then run the local stack in the foreground (Ctrl-C stops it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh runtime
exec node_modules/.bin/tsx scripts/stack/start-stack.ts "$@"
