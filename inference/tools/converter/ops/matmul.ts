/** MatMul and _FusedMatMul (BiasAdd + activation) → Gemm, which takes the bias and transposes. */
import type { ConversionContext, OpHandler } from '../conversion-context';
import { boolAttr, stringListAttr } from '../tf-attributes';
import { activate, fusedActivation } from './activation';

function gemm(ctx: ConversionContext, fused: boolean): void {
  const { node, graph } = ctx;
  const activation = fused ? fusedActivation(ctx, stringListAttr(node, 'fused_ops')) : undefined;
  const inputs = [ctx.value(0), ctx.value(1), ...(fused ? [ctx.value(2)] : [])];
  const attributes = {
    transA: { type: 'int' as const, value: boolAttr(node, 'transpose_a', false) ? 1 : 0 },
    transB: { type: 'int' as const, value: boolAttr(node, 'transpose_b', false) ? 1 : 0 },
  };
  const gemmOut = activation ? graph.uniqueName(`${node.name}/BiasAdd`) : ctx.output;
  graph.addNode('Gemm', inputs, attributes, gemmOut);
  if (activation) activate(ctx, activation, gemmOut, ctx.output, 3);
}

export const matMul: OpHandler = (ctx) => gemm(ctx, false);
export const fusedMatMul: OpHandler = (ctx) => gemm(ctx, true);
