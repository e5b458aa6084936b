#!/usr/bin/env bash
# Test images and the OCR-B font come from Debian packages (nothing is downloaded from model hubs or
# image sites). Files are extracted into .state/assets/debian, never installed system-wide and never
# committed: opencv-doc's images have no clear licence, so they are used at test time only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.state/assets/debian"
stamp="$dest/.complete"
packages=(python3-skimage python-matplotlib-data facedetect opencv-doc fonts-ocr-b)
[ -f "$stamp" ] && exit 0
command -v apt-get >/dev/null || { echo "fetch-debian-assets: apt-get not found" >&2; exit 1; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
chmod 777 "$tmp" # lets apt's sandbox user write the downloads
apt-get download "${packages[@]}" >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get download "${packages[@]}" >/dev/null; }
for deb in ./*.deb; do dpkg -x "$deb" x; done
mkdir -p "$dest/faces" "$dest/fonts" "$dest/opencv"
cp x/usr/lib/python3/dist-packages/skimage/data/astronaut.png "$dest/faces/astronaut.png"
cp x/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg "$dest/faces/grace_hopper.jpg"
cp x/usr/share/doc/facedetect/examples/grace_hopper_512x512.jpg "$dest/faces/grace_hopper_512x512.jpg"
cp x/usr/share/doc/opencv-doc/examples/data/messi5.jpg "$dest/faces/messi5.jpg"
for f in messi_face.jpg facereg.jpg face_swapped.jpg julia_facedetect_sample.jpg lbp_yale.jpg person_multi_det.jpg; do
  cp "x/usr/share/doc/opencv-doc/opencv4/html/$f" "$dest/opencv/$f"
done
cp x/usr/share/fonts/opentype/ocr-b/OCRB.otf "$dest/fonts/OCRB.otf"
touch "$stamp"
echo "debian assets extracted to $dest"
