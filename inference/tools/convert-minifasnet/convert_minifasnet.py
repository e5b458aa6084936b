"""
Converts Minivision's MiniFASNet anti-spoofing weights (Silent-Face-Anti-Spoofing, Apache-2.0) to
ONNX and checks the ONNX graph against the PyTorch reference.

Usage (see README.md beside this file):
  python3 convert_minifasnet.py --upstream-git-dir <bare git dir> --commit <sha> --out <dir>

The upstream model code (src/model_lib/MiniFASNet.py) and the two .pth state dicts are read from
the given commit with `git show`, so the output is tied to an exact upstream revision. Each
exported graph is the network followed by the softmax upstream applies in anti_spoof_predict.py:
input `image` [N,3,80,80] float32 (BGR, 0-255, no normalisation), output `probabilities` [N,3]
(index 1 = real). The batch axis is dynamic.
"""
import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from collections import OrderedDict

import numpy as np
import onnx
import onnxruntime as ort
import torch

MODELS = [
    # (upstream .pth path, upstream class, output file)
    ("resources/anti_spoof_models/2.7_80x80_MiniFASNetV2.pth", "MiniFASNetV2", "minifasnet-v2-2.7_80x80.onnx"),
    ("resources/anti_spoof_models/4_0_0_80x80_MiniFASNetV1SE.pth", "MiniFASNetV1SE", "minifasnet-v1se-4.0_80x80.onnx"),
]
SAMPLE_IMAGES = ["images/sample/image_F1.jpg", "images/sample/image_F2.jpg", "images/sample/image_T1.jpg"]


def git_show(git_dir, commit, path):
    return subprocess.run(["git", "--git-dir", git_dir, "show", f"{commit}:{path}"], check=True, capture_output=True).stdout


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def load_model_code(git_dir, commit, workdir):
    source = os.path.join(workdir, "MiniFASNet.py")
    with open(source, "wb") as f:
        f.write(git_show(git_dir, commit, "src/model_lib/MiniFASNet.py"))
    spec = importlib.util.spec_from_file_location("MiniFASNet", source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_network(module, class_name, pth_path):
    # upstream get_kernel(80, 80): ((h + 15) // 16, (w + 15) // 16)
    net = getattr(module, class_name)(conv6_kernel=(5, 5))
    state = torch.load(pth_path, map_location="cpu", weights_only=True)
    # the weights were saved from a DataParallel wrapper: keys start with "module."
    state = OrderedDict((k[7:] if k.startswith("module.") else k, v) for k, v in state.items())
    net.load_state_dict(state)
    return net.eval()


class WithSoftmax(torch.nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, image):
        return torch.softmax(self.net(image), dim=1)


def parity_inputs(git_dir, commit):
    """Random 0-255 inputs plus the upstream sample photos, resized whole to 80x80 (BGR)."""
    rng = np.random.default_rng(7)
    batches = [rng.uniform(0, 255, size=(8, 3, 80, 80)).astype(np.float32)]
    try:
        import cv2  # optional: only for the real-photo parity inputs
        photos = []
        for path in SAMPLE_IMAGES:
            data = np.frombuffer(git_show(git_dir, commit, path), np.uint8)
            img = cv2.resize(cv2.imdecode(data, cv2.IMREAD_COLOR), (80, 80))
            photos.append(img.transpose(2, 0, 1).astype(np.float32))
        batches.append(np.stack(photos))
    except ImportError:
        pass
    return batches


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream-git-dir", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    report = {"upstream": "https://github.com/minivision-ai/Silent-Face-Anti-Spoofing", "commit": args.commit,
              "torch": torch.__version__, "onnx": onnx.__version__, "onnxruntime": ort.__version__, "opset": 17, "models": []}
    with tempfile.TemporaryDirectory() as work:
        module = load_model_code(args.upstream_git_dir, args.commit, work)
        inputs = parity_inputs(args.upstream_git_dir, args.commit)
        for pth, class_name, out_name in MODELS:
            pth_bytes = git_show(args.upstream_git_dir, args.commit, pth)
            pth_file = os.path.join(work, os.path.basename(pth))
            with open(pth_file, "wb") as f:
                f.write(pth_bytes)
            # eval() on the wrapper: the exporter restores the wrapper's own mode afterwards, which
            # would otherwise put dropout and batch norm back into training mode for the parity run.
            model = WithSoftmax(load_network(module, class_name, pth_file)).eval()
            out_path = os.path.join(args.out, out_name)
            torch.onnx.export(model, torch.zeros(1, 3, 80, 80), out_path, opset_version=17, dynamo=False,
                              input_names=["image"], output_names=["probabilities"],
                              dynamic_axes={"image": {0: "N"}, "probabilities": {0: "N"}}, do_constant_folding=True)
            onnx.checker.check_model(onnx.load(out_path))
            session = ort.InferenceSession(out_path, providers=["CPUExecutionProvider"])
            worst = 0.0
            with torch.no_grad():
                for batch in inputs:
                    reference = model(torch.from_numpy(batch)).numpy()
                    got = session.run(None, {"image": batch})[0]
                    worst = max(worst, float(np.abs(reference - got).max()))
            onnx_bytes = open(out_path, "rb").read()
            entry = {"file": out_name, "class": class_name, "upstream_path": pth, "pth_sha256": sha256(pth_bytes),
                     "onnx_sha256": sha256(onnx_bytes), "onnx_bytes": len(onnx_bytes),
                     "parity_inputs": int(sum(b.shape[0] for b in inputs)), "max_abs_diff_probabilities": worst}
            report["models"].append(entry)
            print(json.dumps(entry))
    with open(os.path.join(args.out, "conversion-report.json"), "w") as f:
        json.dump(report, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
