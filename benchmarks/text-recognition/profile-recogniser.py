"""
Where the recogniser's time goes, by ONNX op type: onnxruntime's profiler over a few runs of each
model file at the widths the MRZ read uses (one thread, as an executor runs it).

  .state/ort-quant-venv/bin/python benchmarks/text-recognition/profile-recogniser.py \
      models/text-recognition/2/model.onnx models/text-recognition/3/model.onnx [--widths 1280,1600] [--runs 10]

Input is a fixed-seed random line image (the time of these ops does not depend on the pixels).
Prints, per model and width, the median wall time of a run and each op type's share of the profiled
node time, with the classifier (the last MatMul + Add) and softmax apart.
"""
import argparse
import json
import os
import statistics
import tempfile
import time
from collections import defaultdict

import numpy as np
import onnxruntime as ort


def profile(model: str, width: int, runs: int):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.enable_profiling = True
    options.profile_file_prefix = os.path.join(tempfile.mkdtemp(), "ort")
    session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
    x = np.random.default_rng(7).uniform(-1, 1, (1, 3, 48, width)).astype(np.float32)
    name = session.get_inputs()[0].name
    session.run(None, {name: x})  # first run of a shape allocates
    walls = []
    for _ in range(runs):
        started = time.perf_counter()
        session.run(None, {name: x})
        walls.append((time.perf_counter() - started) * 1000)
    events = json.load(open(session.end_profiling()))
    by_op = defaultdict(float)
    by_node = defaultdict(float)
    for e in events:
        if e.get("cat") == "Node" and e["name"].endswith("_kernel_time"):
            by_op[e["args"]["op_name"]] += e["dur"]
            by_node[e["name"][: -len("_kernel_time")]] += e["dur"]
    return statistics.median(walls), by_op, by_node


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("models", nargs="+")
    parser.add_argument("--widths", default="1280,1600")
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    for width in map(int, args.widths.split(",")):
        for model in args.models:
            wall, by_op, by_node = profile(model, width, args.runs)
            total = sum(by_op.values())
            print(f"\n{model} width {width}: median run {wall:.1f} ms (1 thread)")
            for op, us in sorted(by_op.items(), key=lambda kv: -kv[1])[:12]:
                print(f"  {op:24s} {100 * us / total:5.1f}%")
            tail = {n: us for n, us in by_node.items() if "p2o.MatMul.25" in n or "p2o.Add.277" in n or "softmax_11" in n or "ctc_heads" in n}
            for n, us in sorted(tail.items(), key=lambda kv: -kv[1]):
                print(f"    {n:40s} {100 * us / total:5.1f}%")


if __name__ == "__main__":
    main()
