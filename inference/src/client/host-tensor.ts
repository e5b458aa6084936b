/**
 * The tensor both ends of ModelInfer hold in memory: raw little-endian values in a typed array,
 * dims with the leading batch dimension. Lives with the client because the wire codec needs it;
 * the service's runtime uses the same type.
 */
export type TensorDType = 'float32' | 'int32' | 'int64' | 'uint8';

/** A dense tensor; dims include the leading batch dimension (>= 1). */
export interface HostTensor {
  dims: number[];
  dtype: TensorDType;
  data: Float32Array | Int32Array | BigInt64Array | Uint8Array;
}

export function elementCount(dims: number[]): number {
  return dims.reduce((n, d) => n * d, 1);
}

export function bytesPerElement(dtype: TensorDType): number {
  return dtype === 'int64' ? 8 : dtype === 'uint8' ? 1 : 4;
}

/** A typed view over existing bytes (no copy); byteOffset must be aligned to the element size. */
export function viewOf(
  dtype: TensorDType,
  buffer: ArrayBufferLike,
  byteOffset: number,
  length: number,
): HostTensor['data'] {
  switch (dtype) {
    case 'float32':
      return new Float32Array(buffer, byteOffset, length);
    case 'int32':
      return new Int32Array(buffer, byteOffset, length);
    case 'int64':
      return new BigInt64Array(buffer, byteOffset, length);
    case 'uint8':
      return new Uint8Array(buffer, byteOffset, length);
  }
}
