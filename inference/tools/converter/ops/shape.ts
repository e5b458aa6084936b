/**
 * Ops whose second input is a constant list TF stores as int32 and ONNX wants as int64 (or as an
 * attribute): Reshape's shape, Pad's paddings, Mean's axes.
 */
import { type OpHandler, unsupported } from '../conversion-context';
import { boolAttr } from '../tf-attributes';

const int64 = (values: ArrayLike<number>) => BigInt64Array.from(Array.from(values), (v) => BigInt(v));

/**
 * A leading 1 in a constant shape is the batch size the model was exported with; ONNX's 0 ("copy
 * this dim from the input") keeps the reshape valid for any batch, which dynamic batching needs.
 */
export const reshape: OpHandler = (ctx) => {
  const shape = Array.from(ctx.constant(1).values);
  if (shape.length > 1 && shape[0] === 1) shape[0] = 0;
  const shapeName = ctx.graph.addInitializer(`${ctx.node.name}/shape`, [shape.length], int64(shape));
  ctx.graph.addNode('Reshape', [ctx.value(0), shapeName], {}, ctx.output);
};

/** TF [[before, after] per axis] → ONNX [all befores, all afters]. */
export const pad: OpHandler = (ctx) => {
  const flat = Array.from(ctx.constant(1).values);
  const rank = flat.length / 2;
  const pads = [
    ...Array.from({ length: rank }, (_, a) => flat[2 * a]),
    ...Array.from({ length: rank }, (_, a) => flat[2 * a + 1]),
  ];
  if (ctx.inputCount > 2) unsupported(ctx, 'a pad value');
  const padsName = ctx.graph.addInitializer(`${ctx.node.name}/pads`, [pads.length], int64(pads));
  ctx.graph.addNode('Pad', [ctx.value(0), padsName], { mode: { type: 'string', value: 'constant' } }, ctx.output);
};

export const mean: OpHandler = (ctx) => {
  const axes = Array.from(ctx.constant(1).values);
  const keepdims = boolAttr(ctx.node, 'keep_dims', false) ? 1 : 0;
  ctx.graph.addNode(
    'ReduceMean',
    [ctx.value(0)],
    { axes: { type: 'ints', value: axes }, keepdims: { type: 'int', value: keepdims } },
    ctx.output,
  );
};
