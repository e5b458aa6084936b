/**
 * Decodes a TFJS weights manifest into float32/int32 arrays, the way tfjs-core's decodeWeight
 * does, so converted weights are bit-identical to what @tensorflow/tfjs computes with. Quantized
 * weights take fewer bytes than their dtype says (float16: 2, uint8: 1), so offsets must advance by
 * the stored size or every later weight is read from the wrong place.
 */
import { float16ToFloat32 } from './float16';
import type { WeightSpec, WeightsGroup } from './tfjs-model-json';

export interface DecodedWeight {
  dtype: 'float32' | 'int32';
  shape: number[];
  values: Float32Array | Int32Array;
}

const STORED_BYTES: Record<string, number> = {
  float32: 4,
  int32: 4,
  bool: 1,
  float16: 2,
  uint8: 1,
  uint16: 2,
};

function elementCount(shape: number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

function decodeOne(spec: WeightSpec, bytes: Uint8Array): DecodedWeight {
  const count = elementCount(spec.shape);
  // Copy so the typed array is aligned whatever the weight's offset in the shard was.
  const buffer = new Uint8Array(bytes).buffer; // a copy: Buffer.slice would share the pool
  const q = spec.quantization;
  if (!q) {
    if (spec.dtype === 'float32')
      return { dtype: 'float32', shape: spec.shape, values: new Float32Array(buffer, 0, count) };
    if (spec.dtype === 'int32') return { dtype: 'int32', shape: spec.shape, values: new Int32Array(buffer, 0, count) };
    throw new Error(`weight ${spec.name}: dtype ${spec.dtype} is not supported`);
  }
  if (q.dtype === 'float16') {
    if (spec.dtype !== 'float32') throw new Error(`weight ${spec.name}: float16 quantization of ${spec.dtype}`);
    return {
      dtype: 'float32',
      shape: spec.shape,
      values: float16ToFloat32(new Uint16Array(buffer, 0, count)),
    };
  }
  const stored = q.dtype === 'uint8' ? new Uint8Array(buffer, 0, count) : new Uint16Array(buffer, 0, count);
  const scale = q.scale ?? 1;
  const min = q.min ?? 0;
  if (spec.dtype === 'float32')
    return { dtype: 'float32', shape: spec.shape, values: Float32Array.from(stored, (v) => v * scale + min) };
  if (spec.dtype === 'int32')
    return {
      dtype: 'int32',
      shape: spec.shape,
      values: Int32Array.from(stored, (v) => Math.round(v * scale + min)),
    };
  throw new Error(`weight ${spec.name}: ${q.dtype} quantization of ${spec.dtype}`);
}

/** `shards` holds each group's shard files already concatenated, in manifest order. */
export function decodeWeights(groups: WeightsGroup[], shards: Uint8Array[]): Map<string, DecodedWeight> {
  const decoded = new Map<string, DecodedWeight>();
  groups.forEach((group, g) => {
    let offset = 0;
    for (const spec of group.weights) {
      const size = elementCount(spec.shape) * STORED_BYTES[spec.quantization?.dtype ?? spec.dtype];
      if (offset + size > shards[g].byteLength) throw new Error(`weight ${spec.name} runs past the end of its shard`);
      decoded.set(spec.name, decodeOne(spec, shards[g].subarray(offset, offset + size)));
      offset += size;
    }
  });
  return decoded;
}
