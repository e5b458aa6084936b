/**
 * PP-LCNetV3 follows most convolutions with a learnable affine block, y = s * conv(x) + b with
 * scalar s and b, exported as a Mul and an Add over the whole feature map. Both fold exactly into
 * the convolution (W' = s * W, B' = s * B + b), which then writes y itself; the two passes over
 * the map go (up to float rounding).
 */
import { onnx } from 'onnx-proto';

const FLOAT = onnx.TensorProto.DataType.FLOAT;

function constantNode(nodes: onnx.INodeProto[], name: string): onnx.ITensorProto | undefined {
  const t = nodes.find((n) => n.opType === 'Constant' && n.output?.[0] === name)?.attribute?.[0]?.t;
  return t && t.dataType === FLOAT && t.rawData ? t : undefined;
}

const floats = (t: onnx.ITensorProto) =>
  new Float32Array(t.rawData!.buffer.slice(t.rawData!.byteOffset, t.rawData!.byteOffset + t.rawData!.byteLength));

/** Returns the model with each Conv -> Mul(scalar) -> Add(scalar) folded into the Conv, and how many. */
export function foldConvAffine(model: Uint8Array): { model: Uint8Array; folded: number } {
  const decoded = onnx.ModelProto.decode(model);
  const graph = decoded.graph!;
  const nodes = graph.node ?? [];
  const readers = new Map<string, onnx.INodeProto[]>();
  for (const n of nodes) for (const i of n.input ?? []) readers.set(i, [...(readers.get(i) ?? []), n]);
  const soleReader = (name: string) => {
    const r = readers.get(name) ?? [];
    return r.length === 1 && !graph.output?.some((o) => o.name === name) ? r[0] : undefined;
  };
  const scalar = (node: onnx.INodeProto, other: string) => {
    const name = node.input!.find((i) => i !== other);
    const t = name === undefined || node.input!.length !== 2 ? undefined : constantNode(nodes, name);
    return t && floats(t).length === 1 ? floats(t)[0] : undefined;
  };
  const removed = new Set<onnx.INodeProto>();
  for (const conv of nodes) {
    if (conv.opType !== 'Conv' || conv.input!.length !== 3) continue;
    const mul = soleReader(conv.output![0]);
    if (mul?.opType !== 'Mul') continue;
    const add = soleReader(mul.output![0]);
    const s = scalar(mul, conv.output![0]);
    const b = add?.opType === 'Add' ? scalar(add, mul.output![0]) : undefined;
    const [, wName, bName] = conv.input!;
    const weight = constantNode(nodes, wName);
    const bias = constantNode(nodes, bName);
    // The weights must be this convolution's alone, or folding would change another reader.
    if (s === undefined || b === undefined || !weight || !bias || !soleReader(wName) || !soleReader(bName)) continue;
    const w = floats(weight).map((v) => v * s);
    const c = floats(bias).map((v) => v * s + b);
    weight.rawData = new Uint8Array(w.buffer);
    bias.rawData = new Uint8Array(c.buffer);
    conv.output = [add!.output![0]];
    removed.add(mul);
    removed.add(add!);
  }
  const kept = nodes.filter((n) => !removed.has(n));
  const read = new Set(kept.flatMap((n) => n.input ?? []));
  graph.node = kept.filter((n) => n.opType !== 'Constant' || read.has(n.output![0]));
  return { model: onnx.ModelProto.encode(decoded).finish(), folded: removed.size / 2 };
}
