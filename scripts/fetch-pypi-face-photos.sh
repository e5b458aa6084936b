#!/usr/bin/env bash
# Independent photos of one person (three of Barack Obama, taken years apart) and one of Joe Biden,
# from the face_recognition 1.3.0 source distribution on PyPI (MIT, Adam Geitgey; the photos are
# official White House photographs). Only `pip download` is used: nothing is installed. Extracted
# into .state/assets/pypi/face_recognition with the package's LICENSE; never committed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.state/assets/pypi/face_recognition"
stamp="$dest/.complete"
version=1.3.0
[ -f "$stamp" ] && exit 0
py="$(command -v python3 || command -v python || true)"
[ -n "$py" ] || { echo "fetch-pypi-face-photos: python3 not found" >&2; exit 1; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"$py" -m pip download --quiet --no-binary :all: --no-deps --no-build-isolation "face_recognition==$version" -d "$tmp" >/dev/null 2>&1 \
  || "$py" -m pip download --quiet --no-binary :all: --no-deps "face_recognition==$version" -d "$tmp"
tar -xzf "$tmp/face_recognition-$version.tar.gz" -C "$tmp"
src="$tmp/face_recognition-$version"
# The photos the face-line set was measured on, pinned so a changed file cannot pass unnoticed.
sha256sum -c --quiet - <<SUMS
0930e3aa8cae5920329c0c8cbc6a2ab70f47b0e67b432875beaa95cbf7e741f6  $src/tests/test_images/obama.jpg
a7efcc907375274796f39646510704aa86672d59f6d5469d69af3c85590976a6  $src/tests/test_images/obama2.jpg
76ac6bf97c36dc2da0ad16a537d6a5ac1b10f48d49aac29a0cca9a17cdbc3ca3  $src/tests/test_images/obama3.jpg
3c17508bb91554c637a2eabddfae790e5bb1caba93130814fc2ac50be9760c4c  $src/tests/test_images/biden.jpg
SUMS
mkdir -p "$dest"
for f in obama.jpg obama2.jpg obama3.jpg biden.jpg; do cp "$src/tests/test_images/$f" "$dest/$f"; done
cp "$src/LICENSE" "$dest/LICENSE"
echo "face_recognition==$version sdist (PyPI), tests/test_images" > "$dest/PROVENANCE"
touch "$stamp"
echo "face_recognition test photos extracted to $dest"
