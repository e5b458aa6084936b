#!/usr/bin/env bash
# `bash scripts/prepare/prepare.sh <need>...`: what a documented command needs beyond `npm start`'s
# set-up, installed or generated only when missing, so `npm run fuzz`, `npm run eval`, the test-set
# generators and every `bench:*` work on a fresh clone right after `npm start`. Each need is cheap
# once done (a stamp or version check), so package.json runs this before the command every time.
#   schemathesis  the pinned fuzzer in .state/fuzz-venv (skipped when SCHEMATHESIS_BIN is set)
#   assets        test images, OCR-B font (Debian packages) and the face photos (PyPI sdist)
#   browser       Debian's chromium (the hosted page's benchmark drives it)
#   testdata:*    one synthetic set, by its npm script (e.g. testdata:documents; seeded, idempotent)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
for need in "$@"; do
  case "$need" in
    schemathesis) [ -n "${SCHEMATHESIS_BIN:-}" ] || bash scripts/fuzz/install-schemathesis.sh ;;
    assets)
      bash scripts/fetch-debian-assets.sh
      bash scripts/fetch-pypi-face-photos.sh
      ;;
    browser)
      if ! command -v chromium >/dev/null && ! command -v chromium-browser >/dev/null; then
        printf '[prepare] %s\n' "installing Debian's chromium" >&2
        as_root apt-get update -qq
        DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends chromium >/dev/null
      fi
      ;;
    testdata:*)
      node -e "process.exit(require('./package.json').scripts['$need'] ? 0 : 1)" || {
        echo "prepare: no npm script $need" >&2
        exit 2
      }
      npm run --silent "$need" # its script fetches the assets first
      ;;
    *)
      echo "prepare: unknown need '$need' (schemathesis, assets, browser, testdata:<set>)" >&2
      exit 2
      ;;
  esac
done
