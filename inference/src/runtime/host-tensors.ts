/** Conversions between the transport-neutral HostTensor and onnxruntime's Tensor. */
import * as ort from 'onnxruntime-node';
import type { HostTensor, TensorDType } from './model-runner';

type TypedArray = HostTensor['data'];

export function elementCount(dims: number[]): number {
  return dims.reduce((n, d) => n * d, 1);
}

export function allocate(dtype: TensorDType, length: number): TypedArray {
  switch (dtype) {
    case 'float32': return new Float32Array(length);
    case 'int32': return new Int32Array(length);
    case 'int64': return new BigInt64Array(length);
    case 'uint8': return new Uint8Array(length);
  }
}

export function toOrtTensor(tensor: HostTensor): ort.Tensor {
  if (tensor.data.length !== elementCount(tensor.dims)) {
    throw new Error(`tensor data holds ${tensor.data.length} values but dims [${tensor.dims}] need ${elementCount(tensor.dims)}`);
  }
  return new ort.Tensor(tensor.dtype, tensor.data, tensor.dims);
}

const supported = new Set<string>(['float32', 'int32', 'int64', 'uint8']);

/** Copies out of ORT's buffer so the result outlives the session's output and can be transferred. */
export function fromOrtTensor(name: string, tensor: ort.Tensor): HostTensor {
  if (!supported.has(tensor.type)) throw new Error(`output "${name}" has unsupported dtype ${tensor.type}`);
  const dtype = tensor.type as TensorDType;
  const data = allocate(dtype, tensor.data.length);
  data.set(tensor.data as never);
  return { dtype, dims: [...tensor.dims], data };
}

export function bytesPerElement(dtype: TensorDType): number {
  return dtype === 'int64' ? 8 : dtype === 'uint8' ? 1 : 4;
}

/** A typed view over existing bytes (no copy); byteOffset must be aligned to the element size. */
export function viewOf(dtype: TensorDType, buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray {
  switch (dtype) {
    case 'float32': return new Float32Array(buffer, byteOffset, length);
    case 'int32': return new Int32Array(buffer, byteOffset, length);
    case 'int64': return new BigInt64Array(buffer, byteOffset, length);
    case 'uint8': return new Uint8Array(buffer, byteOffset, length);
  }
}
