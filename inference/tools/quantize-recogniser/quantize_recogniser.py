"""
Static int8 quantisation of the served recogniser (text-recognition v3: the Latin classifier, the
affine blocks and hard-swishes folded), calibrated on the line crops the service really feeds it.

  .state/ort-quant-venv/bin/python inference/tools/quantize-recogniser/quantize_recogniser.py \
      --model models/text-recognition/3/model.onnx \
      --calibration .state/bench/recognition-calibration \
      --out /tmp/text-recognition-int8.onnx [--format qdq|qoperator] [--method minmax|percentile]

The calibration folder is written by dump-calibration-lines.ts (seeded choice of documents).
The model is first converted from opset 9 to 13 (per-channel QDQ needs 13), then convolutions and
matrix products are quantised per channel (int8 weights, uint8 activations, reduce_range for
AVX2 without VNNI); the CTC heads and the softmax stay in float.
"""
import argparse
import json
import os

import numpy as np
import onnx
from onnx import version_converter
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)


class LineReader(CalibrationDataReader):
    def __init__(self, folder: str, input_name: str):
        index = json.load(open(os.path.join(folder, "index.json")))
        self.items = index["inputs"]
        self.folder = folder
        self.input_name = input_name
        self.position = 0

    def get_next(self):
        if self.position >= len(self.items):
            return None
        item = self.items[self.position]
        self.position += 1
        data = np.fromfile(os.path.join(self.folder, item["file"]), dtype=np.float32)
        return {self.input_name: data.reshape(item["dims"])}

    def rewind(self):
        self.position = 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--calibration", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--format", default="qdq", choices=["qdq", "qoperator"])
    parser.add_argument("--method", default="minmax", choices=["minmax", "percentile"])
    args = parser.parse_args()

    model = onnx.load(args.model)
    upgraded = version_converter.convert_version(model, 13)
    # PaddlePaddle's export holds every weight in a Constant node; the quantiser only quantises
    # initializers, so the constants become initializers first.
    constants = [n for n in upgraded.graph.node if n.op_type == "Constant" and n.attribute[0].name == "value"]
    for n in constants:
        tensor = onnx.TensorProto()
        tensor.CopyFrom(n.attribute[0].t)
        tensor.name = n.output[0]
        upgraded.graph.initializer.append(tensor)
        upgraded.graph.node.remove(n)
    float_path = args.out + ".opset13.onnx"
    onnx.save(upgraded, float_path)
    keep_float = [
        n.name
        for n in upgraded.graph.node
        if n.name.startswith("ctc_heads/") or n.op_type in ("Softmax", "ArgMax", "ReduceMax", "TopK", "Gather")
    ]
    quantize_static(
        float_path,
        args.out,
        LineReader(args.calibration, upgraded.graph.input[0].name),
        quant_format=QuantFormat.QDQ if args.format == "qdq" else QuantFormat.QOperator,
        op_types_to_quantize=["Conv", "MatMul"],
        per_channel=True,
        reduce_range=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        nodes_to_exclude=keep_float,
        calibrate_method=CalibrationMethod.MinMax if args.method == "minmax" else CalibrationMethod.Percentile,
    )
    os.remove(float_path)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
