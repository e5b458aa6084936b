/**
 * InferTensor (raw little-endian bytes + dtype + shape) <-> HostTensor, for both ends of
 * ModelInfer. Decoding never copies when the bytes sit at an offset the typed array can view;
 * protobuf gives no alignment promise, so a misaligned tensor is copied once.
 */
import { TensorDataType, type InferTensor } from '../../../proto/gen/bioverify/inference/v1/model_service';
import { bytesPerElement, elementCount, viewOf, type HostTensor, type TensorDType } from './host-tensor';

/** A tensor whose dtype, shape and byte count do not agree; the service answers INVALID_ARGUMENT. */
export class InvalidTensorError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTensorError';
  }
}

const toProto: Record<TensorDType, TensorDataType> = {
  float32: TensorDataType.TENSOR_DATA_TYPE_FP32,
  int32: TensorDataType.TENSOR_DATA_TYPE_INT32,
  int64: TensorDataType.TENSOR_DATA_TYPE_INT64,
  uint8: TensorDataType.TENSOR_DATA_TYPE_UINT8,
};
const fromProto = new Map<TensorDataType, TensorDType>(Object.entries(toProto).map(([k, v]) => [v, k as TensorDType]));

export function protoDataType(dtype: TensorDType): TensorDataType {
  return toProto[dtype];
}

export function hostDataType(datatype: TensorDataType): TensorDType | undefined {
  return fromProto.get(datatype);
}

export function decodeTensor(tensor: InferTensor): HostTensor {
  const dtype = fromProto.get(tensor.datatype);
  if (!dtype) throw new InvalidTensorError(`input "${tensor.name}" has no supported datatype`);
  const dims = tensor.shape.map(Number);
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 1))
    throw new InvalidTensorError(`input "${tensor.name}" has an invalid shape [${tensor.shape.join(',')}]`);
  const width = bytesPerElement(dtype);
  const count = elementCount(dims);
  if (tensor.rawContents.byteLength !== count * width) {
    throw new InvalidTensorError(
      `input "${tensor.name}" carries ${tensor.rawContents.byteLength} bytes, shape [${dims.join(',')}] of ${dtype} needs ${count * width}`,
    );
  }
  let bytes: Uint8Array = tensor.rawContents;
  if (bytes.byteOffset % width !== 0) bytes = new Uint8Array(bytes);
  return { dtype, dims, data: viewOf(dtype, bytes.buffer, bytes.byteOffset, count) };
}

export function encodeTensor(name: string, tensor: HostTensor): InferTensor {
  return {
    name,
    datatype: toProto[tensor.dtype],
    shape: tensor.dims,
    rawContents: Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength),
  };
}
