/** MaxPool in NHWC, run as ONNX's NCHW MaxPool between transposes. */
import { type OpHandler, unsupported } from '../conversion-context';
import { inNchw, spatial } from '../layout';
import { paddingAttributes } from '../padding';
import { intListAttr, stringAttr } from '../tf-attributes';

export const maxPool: OpHandler = (ctx) => {
  if (stringAttr(ctx.node, 'data_format', 'NHWC') !== 'NHWC') unsupported(ctx, 'data_format other than NHWC');
  const attributes = {
    kernel_shape: { type: 'ints' as const, value: spatial(intListAttr(ctx.node, 'ksize')) },
    strides: { type: 'ints' as const, value: spatial(intListAttr(ctx.node, 'strides')) },
    ...paddingAttributes(ctx.node),
  };
  inNchw(ctx, (x) => ctx.graph.addNode('MaxPool', [x], attributes), ctx.output);
};
