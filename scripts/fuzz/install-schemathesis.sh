#!/usr/bin/env bash
# Schemathesis (PyPI), pinned, in a virtualenv of its own under .state: `npm run fuzz` and the bounded
# fuzz run in npm test. Installs only when that exact version is missing, so it is safe to call
# before every fuzz run (scripts/setup.sh and scripts/prepare/prepare.sh both do).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
SCHEMATHESIS_VERSION=4.32.5
fuzz_venv=.state/fuzz-venv
"$fuzz_venv/bin/schemathesis" --version 2>/dev/null | grep -qx "schemathesis, version $SCHEMATHESIS_VERSION" && exit 0
printf '[setup] %s\n' "Schemathesis $SCHEMATHESIS_VERSION (PyPI) into $fuzz_venv" >&2
if ! python3 -m venv --clear "$fuzz_venv" 2>/dev/null; then
  # Debian ships venv's pip bootstrap apart from python3 itself.
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
  python3 -m venv --clear "$fuzz_venv"
fi
"$fuzz_venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
