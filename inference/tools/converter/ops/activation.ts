/**
 * The activations TF fuses into _FusedConv2D / _FusedMatMul (after BiasAdd) and their ONNX ops:
 * only those the shipped models use, so every mapping here is covered by the parity test. Prelu's
 * alpha is an extra input of the fused node (its 4th), so the caller says where it is.
 */
import { type ConversionContext, unsupported } from '../conversion-context';

export function activate(
  ctx: ConversionContext,
  kind: string,
  input: string,
  output: string,
  alphaInput: number,
): string {
  const { graph } = ctx;
  switch (kind) {
    case 'Relu':
      return graph.addNode('Relu', [input], {}, output);
    case 'Prelu':
      return graph.addNode('PRelu', [input, ctx.value(alphaInput)], {}, output);
    default:
      return unsupported(ctx, `fused activation ${kind}`);
  }
}

/** Splits fused_ops into the BiasAdd every supported fusion starts with and an optional activation. */
export function fusedActivation(ctx: ConversionContext, fusedOps: string[]): string | undefined {
  if (fusedOps[0] !== 'BiasAdd' || fusedOps.length > 2) unsupported(ctx, `fused_ops [${fusedOps.join(', ')}]`);
  return fusedOps[1];
}
