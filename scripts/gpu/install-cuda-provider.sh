#!/usr/bin/env bash
# Makes onnxruntime-node able to run on CUDA, from pinned PyPI wheels only (nothing outside the
# registries, no CUDA base image). onnxruntime-node 1.30.0's own libonnxruntime.so.1 is built with CUDA support; what it
# lacks is the provider pair from onnxruntime-gpu==1.30.0 (the same build) next to the binding, and
# the CUDA 13 runtime libraries on the executors' LD_LIBRARY_PATH. Idempotent: cached wheels and
# extracted libraries are reused when their sha256 still matches the pins.
#
#   bash scripts/gpu/install-cuda-provider.sh          (npm run gpu:install)
#   GPU_CACHE_DIR=/opt/gpu bash scripts/gpu/install-cuda-provider.sh   (the GPU image)
#
# Writes <cache>/env with INFERENCE_CUDA_LIBRARY_PATH=<cache>/lib, which scripts/start.sh and the
# tests pass to the inference service.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
lock="$here/cuda-provider.lock"
library_pins="$here/cuda-libraries.sha256"
cache="${GPU_CACHE_DIR:-$root/.state/gpu}"
wheels="$cache/wheels"
lib="$cache/lib"
binding_dir="${ORT_BINDING_DIR:-$root/node_modules/onnxruntime-node/bin/napi-v6/linux/x64}"
started=$(date +%s%N)
step() { printf '[gpu:install] %s\n' "$*" >&2; }
fail() { printf '[gpu:install] FAILED: %s\n' "$*" >&2; exit 1; }
elapsed() { local ms=$((($(date +%s%N) - started) / 1000000)); printf '%d.%d s' $((ms / 1000)) $((ms % 1000 / 100)); }
provider_pins() { grep -E ' libonnxruntime_providers_(cuda|shared)\.so$' "$library_pins"; }
pinned_names() { grep -vE '^#' "$library_pins" | awk '{print $2}' | sort; }

