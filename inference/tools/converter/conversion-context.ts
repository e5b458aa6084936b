/**
 * What an op handler sees of the graph being converted: its TF node, its inputs as ONNX value
 * names (constants become initializers on first use) or as decoded constants, and the output
 * name it must produce.
 */
import type { OnnxGraph } from './onnx-graph';
import type { TfNode } from './tfjs-model-json';
import type { DecodedWeight } from './weights-decoder';

export interface ConversionContext {
  graph: OnnxGraph;
  node: TfNode;
  /** Number of data inputs (control dependencies removed). */
  inputCount: number;
  /** ONNX name of data input i. */
  value(i: number): string;
  /** Decoded value of data input i, which must be a Const (filters, shapes, paddings, axes). */
  constant(i: number): DecodedWeight;
  /** The ONNX name this node's output must be written to. */
  output: string;
}

export type OpHandler = (ctx: ConversionContext) => void;

export function unsupported(ctx: ConversionContext, what: string): never {
  throw new Error(`node ${ctx.node.name} (${ctx.node.op}): ${what} is not supported`);
}
