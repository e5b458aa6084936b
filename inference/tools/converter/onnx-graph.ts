/**
 * An ONNX graph under construction, in plain objects; onnx-writer.ts turns it into protobuf.
 * Names are made unique here because TF node names and the extra transposes must never collide.
 */

export type OnnxAttribute =
  | { type: 'int'; value: number }
  | { type: 'ints'; value: number[] }
  | { type: 'float'; value: number }
  | { type: 'string'; value: string };

export const int = (value: number): OnnxAttribute => ({ type: 'int', value });
export const ints = (value: number[]): OnnxAttribute => ({ type: 'ints', value });
export const float = (value: number): OnnxAttribute => ({ type: 'float', value });
export const str = (value: string): OnnxAttribute => ({ type: 'string', value });

export interface OnnxNode {
  op: string;
  name: string;
  inputs: string[];
  outputs: string[];
  attributes: Record<string, OnnxAttribute>;
}

export interface OnnxInitializer {
  name: string;
  dims: number[];
  data: Float32Array | Int32Array | BigInt64Array;
}

/** A float32 graph input or output; a string dim is symbolic (the batch). */
export interface OnnxValueInfo {
  name: string;
  dims: Array<number | string>;
}

export class OnnxGraph {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxInitializer[] = [];
  readonly inputs: OnnxValueInfo[] = [];
  readonly outputs: OnnxValueInfo[] = [];
  private readonly taken = new Set<string>();

  /** Reserves `base`, or `base_1`, `base_2`… when it is already used. */
  uniqueName(base: string): string {
    let name = base;
    for (let i = 1; this.taken.has(name); i++) name = `${base}_${i}`;
    this.taken.add(name);
    return name;
  }

  /** Adds a node and returns the name of its (single) output. */
  addNode(op: string, inputs: string[], attributes: Record<string, OnnxAttribute> = {}, output?: string): string {
    const out = output ?? this.uniqueName(`${inputs[0] ?? op}/${op}`);
    if (output !== undefined) this.taken.add(output);
    this.nodes.push({ op, name: this.uniqueName(`node:${out}`), inputs, outputs: [out], attributes });
    return out;
  }

  addInitializer(base: string, dims: number[], data: OnnxInitializer['data']): string {
    const name = this.uniqueName(base);
    this.initializers.push({ name, dims, data });
    return name;
  }
}
