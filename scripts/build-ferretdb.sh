#!/usr/bin/env bash
# Builds FerretDB v1.24.2 from the Go module proxy, with two patches (below), into
# .state/bin/ferretdb-v1.24.2-idpush (idempotent).
# `go install ...@v1.24.2` fails behind this proxy (its deprecation lookup gets 403), and a plain
# build of the module needs build/version/version.txt, which the module zip lacks: so download the
# module, copy it somewhere writable, write the version file, patch, build.
#
# The patch: FerretDB 1.24's SQLite backend looks documents up by `_ferretdb_sjson->'$._id'` while
# the unique _id index it creates is on `_ferretdb_sjson->"_id"`. SQLite only uses an expression
# index for the same expression, so every find/update/delete by _id scanned the whole table (and
# updates did so under the database's write lock). `->'_id'` means the same path ($._id) and
# matches the index: `EXPLAIN QUERY PLAN` turns from "SCAN" into "SEARCH ... USING INDEX ..__id_".
#
# The second patch (ferretdb-id-pushdown.patch, next to this script): 1.24 sends a filter on _id to
# SQLite only when _id is the whole filter. A guarded write ({_id, attempt: {$in}, status}) or a
# lookup of several ids ({_id: {$in: [...]}}) read and decoded every document of the collection in
# Go, so each cost grew with the store: 50 ms of FerretDB CPU per command at 127 sessions, about
# 4 such commands per verification. The patch puts `_id = ?` (or `_id IN (...)`) in the SQL whenever
# the filter holds one, beside whatever else it holds; the handlers still filter every returned
# document by the whole filter, as the backend interface allows ("may be applied partially").
# It also deletes by _id without reading the document first when {_id} is the whole filter: 1.24
# read it only to learn the _id the filter names (~17 ms for a 437 KB binary).
#
# FerretDB 1.x is out of maintenance (2.x dropped SQLite), hence local patches, not an upgrade.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$root/.state/bin/ferretdb-v1.24.2-idpush"
version=v1.24.2
label="$version-idpush"
if [ -x "$bin" ] && "$bin" --version 2>/dev/null | grep -q "version: $label"; then exit 0; fi
command -v go >/dev/null || { echo "build-ferretdb: Go is required (https://go.dev/dl)" >&2; exit 1; }
dir="$(go mod download -json "github.com/FerretDB/FerretDB@$version" | sed -n 's/.*"Dir": "\(.*\)",*/\1/p')"
[ -d "$dir" ] || { echo "build-ferretdb: module download failed" >&2; exit 1; }
work="$(mktemp -d)"; trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
cp -r "$dir" "$work/src" && chmod -R u+w "$work/src"
echo "$label" > "$work/src/build/version/version.txt"
meta="$work/src/internal/backends/sqlite/metadata/metadata.go"
sed -i "s|IDColumn = DefaultColumn + \"->'\\\$._id'\"|IDColumn = DefaultColumn + \"->'_id'\"|" "$meta"
grep -q "IDColumn = DefaultColumn + \"->'_id'\"" "$meta" || { echo "build-ferretdb: the _id patch did not apply" >&2; exit 1; }
(cd "$work/src" && git apply "$root/scripts/ferretdb-id-pushdown.patch") || { echo "build-ferretdb: the _id pushdown patch did not apply" >&2; exit 1; }
mkdir -p "$(dirname "$bin")"
(cd "$work/src" && go build -trimpath -o "$bin.tmp" ./cmd/ferretdb) && mv "$bin.tmp" "$bin"
echo "built $("$bin" --version | head -1) at $bin"
