/**
 * Every TF op the converter knows (those the shipped models use, all covered by the parity test);
 * anything else stops the conversion naming the op and node.
 */
import type { OpHandler } from '../conversion-context';
import { conv2d, depthwiseConv2d, fusedConv2d } from './convolution';
import { elementwiseHandlers } from './elementwise';
import { fusedMatMul, matMul } from './matmul';
import { maxPool } from './pooling';
import { mean, pad, reshape } from './shape';

export const opHandlers: Record<string, OpHandler> = {
  ...elementwiseHandlers,
  Conv2D: conv2d,
  _FusedConv2D: fusedConv2d,
  DepthwiseConv2dNative: depthwiseConv2d,
  MaxPool: maxPool,
  MatMul: matMul,
  _FusedMatMul: fusedMatMul,
  Reshape: reshape,
  Pad: pad,
  Mean: mean,
};
