/** Conversions between the transport-neutral HostTensor and onnxruntime's Tensor. */
import * as ort from 'onnxruntime-node';
import { elementCount, type HostTensor, type TensorDType } from '../client/host-tensor';

export { bytesPerElement, elementCount, viewOf } from '../client/host-tensor';

type TypedArray = HostTensor['data'];

export function allocate(dtype: TensorDType, length: number): TypedArray {
  switch (dtype) {
    case 'float32':
      return new Float32Array(length);
    case 'int32':
      return new Int32Array(length);
    case 'int64':
      return new BigInt64Array(length);
    case 'uint8':
      return new Uint8Array(length);
  }
}

export function toOrtTensor(tensor: HostTensor): ort.Tensor {
  if (tensor.data.length !== elementCount(tensor.dims)) {
    throw new Error(
      `tensor data holds ${tensor.data.length} values but dims [${tensor.dims.join(',')}] need ${elementCount(tensor.dims)}`,
    );
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
