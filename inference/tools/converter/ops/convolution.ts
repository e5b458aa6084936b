/**
 * Conv2D, DepthwiseConv2dNative and their _Fused forms. Filters are re-laid out for ONNX:
 * TF's HWIO [kh, kw, in, out] → OIHW, and depthwise [kh, kw, C, M] → [C·M, 1, kh, kw] with
 * group = C (TF numbers depthwise output channels c·M + m, which is ONNX's group order).
 */
import { type ConversionContext, type OpHandler, unsupported } from '../conversion-context';
import { inNchw, spatial } from '../layout';
import { paddingAttributes } from '../padding';
import { intListAttr, stringAttr, stringListAttr } from '../tf-attributes';
import type { DecodedWeight } from '../weights-decoder';
import { activate, fusedActivation } from './activation';

function hwioToOihw(w: DecodedWeight): Float32Array {
  const [kh, kw, ci, co] = w.shape;
  const out = new Float32Array(w.values.length);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < ci; i++)
        for (let o = 0; o < co; o++) out[((o * ci + i) * kh + y) * kw + x] = w.values[((y * kw + x) * ci + i) * co + o];
  return out;
}

function filterFor(ctx: ConversionContext, depthwise: boolean): { name: string; group: number } {
  const w = ctx.constant(1);
  const [kh, kw, ci, co] = w.shape;
  const base = `${ctx.node.name}/filter`;
  if (!depthwise) return { name: ctx.graph.addInitializer(base, [co, ci, kh, kw], hwioToOihw(w)), group: 1 };
  // [kh, kw, C, M] read as HWIO with in = 1, out = C·M is exactly the grouped OIHW layout.
  const asHwio: DecodedWeight = { ...w, shape: [kh, kw, 1, ci * co] };
  return { name: ctx.graph.addInitializer(base, [ci * co, 1, kh, kw], hwioToOihw(asHwio)), group: ci };
}

function convolution(ctx: ConversionContext, depthwise: boolean, fused: boolean): void {
  const { node } = ctx;
  if (stringAttr(node, 'data_format', 'NHWC') !== 'NHWC') unsupported(ctx, 'data_format other than NHWC');
  const activation = fused ? fusedActivation(ctx, stringListAttr(node, 'fused_ops')) : undefined;
  const filter = filterFor(ctx, depthwise);
  const inputs = fused ? [filter.name, ctx.value(2)] : [filter.name];
  const attributes = {
    strides: { type: 'ints' as const, value: spatial(intListAttr(node, 'strides')) },
    dilations: { type: 'ints' as const, value: spatial(intListAttr(node, 'dilations', [1, 1, 1, 1])) },
    group: { type: 'int' as const, value: filter.group },
    ...paddingAttributes(node),
  };
  const convOut = activation ? ctx.graph.uniqueName(`${node.name}/BiasAdd`) : ctx.output;
  inNchw(ctx, (x) => ctx.graph.addNode('Conv', [x, ...inputs], attributes), convOut);
  if (activation) activate(ctx, activation, convOut, ctx.output, 3);
}

export const conv2d: OpHandler = (ctx) => convolution(ctx, false, false);
export const fusedConv2d: OpHandler = (ctx) => convolution(ctx, false, true);
export const depthwiseConv2d: OpHandler = (ctx) => convolution(ctx, true, false);
