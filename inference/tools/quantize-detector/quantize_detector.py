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
from onnx import numpy_helper, version_converter
from onnxruntime.quantization import (
    CalibrationDataReader,
    CalibrationMethod,
    QuantFormat,
    QuantType,
    quantize_static,
)
from onnxruntime.quantization.shape_inference import quant_pre_process

METHODS = {
    "minmax": CalibrationMethod.MinMax,
    # MinMax averaged over the pages instead of the extremes of all of them (CalibMovingAverage).
    "minmax-average": CalibrationMethod.MinMax,
    "percentile": CalibrationMethod.Percentile,
    "entropy": CalibrationMethod.Entropy,
}
OPS = {
    "conv": ["Conv", "ConvTranspose"],
    "all": ["Conv", "ConvTranspose", "Add", "Mul", "Resize", "Concat", "GlobalAveragePool", "Relu", "Clip"],
    # Resize on uint8 measured slower than on float (19.5 against 7.2 ms a page in ORT 1.20).
    "all-but-resize": ["Conv", "ConvTranspose", "Add", "Mul", "Concat", "GlobalAveragePool", "Relu", "Clip"],
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


def upgrade(model: onnx.ModelProto, divide_as_multiply: bool) -> onnx.ModelProto:
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
    # The hard-swishes divide by a constant 6; onnxruntime has QLinearMul but no quantised Div, so
    # a Div stays float between a Dequantize and a Quantize. As a Mul by 1/6 it is quantised too.
    if divide_as_multiply:
        weights = {t.name: t for t in upgraded.graph.initializer}
        for n in upgraded.graph.node:
            divisor = weights.get(n.input[1]) if n.op_type == "Div" else None
            if divisor is None or numpy_helper.to_array(divisor).size != 1:
                continue
            reciprocal = numpy_helper.from_array(
                (1 / numpy_helper.to_array(divisor)).astype(np.float32), n.input[1] + "_reciprocal"
            )
            upgraded.graph.initializer.append(reciprocal)
            n.op_type = "Mul"
            n.input[1] = reciprocal.name
    return upgraded


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", required=True)
    parser.add_argument("--calibration", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--format", default="qdq", choices=["qdq", "qoperator"])
    parser.add_argument("--method", default="minmax", choices=sorted(METHODS))
    parser.add_argument("--ops", default="conv", choices=sorted(OPS))
    parser.add_argument("--divide-as-multiply", action="store_true")
    parser.add_argument("--preprocess", action="store_true")
    parser.add_argument("--float-head", action="store_true")
    parser.add_argument("--float-out", help="also write the rewritten float model here (the fair float baseline)")
    args = parser.parse_args()

    upgraded = upgrade(onnx.load(args.model), args.divide_as_multiply)
    if args.float_out:
        onnx.save(upgraded, args.float_out)
    float_path = args.out + ".opset13.onnx"
    onnx.save(upgraded, float_path)
    if args.preprocess:
        # onnxruntime's own pre-processing folds each BatchNormalization into its Conv before the
        # quantiser sees them; otherwise the Conv is quantised alone and the BN stays float.
        quant_pre_process(float_path, float_path, skip_symbolic_shape=True)
    prepared = onnx.load(float_path)
    keep_float = [n.name for n in prepared.graph.node if n.op_type == "Sigmoid"]
    if args.float_head:
        # The DB head (from the neck's Concat to the sigmoid) draws the probability map whose 0.3
        # contour becomes each box: kept in float, the boxes move less.
        names = [n.name for n in prepared.graph.node]
        start = next(i for i, n in enumerate(prepared.graph.node) if n.op_type == "Concat")
        keep_float = names[start:]
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
        # Every activation of a 960-px page is kept until its histogram is taken: at 4 pages a
        # time this took 21 GB and was OOM-killed, at 1 it still passed a 9 GB address-space cap.
        extra_options=(
            {"CalibMovingAverage": True}
            if args.method == "minmax-average"
            else {"CalibMaxIntermediateOutputs": 1}
            if args.method != "minmax"
            else {}
        ),
    )
    os.remove(float_path)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
