/**
 * Stacks requests along the batch dimension and splits the batched outputs back into each
 * request's rows. Only requests with equal non-batch dims are stacked (see shapeKey).
 */
import { allocate, elementCount } from '../runtime/host-tensors';
import type { HostTensor } from '../runtime/model-runner';

export type TensorMap = Record<string, HostTensor>;

/** Equal keys mean the requests' inputs can share one batch. */
export function shapeKey(inputs: TensorMap): string {
  return Object.keys(inputs)
    .sort()
    .map((name) => `${name}:${inputs[name].dtype}:${inputs[name].dims.slice(1).join('x')}`)
    .join('|');
}

export function rowsOf(inputs: TensorMap): number {
  const first = Object.values(inputs)[0];
  return first ? first.dims[0] : 0;
}

export function concatBatch(requests: TensorMap[]): TensorMap {
  if (requests.length === 1) return requests[0];
  const out: TensorMap = {};
  for (const name of Object.keys(requests[0])) {
    const parts = requests.map((r) => r[name]);
    const rows = parts.reduce((n, t) => n + t.dims[0], 0);
    const dims = [rows, ...parts[0].dims.slice(1)];
    const data = allocate(parts[0].dtype, elementCount(dims));
    let offset = 0;
    for (const part of parts) {
      data.set(part.data as never, offset);
      offset += part.data.length;
    }
    out[name] = { dtype: parts[0].dtype, dims, data };
  }
  return out;
}

/** Splits every output by the given row counts; copies so each answer owns its own buffer. */
export function splitBatch(outputs: TensorMap, rowCounts: number[]): TensorMap[] {
  if (rowCounts.length === 1) return [outputs];
  const total = rowCounts.reduce((a, b) => a + b, 0);
  const answers: TensorMap[] = rowCounts.map(() => ({}));
  for (const [name, tensor] of Object.entries(outputs)) {
    if (tensor.dims[0] !== total)
      throw new Error(`output "${name}" has ${tensor.dims[0]} rows for a batch of ${total}`);
    const rowSize = elementCount(tensor.dims.slice(1));
    let row = 0;
    rowCounts.forEach((count, i) => {
      const data = tensor.data.slice(row * rowSize, (row + count) * rowSize);
      answers[i][name] = { dtype: tensor.dtype, dims: [count, ...tensor.dims.slice(1)], data };
      row += count;
    });
  }
  return answers;
}
