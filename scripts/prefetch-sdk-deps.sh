#!/usr/bin/env bash
# Downloads what the SDKs' builds need (Maven's dependencies into .state/m2, the Debian 13 tree
# with Swift under .state/swift-trixie) in the background of `npm test`, while setup, the static
# checks and the first test files use the CPU: on a fresh machine these are some 10 minutes of
# waiting on the network that would otherwise sit inside the SDK test files.
# Best effort: a failure here only means the SDK test downloads what is missing itself. Each cache
# has a lock that its builder also takes (.state/m2.lock here and in android-sdk.test.ts, the
# tree's own lock in swift-tree.sh), so a test never builds on a half-filled cache.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
mkdir -p .state
log() { printf '[prefetch] %s\n' "$*" >&2; }

if command -v mvn >/dev/null; then
  (
    flock 8
    started=$(date +%s)
    if mvn -B -ntp -Dmaven.repo.local="$root/.state/m2" -f sdk/android/pom.xml dependency:go-offline \
      >.state/prefetch-maven.log 2>&1; then
      log "Maven dependencies for sdk/android in $(($(date +%s) - started)) s"
    else
      log "Maven prefetch failed (see .state/prefetch-maven.log); the Android test fetches them itself"
    fi
  ) 8>.state/m2.lock
fi

# Only where debootstrap is installed: installing it here could race setup.sh's own apt-get.
if [ "$(id -u)" -eq 0 ] && command -v debootstrap >/dev/null; then
  started=$(date +%s)
  if bash sdk/ios/scripts/swift-tree.sh ensure >.state/prefetch-swift.log 2>&1; then
    log "Swift tree ready in $(($(date +%s) - started)) s"
  else
    log "Swift tree prefetch failed (see .state/prefetch-swift.log); the iOS test makes it itself"
  fi
fi
