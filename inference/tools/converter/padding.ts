/**
 * TF's padding attribute → ONNX attributes. SAME puts the odd extra pixel at the end, which is
 * ONNX's SAME_UPPER; EXPLICIT lists [before, after] per NHWC axis, ONNX wants all befores then
 * all afters for the spatial axes only.
 */
import type { OnnxAttribute } from './onnx-graph';
import { stringAttr, intListAttr } from './tf-attributes';
import type { TfNode } from './tfjs-model-json';

export function paddingAttributes(node: TfNode): Record<string, OnnxAttribute> {
  const padding = stringAttr(node, 'padding');
  if (padding === 'SAME') return { auto_pad: { type: 'string', value: 'SAME_UPPER' } };
  if (padding === 'VALID') return { auto_pad: { type: 'string', value: 'VALID' } };
  if (padding === 'EXPLICIT') {
    const p = intListAttr(node, 'explicit_paddings');
    if (p[0] || p[1] || p[6] || p[7]) throw new Error(`node ${node.name}: padding of batch or channel axes`);
    return { pads: { type: 'ints', value: [p[2], p[4], p[3], p[5]] } };
  }
  throw new Error(`node ${node.name}: padding ${padding} is not supported`);
}
