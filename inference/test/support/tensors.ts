import { encodeTensor } from '../../src/client/tensor-codec';
import type { HostTensor } from '../../src/runtime/model-runner';

export function floatTensor(dims: number[], fill: (i: number) => number = (i) => i): HostTensor {
  const length = dims.reduce((a, b) => a * b, 1);
  return { dtype: 'float32', dims, data: Float32Array.from({ length }, (_, i) => fill(i)) };
}

export const protoInput = (name: string, tensor: HostTensor) => encodeTensor(name, tensor);

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}
