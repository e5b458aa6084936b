/**
 * Converts a decoded TFJS graph model into an ONNX graph (opset 13). The interface stays as TFJS
 * has it (NHWC images in, same output shapes) with a free batch dimension, and inputs/outputs take
 * the names the config gives them, so models of one role can be swapped without code changes.
 */
import type { ConversionContext } from './conversion-context';
import { dataInputs, tensorNode, topologicalOrder } from './graph-order';
import { OnnxGraph } from './onnx-graph';
import { opHandlers } from './ops/op-table';
import type { TfjsModelJson, TfNode, TfSignatureEntry } from './tfjs-model-json';
import type { DecodedWeight } from './weights-decoder';

export const BATCH_DIM = 'N';

function signatureOf(model: TfjsModelJson) {
  const signature = model.signature ?? model.userDefinedMetadata?.signature;
  if (!signature) throw new Error('model.json has no signature: its inputs and outputs are unknown');
  return signature;
}

/** Signature dims with the first (batch) dim made symbolic. */
function interfaceDims(entry: TfSignatureEntry): Array<number | string> {
  const dims = (entry.tensorShape?.dim ?? []).map((d) => Number(d.size));
  return dims.map((d, i) => (i === 0 ? BATCH_DIM : d));
}

/** Interface tensor names: the config's choice (by signature key or tensor name), else TF's. */
function interfaceNames(
  entries: Record<string, TfSignatureEntry>,
  chosen: Record<string, string>,
): Map<string, string> {
  const names = new Map<string, string>();
  for (const [key, entry] of Object.entries(entries))
    names.set(tensorNode(entry.name), chosen[key] ?? chosen[entry.name] ?? tensorNode(entry.name));
  return names;
}

function contextFor(
  graph: OnnxGraph,
  node: TfNode,
  nodes: Map<string, TfNode>,
  weights: Map<string, DecodedWeight>,
  onnxName: (tf: string) => string,
): ConversionContext {
  const inputs = dataInputs(node);
  const constant = (i: number): DecodedWeight => {
    const source = nodes.get(inputs[i]);
    const value = source?.op === 'Const' ? weights.get(source.name) : undefined;
    if (!value) throw new Error(`node ${node.name} (${node.op}): input ${i} (${inputs[i]}) must be a constant`);
    return value;
  };
  return {
    graph,
    node,
    inputCount: inputs.length,
    value: (i) => onnxName(inputs[i]),
    constant,
    output: onnxName(node.name),
  };
}

export function convertTfjsGraph(
  model: TfjsModelJson,
  weights: Map<string, DecodedWeight>,
  chosenNames: Record<string, string> = {},
): OnnxGraph {
  const signature = signatureOf(model);
  const nodes = new Map(model.modelTopology.node.map((n) => [n.name, n]));
  const renamed = new Map([
    ...interfaceNames(signature.inputs, chosenNames),
    ...interfaceNames(signature.outputs, chosenNames),
  ]);
  const graph = new OnnxGraph();
  const names = new Map<string, string>();
  const onnxName = (tf: string): string => {
    let name = names.get(tf);
    if (name === undefined) {
      name = graph.uniqueName(renamed.get(tf) ?? tf);
      names.set(tf, name);
      const node = nodes.get(tf);
      // A constant becomes an initializer the first time something reads it as a value.
      if (node?.op === 'Const') {
        const w = weights.get(tf);
        if (!w) throw new Error(`constant ${tf} is not in the weights manifest`);
        graph.initializers.push({ name, dims: w.shape, data: w.values });
      }
    }
    return name;
  };
  // Interface names are reserved before any generated name can take them.
  for (const [tf, wanted] of renamed)
    if (onnxName(tf) !== wanted) throw new Error(`interface name ${wanted} is used twice`);

  for (const entry of Object.values(signature.inputs))
    graph.inputs.push({ name: onnxName(tensorNode(entry.name)), dims: interfaceDims(entry) });
  const outputs = Object.values(signature.outputs);
  for (const node of topologicalOrder(
    nodes,
    outputs.map((o) => tensorNode(o.name)),
  )) {
    if (node.op === 'Const' || node.op === 'Placeholder') continue;
    const handler = opHandlers[node.op];
    if (!handler) throw new Error(`node ${node.name}: TF op ${node.op} is not supported by the converter`);
    handler(contextFor(graph, node, nodes, weights, onnxName));
  }
  for (const entry of outputs)
    graph.outputs.push({ name: onnxName(tensorNode(entry.name)), dims: interfaceDims(entry) });
  return graph;
}
