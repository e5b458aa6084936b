#!/usr/bin/env bash
# Installs whatever the project needs and is missing; safe to run any number of times. Called by
# `npm start` and `npm test`, so a fresh clone needs nothing else.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
step() { printf '[setup] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# FerretDB is built from Go sources (minutes on a fresh machine, nothing to do on a later run): in the
# background, beside npm's downloads and the test sets, and waited for before "ready".
background=()
if [ -z "${MONGODB_URI:-}" ]; then
  step "FerretDB (MongoDB wire protocol over SQLite), built in the background"
  bash scripts/build-ferretdb.sh &
  background+=($!)
fi

# npm packages, at the versions in package-lock.json. onnxruntime-node's install script would fetch
# CUDA binaries from outside the registries; the CPU provider ships in the package, so it is always
# skipped (the CUDA provider comes from PyPI wheels: scripts/gpu/). `npm install` rather than `npm ci`: this registry lacks some
# other-platform optional packages (e.g. @swc/core-darwin-arm64 at the pinned version), so the lock
# cannot list them and `npm ci` refuses it as out of sync; `npm install` keeps the lock as it is.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm install (from package-lock.json)"
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund --loglevel=error
fi

if [ -z "${REDIS_URL:-}" ] && ! command -v redis-server >/dev/null && [ ! -x /usr/bin/redis-server ]; then
  step "installing Debian's redis-server"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends redis-server >/dev/null
fi

# The Android SDK's build (sdk/android, run by its jest test) needs a JDK 17 and Maven; this kind of
# machine has both, a bare Debian gets them from its packages. Maven's downloads go to .state/m2.
if [ "${1:-all}" != runtime ] && { ! command -v mvn >/dev/null || ! command -v javac >/dev/null; }; then
  step "installing Debian's maven and openjdk-17-jdk-headless (Android SDK build)"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends maven openjdk-17-jdk-headless >/dev/null
fi

# The browser suite drives Debian's Chromium with a fake camera fed by ffmpeg-made .y4m files; the
# store-fault test holds an SQLite write lock with Debian's sqlite3 shell.
if [ "${1:-all}" != runtime ] && { ! command -v chromium >/dev/null || ! command -v ffmpeg >/dev/null || ! command -v sqlite3 >/dev/null; }; then
  step "installing Debian's chromium, ffmpeg and sqlite3 (browser and store-fault tests)"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends chromium ffmpeg sqlite3 >/dev/null
fi

if [ "${1:-all}" != runtime ]; then
  step "test images and font from Debian packages"
  bash scripts/fetch-debian-assets.sh
  step "independent photos of one person from PyPI (face_recognition 1.3.0 sdist)"
  bash scripts/fetch-pypi-face-photos.sh
fi

# Schemathesis (PyPI), pinned, for `npm run fuzz` and the bounded fuzz run in npm test; after the
# apt-get steps above (it may need python3-venv), beside the test sets.
if [ "${1:-all}" != runtime ]; then
  bash scripts/fuzz/install-schemathesis.sh &
  background+=($!)
fi

# `setup.sh runtime` (npm start) stops after the models; the synthetic test sets are for npm test.
steps="build:web models:materialize testdata:documents testdata:chip testdata:faces testdata:face-line testdata:pad-sample"
[ "${1:-all}" = runtime ] && steps="build:web models:materialize"
for script in $steps; do
  if node -e "process.exit(require('./package.json').scripts['$script'] ? 0 : 1)"; then
    step "npm run $script"
    npm run --silent "$script"
  fi
done
# The CUDA provider and runtime (1.5 GB of pinned PyPI wheels, 2.4 GB extracted) only where the GPU
# route is asked for; cached and verified in .state/gpu on later runs.
if [ "${INFERENCE_DEVICE:-cpu}" != cpu ]; then
  step "CUDA provider for INFERENCE_DEVICE=$INFERENCE_DEVICE (npm run gpu:install)"
  bash scripts/gpu/install-cuda-provider.sh
fi

# `wait PID` returns the job's status, so a failed build stops setup here (set -e).
for job in "${background[@]}"; do wait "$job"; done
step "ready"
