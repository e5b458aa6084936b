/**
 * Ops whose ONNX twin has the same numpy broadcasting and the same NHWC meaning, so they map one
 * to one. Softmax: TF normalises the last axis, which is ONNX (opset ≥ 13) Softmax with axis -1.
 */
import type { OpHandler } from '../conversion-context';

function oneToOne(onnxOp: string): OpHandler {
  return (ctx) => {
    const inputs = Array.from({ length: ctx.inputCount }, (_, i) => ctx.value(i));
    ctx.graph.addNode(onnxOp, inputs, {}, ctx.output);
  };
}

export const elementwiseHandlers: Record<string, OpHandler> = {
  Add: oneToOne('Add'),
  AddV2: oneToOne('Add'),
  Sub: oneToOne('Sub'),
  Mul: oneToOne('Mul'),
  Minimum: oneToOne('Min'),
  Maximum: oneToOne('Max'),
  Relu: oneToOne('Relu'),
  Sigmoid: oneToOne('Sigmoid'),
  Prelu: oneToOne('PRelu'),
  Identity: oneToOne('Identity'),
  Softmax: (ctx) => ctx.graph.addNode('Softmax', [ctx.value(0)], { axis: { type: 'int', value: -1 } }, ctx.output),
};
