"""
Static int8 quantisation of the served text detector (text-detection v1: PP-OCRv4 mobile DB
detector), calibrated on the page tensors the service really feeds it.

  .state/ort-quant-venv/bin/python inference/tools/quantize-detector/quantize_detector.py \
      --model models/text-detection/1/model.onnx \
      --calibration .state/bench/detection-calibration \
      --out /tmp/text-detection-int8.onnx [--format qdq|qoperator] \
      [--method minmax|percentile|entropy] [--ops conv|all]

The calibration folder is written by dump-calibration-pages.ts (seeded choice of documents).
The model is first converted from opset 11 to 13 (per-channel QDQ needs 13) with its Constant
weights moved to initializers, then quantised per channel (int8 weights, uint8 activations,
reduce_range for AVX2 without VNNI). `--ops conv` quantises the convolutions only; `--ops all`
also the element-wise and resize nodes between them, so fewer tensors go back to float. The
final sigmoid (the probability map the DB post-processing thresholds) always stays float.
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

METHODS = {
    "minmax": CalibrationMethod.MinMax,
    "percentile": CalibrationMethod.Percentile,
    "entropy": CalibrationMethod.Entropy,
}
OPS = {
    "conv": ["Conv", "ConvTranspose"],
    "all": ["Conv", "ConvTranspose", "Add", "Mul", "Resize", "Concat", "GlobalAveragePool", "Relu", "Clip"],
}


class PageReader(CalibrationDataReader):
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


def upgrade(model: onnx.ModelProto) -> onnx.ModelProto:
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
    return upgraded


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--calibration", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--format", default="qdq", choices=["qdq", "qoperator"])
    parser.add_argument("--method", default="minmax", choices=sorted(METHODS))
    parser.add_argument("--ops", default="conv", choices=sorted(OPS))
    args = parser.parse_args()

    upgraded = upgrade(onnx.load(args.model))
    float_path = args.out + ".opset13.onnx"
    onnx.save(upgraded, float_path)
    keep_float = [n.name for n in upgraded.graph.node if n.op_type == "Sigmoid"]
    quantize_static(
        float_path,
        args.out,
        PageReader(args.calibration, upgraded.graph.input[0].name),
        quant_format=QuantFormat.QDQ if args.format == "qdq" else QuantFormat.QOperator,
        op_types_to_quantize=OPS[args.ops],
        per_channel=True,
        reduce_range=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
        nodes_to_exclude=keep_float,
        calibrate_method=METHODS[args.method],
        # Histograms of whole 960-px pages are large: collected a few pages at a time.
        extra_options={"CalibMaxIntermediateOutputs": 4} if args.method != "minmax" else {},
    )
    os.remove(float_path)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
