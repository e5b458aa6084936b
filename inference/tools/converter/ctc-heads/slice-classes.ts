/**
 * Cuts a CTC recogniser's classifier to some of its classes: the last MatMul + Add before the
 * softmax keeps only the kept classes' weight columns and biases, so the classifier and softmax
 * run over those few classes at every frame instead of all of them (PP-OCRv4: 6,625 classes, most
 * of them Chinese, which no document this service reads prints). The softmax then shares the
 * probability only among the kept classes; which of them wins each frame does not change.
 */
import { onnx } from 'onnx-proto';

const FLOAT = onnx.TensorProto.DataType.FLOAT;

/** The charset's classes a Latin-script document can print: blank, Latin letters, digits, punctuation, space. */
export function latinClasses(classes: readonly string[]): Int32Array {
  const latin = (ch: string): boolean => {
    const code = ch.codePointAt(0)!;
    // Basic Latin to Latin Extended-B, Latin Extended Additional, General Punctuation and currency.
    return code < 0x250 || (code >= 0x1e00 && code < 0x1f00) || (code >= 0x2000 && code < 0x20d0);
  };
  const kept: number[] = [];
  classes.forEach((text, index) => {
    // Class 0 is the CTC blank (no text); the last is the space.
    if (index === 0 || [...text].every(latin)) kept.push(index);
  });
  return Int32Array.from(kept);
}

function constantTensor(graph: onnx.IGraphProto, name: string): onnx.ITensorProto {
  const producer = graph.node?.find((n) => n.opType === 'Constant' && n.output?.[0] === name);
  const fromNode = producer?.attribute?.find((a) => a.name === 'value')?.t;
  const tensor = fromNode ?? graph.initializer?.find((t) => t.name === name);
  if (!tensor || tensor.dataType !== FLOAT || !tensor.rawData)
    throw new Error(`${name} is not a float constant with raw data`);
  return tensor;
}

function floatsOf(tensor: onnx.ITensorProto): Float32Array {
  const raw = tensor.rawData!;
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
}

/**
 * @param model ONNX bytes whose one output is Softmax(Add(MatMul(x, W[H, C]), b[C])) over axis 2.
 * @param kept the classes to keep, ascending.
 */
export function sliceClasses(model: Uint8Array, kept: Int32Array): Uint8Array {
  const decoded = onnx.ModelProto.decode(model);
  const graph = decoded.graph!;
  const output = graph.output?.[0];
  const nodes = graph.node ?? [];
  const producer = (name: string) => nodes.find((n) => n.output?.includes(name));
  const softmax = producer(output?.name ?? '');
  const add = softmax && producer(softmax.input![0]);
  const matmul = add && producer(add.input![0]);
  if (softmax?.opType !== 'Softmax' || add?.opType !== 'Add' || matmul?.opType !== 'MatMul')
    throw new Error('expected the output to be Softmax(Add(MatMul(x, W), b))');
  const weight = constantTensor(graph, matmul.input![1]);
  const bias = constantTensor(graph, add.input![1]);
  const [hidden, classes] = (weight.dims ?? []).map(Number);
  if (weight.dims?.length !== 2 || Number(bias.dims?.[0]) !== classes || bias.dims?.length !== 1)
    throw new Error(`classifier weight ${weight.dims?.join('x')} and bias ${bias.dims?.join('x')} do not match`);
  for (let i = 0; i < kept.length; i++)
    if (kept[i] < 0 || kept[i] >= classes || (i > 0 && kept[i] <= kept[i - 1]))
      throw new Error(`kept classes must ascend within 0..${classes - 1}`);
  const w = floatsOf(weight);
  const b = floatsOf(bias);
  const slicedW = new Float32Array(hidden * kept.length);
  for (let h = 0; h < hidden; h++)
    for (let k = 0; k < kept.length; k++) slicedW[h * kept.length + k] = w[h * classes + kept[k]];
  const slicedB = Float32Array.from(kept, (c) => b[c]);
  weight.dims = [hidden, kept.length];
  weight.rawData = new Uint8Array(slicedW.buffer);
  bias.dims = [kept.length];
  bias.rawData = new Uint8Array(slicedB.buffer);
  const dims = output!.type?.tensorType?.shape?.dim;
  if (dims?.[2]) dims[2] = { dimValue: kept.length };
  return onnx.ModelProto.encode(decoded).finish();
}
