/**
 * Checks a request against the model's declared inputs before it is queued, so one malformed
 * request is answered INVALID_ARGUMENT on its own instead of failing a whole batch of others.
 */
import { InferenceError } from './inference-error';
import { elementCount } from './host-tensors';
import type { HostTensor, ModelConfig } from './model-runner';

/** Returns the request's batch size (1 for models without a batch dimension). */
export function validateRequest(config: ModelConfig, inputs: Record<string, HostTensor>): number {
  const batched = config.max_batch_size > 0;
  let batch: number | undefined;
  for (const name of Object.keys(inputs)) {
    if (!config.inputs.some((s) => s.name === name))
      throw new InferenceError('INVALID_ARGUMENT', `model "${config.name}" has no input "${name}"`);
  }
  for (const spec of config.inputs) {
    const tensor = inputs[spec.name];
    if (!tensor) throw new InferenceError('INVALID_ARGUMENT', `model "${config.name}" needs input "${spec.name}"`);
    if (tensor.dtype !== spec.dtype)
      throw new InferenceError('INVALID_ARGUMENT', `input "${spec.name}" must be ${spec.dtype}, got ${tensor.dtype}`);
    const expectedRank = spec.dims.length + (batched ? 1 : 0);
    if (tensor.dims.length !== expectedRank)
      throw new InferenceError(
        'INVALID_ARGUMENT',
        `input "${spec.name}" must have rank ${expectedRank}, got [${tensor.dims.join(',')}]`,
      );
    if (tensor.dims.some((d) => !Number.isInteger(d) || d < 1))
      throw new InferenceError(
        'INVALID_ARGUMENT',
        `input "${spec.name}" has a non-positive dim in [${tensor.dims.join(',')}]`,
      );
    const itemDims = batched ? tensor.dims.slice(1) : tensor.dims;
    spec.dims.forEach((dim, i) => {
      if (dim !== -1 && itemDims[i] !== dim)
        throw new InferenceError(
          'INVALID_ARGUMENT',
          `input "${spec.name}" dim ${i + (batched ? 1 : 0)} must be ${dim}, got ${itemDims[i]}`,
        );
    });
    if (tensor.data.length !== elementCount(tensor.dims)) {
      throw new InferenceError(
        'INVALID_ARGUMENT',
        `input "${spec.name}" holds ${tensor.data.length} values, dims [${tensor.dims.join(',')}] need ${elementCount(tensor.dims)}`,
      );
    }
    const rows = batched ? tensor.dims[0] : 1;
    if (batch !== undefined && rows !== batch)
      throw new InferenceError('INVALID_ARGUMENT', `inputs disagree on batch size (${batch} vs ${rows})`);
    batch = rows;
  }
  const rows = batch ?? 1;
  if (batched && rows > config.max_batch_size) {
    throw new InferenceError(
      'INVALID_ARGUMENT',
      `batch of ${rows} exceeds max_batch_size ${config.max_batch_size} of "${config.name}"`,
    );
  }
  return rows;
}
