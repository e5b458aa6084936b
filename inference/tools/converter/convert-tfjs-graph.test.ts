import * as ort from 'onnxruntime-node';
import { convertTfjsGraph } from './convert-tfjs-graph';
import { encodeModel } from './onnx-writer';
import type { TfjsModelJson, TfNode } from './tfjs-model-json';
import type { DecodedWeight } from './weights-decoder';

/** x [1,2,2,1] → Mul by a constant → Reshape to [1,4] (the batch of 1 baked in, as TFJS exports do) → Relu. */
function tinyModel(reluOp = 'Relu'): { json: TfjsModelJson; weights: Map<string, DecodedWeight> } {
  const node: TfNode[] = [
    { name: 'x', op: 'Placeholder', attr: { dtype: { type: 'DT_FLOAT' } } },
    { name: 'two', op: 'Const' },
    { name: 'shape', op: 'Const' },
    { name: 'scaled', op: 'Mul', input: ['x', 'two'] },
    { name: 'flat', op: 'Reshape', input: ['scaled', 'shape', '^two'] },
    { name: 'Identity', op: reluOp, input: ['flat:0'] },
  ];
  const dims = (...d: number[]) => ({ dim: d.map((size) => ({ size: String(size) })) });
  return {
    json: {
      format: 'graph-model',
      modelTopology: { node },
      weightsManifest: [],
      signature: {
        inputs: { 'x:0': { name: 'x:0', dtype: 'DT_FLOAT', tensorShape: dims(1, 2, 2, 1) } },
        outputs: { out: { name: 'Identity:0', dtype: 'DT_FLOAT', tensorShape: dims(1, 4) } },
      },
    },
    weights: new Map<string, DecodedWeight>([
      ['two', { dtype: 'float32', shape: [], values: Float32Array.of(2) }],
      ['shape', { dtype: 'int32', shape: [2], values: Int32Array.of(1, 4) }],
    ]),
  };
}

test('a converted graph takes any batch size and answers under the names the config chose', async () => {
  const { json, weights } = tinyModel();
  const graph = convertTfjsGraph(json, weights, { 'x:0': 'image', out: 'values' });
  const session = await ort.InferenceSession.create(
    encodeModel(graph, { graphName: 'tiny', docString: 'test', producerVersion: '1' }),
  );
  const input = Float32Array.of(1, -2, 3, -4, 5, -6, 7, -8, 0, 1, 0, -1);
  const out = await session.run({ image: new ort.Tensor('float32', input, [3, 2, 2, 1]) });
  expect(out.values.dims).toEqual([3, 4]);
  expect(Array.from(out.values.data as Float32Array)).toEqual([2, 0, 6, 0, 10, 0, 14, 0, 0, 2, 0, 0]);
});

test('the same graph always encodes to the same bytes', () => {
  const encode = () => {
    const { json, weights } = tinyModel();
    return Buffer.from(
      encodeModel(convertTfjsGraph(json, weights), {
        graphName: 'tiny',
        docString: 'test',
        producerVersion: '1',
      }),
    );
  };
  expect(encode().equals(encode())).toBe(true);
});

test('an op the converter does not know stops the conversion, naming the op and the node', () => {
  const { json, weights } = tinyModel('Selu');
  expect(() => convertTfjsGraph(json, weights)).toThrow('node Identity: TF op Selu is not supported by the converter');
});

test('a model without a signature is refused, since its inputs and outputs would be guesses', () => {
  const { json, weights } = tinyModel();
  delete json.signature;
  expect(() => convertTfjsGraph(json, weights)).toThrow('model.json has no signature');
});