[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || fail "the pinned wheels are for Linux x86_64, not $(uname -s)-$(uname -m)"
[ -f "$binding_dir/libonnxruntime.so.1" ] || fail "no onnxruntime-node binding in $binding_dir (run npm install first)"
locked_hashes() { grep -oE 'sha256:[0-9a-f]{64}' "$lock" | cut -d: -f2 | sort; }
cached_hashes() { for f in "$wheels"/*.whl; do [ -f "$f" ] && sha256sum "$f" | cut -c1-64; done | sort; }
wanted=$(grep -cE '^[a-z]' "$lock")

# 1. The wheels: pip checks every download against the lock's hashes (--require-hashes). Hashing
# 1.5 GB takes ~20 s, so a verified set is stamped with the lock's hash and each file's size and
# mtime; an unchanged set is not hashed again.
mkdir -p "$wheels"
wheel_stamp() { sha256sum "$lock" | cut -c1-64; stat -c '%n %s %Y' "$wheels"/*.whl 2>/dev/null; }
if [ "$(wheel_stamp)" = "$(cat "$wheels/.verified" 2>/dev/null)" ]; then
  step "wheels present and verified earlier ($(du -sb "$wheels" | cut -f1) bytes)"
elif [ "$(cached_hashes)" != "$(locked_hashes)" ]; then
  step "downloading $wanted pinned wheels from PyPI into $wheels (about 1.5 GB)"
  rm -f "$wheels"/*.whl
  command -v python3 >/dev/null || fail "python3 with pip is needed to download the wheels"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
    --platform manylinux2014_x86_64 --platform manylinux2010_x86_64 --platform manylinux1_x86_64 \
    --python-version 3.12 --implementation cp -r "$lock" -d "$wheels" || fail "pip download failed (is PyPI reachable?)"
  [ "$(cached_hashes)" = "$(locked_hashes)" ] || fail "downloaded wheels do not match the hashes in $lock"
  step "downloaded in $(elapsed): $(du -sb "$wheels" | cut -f1) bytes"
else
  step "wheels present and verified ($(du -sb "$wheels" | cut -f1) bytes)"
fi
wheel_stamp >"$wheels/.verified"

# 2. The libraries, extracted flat into one folder. A stamp of the lock's hash marks a complete
# extraction; a half-done one (interrupted) has no stamp and is redone.
stamp="$lib/.lock-sha256"
lock_sha=$(sha256sum "$lock" | cut -c1-64)
present_names() { (cd "$lib" 2>/dev/null && ls -1 -- *.so* 2>/dev/null | sort); }
if [ "$(cat "$stamp" 2>/dev/null)" != "$lock_sha" ] || [ "$(present_names)" != "$(pinned_names)" ] || ! (cd "$lib" && provider_pins | sha256sum --quiet -c); then
  step "extracting the libraries into $lib"
  rm -rf "$lib.tmp" && mkdir -p "$lib.tmp"
  for whl in "$wheels"/*.whl; do
    case "$(basename "$whl")" in
      onnxruntime_gpu-*) unzip -q -j -o "$whl" 'onnxruntime/capi/libonnxruntime_providers_cuda.so' 'onnxruntime/capi/libonnxruntime_providers_shared.so' 'onnxruntime/capi/build_and_package_info.py' -d "$lib.tmp" ;;
      nvidia_cublas-*) unzip -q -j -o "$whl" 'nvidia/*/lib/libcublas.so.*' 'nvidia/*/lib/libcublasLt.so.*' -d "$lib.tmp" ;;
      nvidia_cufft-*) unzip -q -j -o "$whl" 'nvidia/*/lib/libcufft.so.*' -d "$lib.tmp" ;;
      *) unzip -q -j -o "$whl" 'nvidia/*/lib/*.so*' -d "$lib.tmp" ;;
    esac
  done
  (cd "$lib.tmp" && grep -vE '^#' "$library_pins" | sha256sum --quiet -c) || fail "extracted libraries differ from $library_pins"
  [ "$(cd "$lib.tmp" && ls -1 -- *.so* | sort)" = "$(pinned_names)" ] || fail "extracted library names differ from $library_pins"
  rm -rf "$lib" && mv "$lib.tmp" "$lib"
  echo "$lock_sha" >"$stamp"
  step "extracted in $(elapsed): $(du -sb "$lib" | cut -f1) bytes"
fi

# 3. The provider pair must be the pinned 1.30.0 build. An older provider (1.29) also loads into
# 1.30, so a load proves nothing: check the file hashes, the wheel's version and the binding's.
(cd "$lib" && provider_pins | sha256sum --quiet -c) || fail "provider libraries in $lib differ from $library_pins"
wheel_version=$(sed -n "s/^__version__ = '\(.*\)'$/\1/p" "$lib/build_and_package_info.py")
node_version=$(node -p "require('$root/node_modules/onnxruntime-node/package.json').version")
binding_version=$(grep -aoE 'VERS_[0-9]+\.[0-9]+\.[0-9]+' "$binding_dir/libonnxruntime.so.1" | head -1 | cut -d_ -f2)
[ "$wheel_version" = "$node_version" ] && [ "$binding_version" = "$node_version" ] \
  || fail "version mismatch: onnxruntime-gpu wheel $wheel_version, onnxruntime-node $node_version, libonnxruntime.so.1 $binding_version"

for so in libonnxruntime_providers_cuda.so libonnxruntime_providers_shared.so; do
  if ! cmp -s "$lib/$so" "$binding_dir/$so"; then cp "$lib/$so" "$binding_dir/$so.tmp" && mv "$binding_dir/$so.tmp" "$binding_dir/$so"; fi
done
(cd "$binding_dir" && provider_pins | sha256sum --quiet -c) || fail "provider libraries in $binding_dir differ from $library_pins"

# 4. Every library the provider needs must resolve from the cache, except the driver's libcuda.so.1,
# which only a GPU node has (the NVIDIA device plugin mounts it).
# cuDNN, cuFFT, NVRTC and nvJitLink are opened later (at the first kernel that needs them), so
# each extracted library's own dependencies are checked too.
missing=$(for so in "$binding_dir/libonnxruntime_providers_cuda.so" "$lib"/*.so*; do LD_LIBRARY_PATH="$lib" ldd "$so" | awk -v so="$(basename "$so")" '/not found/ {print so " needs " $1}'; done | grep -v 'needs libcuda\.so\.1$' | sort -u || true)
[ -z "$missing" ] || fail "libraries still missing after extraction: $missing"
driver=$(LD_LIBRARY_PATH="$lib" ldd "$binding_dir/libonnxruntime_providers_cuda.so" | awk '/libcuda\.so\.1/ && !/not found/ {print $3}')

printf 'INFERENCE_CUDA_LIBRARY_PATH=%s\n' "$lib" >"$cache/env"
step "onnxruntime $node_version CUDA provider installed in $binding_dir; libraries in $lib; driver library: ${driver:-not found (no NVIDIA driver on this host)}"
step "done in $(elapsed); wrote $cache/env"
