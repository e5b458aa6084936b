#!/usr/bin/env sh
# Linux has no Apple SDK, so BioverifyUI's files compile to nothing here. This at least parses
# them (syntax only, no type check) with their #if canImport(...) wrapper removed. Run in sdk/ios.
set -eu
out=.build/parse-check
rm -rf "$out" && mkdir -p "$out"
for f in Sources/BioverifyUI/*.swift; do
  sed -e '1{/^#if canImport/d}' -e '${/^#endif/d}' "$f" >"$out/$(basename "$f")"
done
swiftc -parse "$out"/*.swift
echo "[parse-apple-adapters] $(ls "$out" | wc -l) BioverifyUI files parse"
