/**
 * Derives a CTC recogniser that returns only what greedy decoding reads, instead of the full
 * [N, T, classes] softmax (6,625 classes for PP-OCRv4: about 26 kB per frame to copy back to the
 * host, most of a GPU run's time). Appended to the softmax output:
 *   best_class [N, T] int32    ArgMax over the classes (the first of equal maxima, as the decoder)
 *   best_prob  [N, T] float32  ReduceMax over the classes (exactly the probability at best_class)
 *   mrz_top2_class [N, T, 2] int32, mrz_top2_prob [N, T, 2] float32: the two most likely classes
 *     among the MRZ alphabet's (A-Z, 0-9, '<'), which MRZ reading and correction use.
 * Every other node, weight and the opset stay as they are; only ops of the source's opset (9)
 * are added, so the softmax and everything before it compute what the source computes.
 * A recogniser whose classifier was cut to some of the classes (slice-classes.ts) passes
 * `keptClasses`: the heads then map each frame's class back to the charset's index, so the
 * decoder reads the same class numbers from every version.
 */
import { onnx } from 'onnx-proto';
import { CTC_HEAD_OUTPUTS } from '../../../src/tasks';

const T = onnx.TensorProto.DataType;
const A = onnx.AttributeProto.AttributeType;

function node(
  opType: string,
  input: string[],
  output: string[],
  attribute: onnx.IAttributeProto[] = [],
): onnx.INodeProto {
  return { name: `ctc_heads/${output[0]}`, opType, input, output, attribute };
}

function valueInfo(name: string, elemType: number, dim: onnx.TensorShapeProto.IDimension[]): onnx.IValueInfoProto {
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

/**
 * @param model the recogniser's ONNX bytes; its single output must be the [N, T, C] softmax.
 * @param mrzClasses class indices of the MRZ alphabet, in the order the decoder ranks ties.
 * @param keptClasses the charset index of each of the softmax's classes, ascending, when the
 *   softmax covers only some of the charset's classes; absent, softmax class i is charset class i.
 */
export function appendCtcHeads(model: Uint8Array, mrzClasses: Int32Array, keptClasses?: Int32Array): Uint8Array {
  const decoded = onnx.ModelProto.decode(model);
  const graph = decoded.graph;
  const outputs = graph?.output ?? [];
  if (!graph || outputs.length !== 1)
    throw new Error(`expected a graph with one output (the softmax), found ${outputs.length}`);
  const softmax = outputs[0];
  const dims = softmax.type?.tensorType?.shape?.dim ?? [];
  if (dims.length !== 3 || softmax.type?.tensorType?.elemType !== T.FLOAT)
    throw new Error(`output ${softmax.name} is not a float [N, T, C] tensor`);
  // TopK takes k as an attribute up to opset 9, and Cast's `to` is an int from opset 6.
  const opset = Number(decoded.opsetImport.find((o) => !o.domain)?.version);
  if (!(opset >= 6 && opset <= 9))
    throw new Error(`the appended nodes are written for opsets 6-9; the model imports opset ${opset}`);
  const batchAndTime = dims.slice(0, 2);
  const classesInput = 'ctc_heads/mrz_classes';
  const mrzIndex = 'ctc_heads/mrz_top2_index';
  const position = (charsetClass: number): number => {
    if (!keptClasses) return charsetClass;
    const at = keptClasses.indexOf(charsetClass);
    if (at < 0) throw new Error(`the MRZ class ${charsetClass} is not among the kept classes`);
    return at;
  };
  const int64Classes = Array.from(mrzClasses, position);
  const int64Constant = (name: string, values: number[]) =>
    node(
      'Constant',
      [],
      [name],
      [{ name: 'value', type: A.TENSOR, t: { name, dims: [values.length], dataType: T.INT64, int64Data: values } }],
    );
  // With kept classes, a softmax position becomes its charset class through one more Gather.
  const toCharset = (from: string, to: string): onnx.INodeProto[] =>
    keptClasses ? [node('Gather', ['ctc_heads/kept_classes', from], [to], [{ name: 'axis', type: A.INT, i: 0 }])] : [];
  const argmax = keptClasses ? 'ctc_heads/argmax_position' : 'ctc_heads/argmax';
  const mrzTop2 = keptClasses ? 'ctc_heads/mrz_top2_position' : 'ctc_heads/mrz_top2_class64';
  (graph.node ??= []).push(
    ...(keptClasses ? [int64Constant('ctc_heads/kept_classes', Array.from(keptClasses))] : []),
    node(
      'ArgMax',
      [softmax.name!],
      [argmax],
      [
        { name: 'axis', type: A.INT, i: 2 },
        { name: 'keepdims', type: A.INT, i: 0 },
      ],
    ),
    ...toCharset(argmax, 'ctc_heads/argmax'),
    node('Cast', ['ctc_heads/argmax'], [CTC_HEAD_OUTPUTS.bestClass], [{ name: 'to', type: A.INT, i: T.INT32 }]),
    node(
      'ReduceMax',
      [softmax.name!],
      [CTC_HEAD_OUTPUTS.bestProb],
      [
        { name: 'axes', type: A.INTS, ints: [2] },
        { name: 'keepdims', type: A.INT, i: 0 },
      ],
    ),
    int64Constant(classesInput, int64Classes),
    node('Gather', [softmax.name!, classesInput], ['ctc_heads/mrz_probs'], [{ name: 'axis', type: A.INT, i: 2 }]),
    // TopK orders equal values by lower index, which is the decoder's first-wins rule over mrzClasses.
    node(
      'TopK',
      ['ctc_heads/mrz_probs'],
      [CTC_HEAD_OUTPUTS.mrzTop2Prob, mrzIndex],
      [
        { name: 'axis', type: A.INT, i: 2 },
        { name: 'k', type: A.INT, i: 2 },
      ],
    ),
    node('Gather', [classesInput, mrzIndex], [mrzTop2], [{ name: 'axis', type: A.INT, i: 0 }]),
    ...toCharset(mrzTop2, 'ctc_heads/mrz_top2_class64'),
    node(
      'Cast',
      ['ctc_heads/mrz_top2_class64'],
      [CTC_HEAD_OUTPUTS.mrzTop2Class],
      [{ name: 'to', type: A.INT, i: T.INT32 }],
    ),
  );
  graph.output = [
    valueInfo(CTC_HEAD_OUTPUTS.bestClass, T.INT32, batchAndTime),
    valueInfo(CTC_HEAD_OUTPUTS.bestProb, T.FLOAT, batchAndTime),
    valueInfo(CTC_HEAD_OUTPUTS.mrzTop2Class, T.INT32, [...batchAndTime, { dimValue: 2 }]),
    valueInfo(CTC_HEAD_OUTPUTS.mrzTop2Prob, T.FLOAT, [...batchAndTime, { dimValue: 2 }]),
  ];
  return onnx.ModelProto.encode(decoded).finish();
}
