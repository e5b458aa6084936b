#!/usr/bin/env bash
# `npm start`: install what is missing, then run the local stack in the foreground (Ctrl-C stops it).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
bash scripts/setup.sh runtime
# The GPU route: the library path gpu:install wrote, passed on to the inference service.
if [ "${INFERENCE_DEVICE:-cpu}" != cpu ] && [ -f .state/gpu/env ]; then set -a; . .state/gpu/env; set +a; fi
exec node_modules/.bin/tsx scripts/stack/start-stack.ts "$@"
