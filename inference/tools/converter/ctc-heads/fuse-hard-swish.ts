/**
 * PaddlePaddle exports each hard-swish of PP-LCNet as four elementwise ops over the whole feature
 * map, x * Clip(x + 3, 0, 6) / 6: Add, Clip, Mul and Div each read and write it once, and none of
 * them is fused into the convolution before it. They take about a third of the recogniser's CPU
 * (benchmarks/text-recognition/profile-recogniser.py). The same function is x * HardSigmoid(x) with
 * alpha 1/6 and beta 0.5 (opset 6), two ops instead of four; only float rounding differs.
 */
import { onnx } from 'onnx-proto';

const A = onnx.AttributeProto.AttributeType;

function scalarOf(graph: onnx.IGraphProto, name: string): number | undefined {
  const t = graph.node?.find((n) => n.opType === 'Constant' && n.output?.[0] === name)?.attribute?.[0]?.t;
  if (!t || t.dataType !== onnx.TensorProto.DataType.FLOAT) return undefined;
  const count = (t.dims ?? []).reduce((p: number, d) => p * Number(d), 1);
  if (count !== 1) return undefined;
  if (t.floatData?.length) return t.floatData[0];
  const raw = t.rawData;
  return raw ? new DataView(raw.buffer, raw.byteOffset, raw.byteLength).getFloat32(0, true) : undefined;
}

const attribute = (n: onnx.INodeProto, name: string) => n.attribute?.find((a) => a.name === name)?.f;

/** Returns the model with every x * Clip(x + 3, 0, 6) / 6 rewritten, and how many there were. */
export function fuseHardSwish(model: Uint8Array): { model: Uint8Array; fused: number } {
  const decoded = onnx.ModelProto.decode(model);
  const graph = decoded.graph!;
  const nodes = graph.node ?? [];
  const producer = new Map<string, onnx.INodeProto>();
  const consumers = new Map<string, number>();
  for (const n of nodes) {
    for (const o of n.output ?? []) producer.set(o, n);
    for (const i of n.input ?? []) consumers.set(i, (consumers.get(i) ?? 0) + 1);
  }
  const onlyUse = (name: string) => consumers.get(name) === 1 && !graph.output?.some((o) => o.name === name);
  const removed = new Set<onnx.INodeProto>();
  const replacement = new Map<onnx.INodeProto, onnx.INodeProto[]>();
  for (const div of nodes) {
    if (div.opType !== 'Div' || scalarOf(graph, div.input![1]) !== 6) continue;
    const mul = producer.get(div.input![0]);
    if (mul?.opType !== 'Mul' || !onlyUse(mul.output![0])) continue;
    const [a, b] = mul.input!;
    const clip = [producer.get(a), producer.get(b)].find((p) => p?.opType === 'Clip');
    if (!clip || clip.input!.length !== 1 || attribute(clip, 'min') !== 0 || attribute(clip, 'max') !== 6) continue;
    const x = clip.output![0] === a ? b : a;
    const add = producer.get(clip.input![0]);
    if (add?.opType !== 'Add' || !onlyUse(add.output![0]) || !onlyUse(clip.output![0])) continue;
    const addsThreeToX =
      (add.input![0] === x && scalarOf(graph, add.input![1]) === 3) ||
      (add.input![1] === x && scalarOf(graph, add.input![0]) === 3);
    if (!addsThreeToX) continue;
    const gate = `${div.output![0]}/hard_sigmoid`;
    for (const n of [add, clip, mul]) removed.add(n);
    replacement.set(div, [
      {
        name: gate,
        opType: 'HardSigmoid',
        input: [x],
        output: [gate],
        attribute: [
          { name: 'alpha', type: A.FLOAT, f: 1 / 6 },
          { name: 'beta', type: A.FLOAT, f: 0.5 },
        ],
      },
      { name: `${div.output![0]}/hard_swish`, opType: 'Mul', input: [x, gate], output: [div.output![0]] },
    ]);
  }
  const rewritten = nodes.flatMap((n) => (removed.has(n) ? [] : (replacement.get(n) ?? [n])));
  // The 3s and 6s read by nothing any more go too (the loader would warn about each).
  const read = new Set(rewritten.flatMap((n) => n.input ?? []));
  graph.node = rewritten.filter((n) => n.opType !== 'Constant' || read.has(n.output![0]));
  return { model: onnx.ModelProto.encode(decoded).finish(), fused: replacement.size };
}
