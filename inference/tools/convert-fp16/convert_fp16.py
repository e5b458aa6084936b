"""Converts an fp32 ONNX model to fp16 with onnxconverter-common, keeping fp32 inputs and outputs.

Run by convert-fp16.ts in a throwaway venv (pinned versions in requirements.txt), never at
set-up: `npm run models:convert-fp16 -- <model>`. The graph's inputs and outputs stay float32
(keep_io_types), so the model's config.json, its preprocessing and the task code are unchanged;
Cast nodes at the edges are the only structural change besides the halved weights. The output is
deterministic for pinned versions (serialisation writes fields in a fixed order, no timestamps),
which is what lets config.json pin its sha256.
"""
import argparse
import hashlib
import json
import sys

import onnx
import onnxconverter_common
from onnxconverter_common import float16


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--in", dest="source", required=True, help="fp32 model.onnx")
    parser.add_argument("--out", required=True, help="where to write the fp16 model")
    args = parser.parse_args()

    model = onnx.load(args.source)
    converted = float16.convert_float_to_float16(model, keep_io_types=True)
    onnx.checker.check_model(converted)
    data = converted.SerializeToString()
    with open(args.out, "wb") as out:
        out.write(data)
    json.dump({
        "sha256": hashlib.sha256(data).hexdigest(),
        "bytes": len(data),
        "source_bytes": len(model.SerializeToString()),
        "onnx": onnx.__version__,
        "onnxconverter_common": onnxconverter_common.__version__,
    }, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
