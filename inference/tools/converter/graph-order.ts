/**
 * Which TF nodes to convert and in what order: only those the signature's outputs depend on,
 * each after its inputs, visiting in a fixed order so the ONNX bytes never change between runs.
 */
import type { TfNode } from './tfjs-model-json';

/** "name:0" → "name"; control inputs ("^name") are dropped by dataInputs. */
export function tensorNode(ref: string): string {
  const match = /^([^:]+)(?::(\d+))?$/.exec(ref);
  if (!match) throw new Error(`unreadable tensor reference ${ref}`);
  if (match[2] !== undefined && match[2] !== '0') throw new Error(`tensor ${ref}: only first outputs are supported`);
  return match[1];
}

export function dataInputs(node: TfNode): string[] {
  return (node.input ?? []).filter((ref) => !ref.startsWith('^')).map(tensorNode);
}

export function topologicalOrder(nodes: Map<string, TfNode>, outputs: string[]): TfNode[] {
  const ordered: TfNode[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`cycle through ${name}`);
    const node = nodes.get(name);
    if (!node) throw new Error(`graph references missing node ${name}`);
    state.set(name, 'visiting');
    for (const input of dataInputs(node)) visit(input);
    state.set(name, 'done');
    ordered.push(node);
  };
  outputs.forEach(visit);
  return ordered;
}
