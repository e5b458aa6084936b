#!/usr/bin/env bash
# Builds FerretDB v1.24.2 from the Go module proxy into .state/bin/ferretdb (idempotent).
# `go install ...@v1.24.2` fails behind this proxy (its deprecation lookup gets 403), and a plain
# build of the module needs build/version/version.txt, which the module zip lacks: so download the
# module, copy it somewhere writable, write the version file, build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/.state/bin/ferretdb"
version=v1.24.2
if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q "version: $version"; then exit 0; fi
command -v go >/dev/null || { echo "build-ferretdb: Go is required (https://go.dev/dl)" >&2; exit 1; }
dir="$(go mod download -json "github.com/FerretDB/FerretDB@$version" | sed -n 's/.*"Dir": "\(.*\)",*/\1/p')"
[ -d "$dir" ] || { echo "build-ferretdb: module download failed" >&2; exit 1; }
work="$(mktemp -d)"; trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$dir" "$work/src" && chmod -R u+w "$work/src"
echo "$version" > "$work/src/build/version/version.txt"
mkdir -p "$(dirname "$bin")"
(cd "$work/src" && go build -trimpath -o "$bin" ./cmd/ferretdb)
echo "built $("$bin" --version | head -1) at $bin"
