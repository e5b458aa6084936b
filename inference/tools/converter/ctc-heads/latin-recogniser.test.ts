/**
 * The graph passes of the `slice-latin-classes-append-ctc-heads` conversion, on a tiny recogniser
 * built the way PaddlePaddle exports PP-OCRv4 (constants as Constant nodes, opset 9): a convolution
 * with its affine block and hard-swish, then a classifier and softmax. Run by onnxruntime before
 * and after each pass.
 */
import * as ort from 'onnxruntime-node';
import { onnx } from 'onnx-proto';
import { appendCtcHeads } from './append-ctc-heads';
import { foldConvAffine } from './fold-conv-affine';
import { fuseHardSwish } from './fuse-hard-swish';
import { latinClasses, sliceClasses } from './slice-classes';

const T = onnx.TensorProto.DataType;
const CLASSES = 6;
const FRAMES = 5;

function constant(name: string, dims: number[], values: number[]): onnx.INodeProto {
  const t = { name, dims, dataType: T.FLOAT, rawData: new Uint8Array(Float32Array.from(values).buffer) };
  return { opType: 'Constant', output: [name], attribute: [{ name: 'value', type: 4, t }] };
}

const op = (opType: string, input: string[], output: string, attribute: onnx.IAttributeProto[] = []) => ({
  opType,
  input,
  output: [output],
  attribute,
});
const ints = (name: string, values: number[]) => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });
const float = (name: string, f: number) => ({ name, type: onnx.AttributeProto.AttributeType.FLOAT, f });

/** x [N, 2, 1, FRAMES] -> Conv 1x1 -> *s + b -> hard-swish -> per-frame classifier -> softmax [N, FRAMES, CLASSES]. */
function tinyRecogniser(): Uint8Array {
  const seq = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
  const tensor = (name: string, dims: Array<number | string>) => ({
    name,
    type: {
      tensorType: {
        elemType: T.FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  });
  const graph: onnx.IGraphProto = {
    name: 'tiny',
    node: [
      constant('conv.w', [2, 2, 1, 1], [0.9, -0.4, 0.3, 1.2]),
      constant('conv.b', [2], [0.1, -0.2]),
      op('Conv', ['x', 'conv.w', 'conv.b'], 'conv'),
      constant('lab.s', [1], [1.7]),
      op('Mul', ['conv', 'lab.s'], 'lab.scaled'),
      constant('lab.b', [1], [-0.3]),
      op('Add', ['lab.scaled', 'lab.b'], 'lab'),
      constant('three', [1], [3]),
      op('Add', ['lab', 'three'], 'hs.shifted'),
      op('Clip', ['hs.shifted'], 'hs.clipped', [float('min', 0), float('max', 6)]),
      op('Mul', ['lab', 'hs.clipped'], 'hs.product'),
      constant('six', [1], [6]),
      op('Div', ['hs.product', 'six'], 'hs'),
      op('Squeeze', ['hs'], 'squeezed', [ints('axes', [2])]),
      op('Transpose', ['squeezed'], 'frames', [ints('perm', [0, 2, 1])]),
      constant(
        'fc.w',
        [2, CLASSES],
        seq(2 * CLASSES, (i) => Math.sin(i * 1.3) * 2),
      ),
      op('MatMul', ['frames', 'fc.w'], 'logits.raw'),
      constant(
        'fc.b',
        [CLASSES],
        seq(CLASSES, (i) => 0.1 * i),
      ),
      op('Add', ['logits.raw', 'fc.b'], 'logits'),
      op('Softmax', ['logits'], 'probs', [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 2 }]),
    ],
    input: [tensor('x', ['N', 2, 1, FRAMES])],
    output: [tensor('probs', ['N', FRAMES, CLASSES])],
  };
  return onnx.ModelProto.encode({ irVersion: 6, opsetImport: [{ domain: '', version: 9 }], graph }).finish();
}

const input = new ort.Tensor(
  'float32',
  Float32Array.from({ length: 2 * FRAMES }, (_, i) => Math.cos(i * 0.7) * 4),
  [1, 2, 1, FRAMES],
);

async function run(model: Uint8Array): Promise<Record<string, ort.Tensor>> {
  const session = await ort.InferenceSession.create(model);
  const out = await session.run({ x: input });
  await session.release();
  return out;
}

const opTypes = (model: Uint8Array) => onnx.ModelProto.decode(model).graph!.node!.map((n) => n.opType);

test('folding the affine block into the convolution and fusing hard-swish keep what the model computes', async () => {
  const original = tinyRecogniser();
  const folded = foldConvAffine(original);
  const fused = fuseHardSwish(folded.model);
  expect([folded.folded, fused.fused]).toEqual([1, 1]);
  // The affine block's Mul and Add, and the hard-swish's Add, Clip and Div, with their constants, are gone.
  expect(opTypes(fused.model)).toEqual([
    ...['Constant', 'Constant', 'Conv', 'HardSigmoid', 'Mul', 'Squeeze', 'Transpose'],
    ...['Constant', 'MatMul', 'Constant', 'Add', 'Softmax'],
  ]);
  const [before, after] = [await run(original), await run(fused.model)];
  const want = before.probs.data as Float32Array;
  (after.probs.data as Float32Array).forEach((p, i) => expect(p).toBeCloseTo(want[i], 5));
});

test('slicing the classifier keeps the kept classes probabilities, shared among them', async () => {
  const kept = Int32Array.from([0, 2, 3, 5]);
  const [full, sliced] = [await run(tinyRecogniser()), await run(sliceClasses(tinyRecogniser(), kept))];
  expect(sliced.probs.dims).toEqual([1, FRAMES, kept.length]);
  const all = full.probs.data as Float32Array;
  const some = sliced.probs.data as Float32Array;
  for (let f = 0; f < FRAMES; f++) {
    const mass = Array.from(kept).reduce((s, c) => s + all[f * CLASSES + c], 0);
    kept.forEach((c, k) => expect(some[f * kept.length + k]).toBeCloseTo(all[f * CLASSES + c] / mass, 5));
  }
});

test('the heads of a sliced recogniser return charset class numbers', async () => {
  const kept = Int32Array.from([0, 2, 3, 5]);
  const mrz = Int32Array.from([5, 2]);
  const full = await run(tinyRecogniser());
  const heads = await run(appendCtcHeads(sliceClasses(tinyRecogniser(), kept), mrz, kept));
  const all = full.probs.data as Float32Array;
  for (let f = 0; f < FRAMES; f++) {
    const row = Array.from(kept, (c) => all[f * CLASSES + c]);
    const best = kept[row.indexOf(Math.max(...row))];
    expect((heads.best_class.data as Int32Array)[f]).toBe(best);
    const mrzOrder = all[f * CLASSES + 5] >= all[f * CLASSES + 2] ? [5, 2] : [2, 5];
    expect(Array.from((heads.mrz_top2_class.data as Int32Array).slice(f * 2, f * 2 + 2))).toEqual(mrzOrder);
  }
  expect(() => appendCtcHeads(sliceClasses(tinyRecogniser(), kept), Int32Array.from([1]), kept)).toThrow(
    /not among the kept classes/,
  );
});

test('the Latin classes are the blank, Latin letters and accents, digits, punctuation and the space', () => {
  const classes = ['', '中', 'A', 'é', '7', '<', '—', '€', 'ő', '国', 'ß', ' '];
  expect(Array.from(latinClasses(classes), (i) => classes[i])).toEqual([
    '',
    'A',
    'é',
    '7',
    '<',
    '—',
    '€',
    'ő',
    'ß',
    ' ',
  ]);
});
