import * as tf from '@tensorflow/tfjs';
import type { WeightSpec } from './tfjs-model-json';
import { decodeWeights } from './weights-decoder';

/** Every half-precision bit pattern, then weights whose offsets depend on the halves taking 2 bytes each. */
const halves = Uint16Array.from({ length: 65536 }, (_, i) => i);
const floats = Float32Array.of(1.5, -2.25, 3e-8);
const ints = Int32Array.of(7, -3);
const bytes = Uint8Array.of(0, 1, 128, 255);
const shorts = Uint16Array.of(0, 40000);

const specs: WeightSpec[] = [
  { name: 'halves', shape: [65536], dtype: 'float32', quantization: { dtype: 'float16' } },
  { name: 'floats', shape: [3], dtype: 'float32' },
  { name: 'ints', shape: [2, 1], dtype: 'int32' },
  { name: 'bytes', shape: [4], dtype: 'float32', quantization: { dtype: 'uint8', min: -1, scale: 0.01 } },
  { name: 'shorts', shape: [2], dtype: 'int32', quantization: { dtype: 'uint16', min: -5, scale: 0.5 } },
];

function shard(): Uint8Array {
  const parts = [halves, floats, ints, bytes, shorts].map((a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Raw bits, read without passing through JS numbers (which may rewrite NaN payloads). */
const bitsOf = (values: Float32Array | Int32Array) =>
  Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length));

test('decodes every weight bit for bit as @tensorflow/tfjs does, float16 and uint8/uint16 quantization included', () => {
  const data = shard();
  const ours = decodeWeights([{ paths: ['group1-shard1of1.bin'], weights: specs }], [data]);
  const theirs = tf.io.decodeWeights(data.slice().buffer, specs);
  for (const spec of specs) {
    const reference = theirs[spec.name];
    expect(ours.get(spec.name)!.shape).toEqual(reference.shape);
    expect(ours.get(spec.name)!.dtype).toBe(reference.dtype);
    expect(bitsOf(ours.get(spec.name)!.values)).toEqual(bitsOf(reference.dataSync() as Float32Array | Int32Array));
  }
});

test('a manifest that promises more bytes than its shard holds is rejected, naming the weight', () => {
  expect(() =>
    decodeWeights(
      [{ paths: ['x.bin'], weights: [{ name: 'too_big', shape: [4], dtype: 'float32' }] }],
      [new Uint8Array(12)],
    ),
  ).toThrow('weight too_big runs past the end of its shard');
});
