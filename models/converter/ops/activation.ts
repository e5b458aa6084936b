/**
 * The activations TF fuses into _FusedConv2D / _FusedMatMul (after BiasAdd) and their ONNX ops.
 * Prelu's alpha is an extra input of the fused node (its 4th), so the caller says where it is.
 */
import { type ConversionContext, unsupported } from '../conversion-context';
import { floatAttr } from '../tf-attributes';

export function activate(ctx: ConversionContext, kind: string, input: string, output: string, alphaInput: number): string {
  const { graph } = ctx;
  switch (kind) {
    case 'Relu': return graph.addNode('Relu', [input], {}, output);
    case 'Relu6': {
      const low = graph.addInitializer(`${output}/min`, [], Float32Array.of(0));
      const high = graph.addInitializer(`${output}/max`, [], Float32Array.of(6));
      return graph.addNode('Clip', [input, low, high], {}, output);
    }
    case 'Prelu': return graph.addNode('PRelu', [input, ctx.value(alphaInput)], {}, output);
    case 'LeakyRelu': return graph.addNode('LeakyRelu', [input], { alpha: { type: 'float', value: floatAttr(ctx.node, 'leakyrelu_alpha', 0.2) } }, output);
    case 'Elu': return graph.addNode('Elu', [input], {}, output);
    case 'Sigmoid': return graph.addNode('Sigmoid', [input], {}, output);
    default: return unsupported(ctx, `fused activation ${kind}`);
  }
}

/** Splits fused_ops into the BiasAdd every supported fusion starts with and an optional activation. */
export function fusedActivation(ctx: ConversionContext, fusedOps: string[]): string | undefined {
  if (fusedOps[0] !== 'BiasAdd' || fusedOps.length > 2) unsupported(ctx, `fused_ops [${fusedOps.join(', ')}]`);
  return fusedOps[1];
}
