/**
 * Holds a config's declared inputs and outputs to the ONNX graph, so a swapped model whose names,
 * dtypes or shapes differ from its config stops start-up instead of failing on the first request.
 */
import type * as ort from 'onnxruntime-node';
import type { ModelConfig, TensorSpec } from './model-runner';

type GraphValue = ort.InferenceSession.ValueMetadata;

function describe(shape: ReadonlyArray<number | string>): string {
  return `[${shape.map((d) => (typeof d === 'string' ? '?' : d)).join(',')}]`;
}

function compare(
  kind: 'input' | 'output',
  spec: TensorSpec,
  graph: GraphValue | undefined,
  batched: boolean,
): string[] {
  if (!graph) return [`${kind} "${spec.name}" is not in the ONNX graph`];
  if (!graph.isTensor) return [`${kind} "${spec.name}" is not a tensor in the ONNX graph`];
  const problems: string[] = [];
  if (graph.type !== spec.dtype)
    problems.push(`${kind} "${spec.name}" is ${graph.type} in the graph, config says ${spec.dtype}`);
  const declared = batched ? [-1, ...spec.dims] : spec.dims;
  const shape = graph.shape;
  if (shape.length !== declared.length) {
    problems.push(
      `${kind} "${spec.name}" has rank ${shape.length} ${describe(shape)} in the graph, config declares rank ${declared.length}${batched ? ' (batch dim + dims)' : ''}`,
    );
    return problems;
  }
  if (batched && typeof shape[0] === 'number' && shape[0] !== -1) {
    problems.push(
      `${kind} "${spec.name}" has a fixed batch dim ${shape[0]} in the graph but max_batch_size > 0 needs a free one`,
    );
  }
  declared.forEach((dim, i) => {
    if (batched && i === 0) return;
    const actual = shape[i];
    const graphFree = typeof actual === 'string' || actual === -1;
    if (dim === -1 && !graphFree)
      problems.push(`${kind} "${spec.name}" dim ${i} is fixed to ${actual} in the graph, config declares it free (-1)`);
    if (dim !== -1 && !graphFree && dim !== actual)
      problems.push(`${kind} "${spec.name}" dim ${i} is ${actual} in the graph, config says ${dim}`);
  });
  return problems;
}

/** Returns every mismatch (empty when the config matches the graph). */
export function checkGraphContract(
  config: ModelConfig,
  session: Pick<ort.InferenceSession, 'inputMetadata' | 'outputMetadata'>,
): string[] {
  const batched = config.max_batch_size > 0;
  const inputs = new Map(session.inputMetadata.map((m) => [m.name, m]));
  const outputs = new Map(session.outputMetadata.map((m) => [m.name, m]));
  const problems = [
    ...config.inputs.flatMap((spec) => compare('input', spec, inputs.get(spec.name), batched)),
    ...config.outputs.flatMap((spec) => compare('output', spec, outputs.get(spec.name), batched)),
  ];
  const declaredInputs = new Set(config.inputs.map((s) => s.name));
  for (const name of inputs.keys()) {
    if (!declaredInputs.has(name)) problems.push(`graph input "${name}" is not declared in config.json`);
  }
  return problems;
}
