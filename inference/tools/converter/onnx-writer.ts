/**
 * Serialises an OnnxGraph with onnx-proto. Nothing time- or host-dependent goes in, so the same
 * graph always gives the same bytes (config.json pins their sha256).
 */
import { onnx } from 'onnx-proto';
import type { OnnxAttribute, OnnxGraph, OnnxInitializer, OnnxValueInfo } from './onnx-graph';

export const OPSET = 13;
const IR_VERSION = 7; // the IR that introduced opset 13's era; onnxruntime reads it natively

function attribute(name: string, a: OnnxAttribute): onnx.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  switch (a.type) {
    case 'int':
      return { name, type: T.INT, i: a.value };
    case 'ints':
      return { name, type: T.INTS, ints: a.value };
    case 'float':
      return { name, type: T.FLOAT, f: a.value };
    case 'string':
      return { name, type: T.STRING, s: Buffer.from(a.value, 'utf8') };
  }
}

function tensor(init: OnnxInitializer): onnx.ITensorProto {
  const D = onnx.TensorProto.DataType;
  const dataType = init.data instanceof Float32Array ? D.FLOAT : init.data instanceof Int32Array ? D.INT32 : D.INT64;
  // ONNX raw_data is little-endian, which is also the byte order of every host Node runs on here.
  const rawData = new Uint8Array(init.data.buffer, init.data.byteOffset, init.data.byteLength);
  return { name: init.name, dims: init.dims, dataType, rawData };
}

function valueInfo(v: OnnxValueInfo): onnx.IValueInfoProto {
  const dim = v.dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
  return {
    name: v.name,
    type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim } } },
  };
}

export interface ModelMetadata {
  graphName: string;
  docString: string;
  producerVersion: string;
}

export function encodeModel(graph: OnnxGraph, meta: ModelMetadata): Uint8Array {
  const model: onnx.IModelProto = {
    irVersion: IR_VERSION,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'bioverify-tfjs-to-onnx',
    producerVersion: meta.producerVersion,
    docString: meta.docString,
    graph: {
      name: meta.graphName,
      node: graph.nodes.map((n) => ({
        name: n.name,
        opType: n.op,
        input: n.inputs,
        output: n.outputs,
        attribute: Object.entries(n.attributes).map(([k, a]) => attribute(k, a)),
      })),
      initializer: graph.initializers.map(tensor),
      input: graph.inputs.map(valueInfo),
      output: graph.outputs.map(valueInfo),
    },
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}
