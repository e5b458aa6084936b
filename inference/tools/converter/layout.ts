/**
 * TF works in NHWC, ONNX's Conv and pools in NCHW. The converter keeps the model's NHWC interface
 * and wraps each spatial op in a pair of transposes; onnxruntime's transpose optimiser cancels the
 * back-to-back pairs between consecutive convolutions when it loads the graph.
 */
import type { ConversionContext } from './conversion-context';

export const TO_NCHW = [0, 3, 1, 2];
export const TO_NHWC = [0, 2, 3, 1];

/** Runs `op` (given an NCHW input name, returning an NCHW output name) on the NHWC input 0. */
export function inNchw(ctx: ConversionContext, op: (nchwInput: string) => string, output: string): string {
  const nchw = ctx.graph.addNode('Transpose', [ctx.value(0)], { perm: { type: 'ints', value: TO_NCHW } });
  return ctx.graph.addNode('Transpose', [op(nchw)], { perm: { type: 'ints', value: TO_NHWC } }, output);
}

/** TF's per-axis NHWC list (strides, ksize, dilations) → the spatial [h, w] pair ONNX wants. */
export function spatial(nhwc: number[]): number[] {
  if (nhwc.length !== 4 || nhwc[0] !== 1 || nhwc[3] !== 1)
    throw new Error(`expected [1, h, w, 1], got [${nhwc.join(', ')}]`);
  return [nhwc[1], nhwc[2]];
}
