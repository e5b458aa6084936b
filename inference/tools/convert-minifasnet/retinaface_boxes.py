"""
Face boxes as Silent-Face-Anti-Spoofing finds them (src/anti_spoof_predict.py Detection.get_bbox:
its Caffe RetinaFace on the image scaled to about 192x192 pixels, the most confident box, as
[left, top, width, height] in integers), to compare with the box the project's BlazeFace gives.

  python3 retinaface_boxes.py --upstream-git-dir <bare git dir> --commit <sha> image.jpg ...

Needs opencv-python-headless < 5 (OpenCV 5 dropped the Caffe importer). Prints one JSON object.
"""
import argparse
import json
import math
import os
import subprocess
import tempfile

import cv2
import numpy as np


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream-git-dir", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("images", nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        files = {}
        for name in ["Widerface-RetinaFace.caffemodel", "deploy.prototxt"]:
            files[name] = os.path.join(work, name)
            with open(files[name], "wb") as f:
                f.write(subprocess.run(["git", "--git-dir", args.upstream_git_dir, "show", f"{args.commit}:resources/detection_model/{name}"], check=True, capture_output=True).stdout)
        detector = cv2.dnn.readNetFromCaffe(files["deploy.prototxt"], files["Widerface-RetinaFace.caffemodel"])
    out = {}
    for path in args.images:
        img = cv2.imread(path)
        height, width = img.shape[:2]
        small = img
        if width * height >= 192 * 192:
            ratio = width / height
            small = cv2.resize(img, (int(192 * math.sqrt(ratio)), int(192 / math.sqrt(ratio))), interpolation=cv2.INTER_LINEAR)
        detector.setInput(cv2.dnn.blobFromImage(small, 1, mean=(104, 117, 123)), "data")
        found = detector.forward("detection_out").squeeze()
        best = int(np.argmax(found[:, 2]))
        left, top, right, bottom = found[best, 3] * width, found[best, 4] * height, found[best, 5] * width, found[best, 6] * height
        out[path] = {"confidence": float(found[best, 2]), "box": [int(left), int(top), int(right - left + 1), int(bottom - top + 1)]}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
