#!/usr/bin/env bash
# Builds and tests the Swift package on a Debian 12 host, which has no Swift toolchain: a Debian 13
# (trixie) minbase tree with `swiftlang` is made once under the ignored .state/ and reused, the
# repository is bind-mounted into it, and the command runs there.
#
#   bash sdk/ios/scripts/swift-tree.sh                 # ensure the tree, then swift build && swift test
#   bash sdk/ios/scripts/swift-tree.sh ensure          # only make the tree
#   bash sdk/ios/scripts/swift-tree.sh run -- CMD...   # run CMD in sdk/ios inside the tree
#
# Environment: SWIFT_TREE_DIR (default <repo>/.state/swift-trixie); BIOVERIFY_* variables are passed
# into the tree (the end-to-end test reads its base URL and sandbox key from them).
# Needs root (debootstrap, chroot, mount). The mirror is taken from the host's apt sources so that
# no mirror host is written in the repository.
set -euo pipefail

repo="$(cd "$(dirname "$0")/../../.." && pwd)"
tree="${SWIFT_TREE_DIR:-$repo/.state/swift-trixie}"
packages=(swiftlang libc6-dev libstdc++-14-dev)
ready_marker="$tree/.bioverify-swift-tree-ready"

log() { echo "[swift-tree] $*" >&2; }

if [[ "$(id -u)" != 0 ]]; then
  log "needs root (debootstrap, chroot and mount); run it with sudo"
  exit 1
fi

host_mirror() {
  local uri=""
  if compgen -G '/etc/apt/sources.list.d/*.sources' >/dev/null; then
    # deb822: the first URIs line of a stanza that carries a main Debian suite (not -security).
    uri="$(awk '
      /^URIs:/ { u = $2 }
      /^Suites:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/ && u != "") { print u; exit } }
    ' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)"
  fi
  if [[ -z "$uri" && -f /etc/apt/sources.list ]]; then
    uri="$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' \
      /etc/apt/sources.list | head -n1)"
  fi
  [[ -n "$uri" ]] || { log "no Debian mirror found in the host's apt sources"; exit 1; }
  echo "$uri"
}

ensure_debootstrap() {
  command -v debootstrap >/dev/null && return
  log "installing debootstrap with apt-get"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
}

make_tree() {
  [[ -f "$ready_marker" ]] && return
  mkdir -p "$(dirname "$tree")"
  # One maker at a time; a second caller waits, then finds the marker. The lock is held only while
  # making, not while the tests run.
  exec 9>"$tree.lock"
  flock 9
  if [[ ! -f "$ready_marker" ]]; then make_tree_locked; fi
  exec 9>&-
}

make_tree_locked() {
  ensure_debootstrap
  local mirror staging started
  mirror="$(host_mirror)"
  staging="$tree.partial"
  rm -rf "$staging" "$tree"
  started=$(date +%s)
  log "debootstrap --variant=minbase trixie from $mirror"
  debootstrap --variant=minbase trixie "$staging" "$mirror" >"$staging.log" 2>&1 ||
    { tail -n 30 "$staging.log" >&2; exit 1; }
  cp /etc/resolv.conf "$staging/etc/resolv.conf"
  log "installing ${packages[*]} in the tree"
  with_mounts "$staging" chroot "$staging" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    DEBIAN_FRONTEND=noninteractive \
    sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${packages[*]} >/dev/null && apt-get clean" ||
    exit 1
  mkdir -p "$staging/repo"
  touch "$staging/.bioverify-swift-tree-ready"
  mv "$staging" "$tree"
  log "tree ready in $(($(date +%s) - started)) s, $(du -sh "$tree" | cut -f1) at $tree"
}

# Runs "$@" with /proc, /dev and the repository mounted in tree $1, in a private mount namespace:
# the mounts vanish with the namespace, and the trap unmounts them on any exit before that.
with_mounts() {
  local root="$1"
  shift
  unshare --mount --propagation private -- bash -c '
    set -euo pipefail
    root="$1"; repo="$2"; shift 2
    state=""
    cleanup() {
      for m in ${state:+"$root$state"} "$root/repo" "$root/dev/pts" "$root/dev" "$root/proc"; do
        mountpoint -q "$m" && umount -l "$m" || true
      done
    }
    trap cleanup EXIT
    mount -t proc proc "$root/proc"
    mount --rbind /dev "$root/dev"
    mkdir -p "$root/repo"
    mount --bind "$repo" "$root/repo"
    # A checkout whose .state is a symlink (a git worktree sharing the main checkout state) sees the
    # target at the same absolute path inside the tree, so the link resolves there too.
    if [ -L "$repo/.state" ]; then
      state="$(readlink -f "$repo/.state")"
      mkdir -p "$root$state"
      mount --bind "$state" "$root$state"
    fi
    "$@"
  ' with-mounts "$root" "$repo" "$@"
}

run_in_tree() {
  local envs=(PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8)
  local name
  while IFS= read -r name; do envs+=("$name=${!name}"); done < <(compgen -e | grep '^BIOVERIFY_' || true)
  with_mounts "$tree" chroot "$tree" /usr/bin/env -i "${envs[@]}" \
    sh -c 'cd /repo/sdk/ios && exec "$@"' sh "$@"
}

cmd="${1:-test}"
case "$cmd" in
  ensure) make_tree ;;
  run)
    shift
    [[ "${1:-}" == "--" ]] && shift
    make_tree
    run_in_tree "$@"
    ;;
  test)
    make_tree
    run_in_tree sh -c 'swift build && swift test && sh scripts/parse-apple-adapters.sh'
    ;;
  *)
    echo "usage: $0 [test | ensure | run -- CMD...]" >&2
    exit 2
    ;;
esac
