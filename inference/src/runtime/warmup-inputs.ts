/**
 * Zero-filled inputs for a warm-up run at one batch size. Free spatial dims take the preprocessing size (via the
 * input's layout), which is the shape real requests will have, so ORT's first-run allocations
 * happen before the service reports ready rather than on an applicant's request.
 */
import { allocate, elementCount } from './host-tensors';
import type { HostTensor, ModelConfig, TensorSpec } from './model-runner';

function spatialSize(config: ModelConfig, spec: TensorSpec, index: number): number | undefined {
  const pre = config.preprocessing;
  const layout = spec.layout ?? pre?.layout;
  if (!pre || spec.dims.length !== 3) return undefined;
  const [hIndex, wIndex] = layout === 'NCHW' ? [1, 2] : layout === 'NHWC' ? [0, 1] : [-1, -1];
  if (index === hIndex) return pre.height;
  if (index === wIndex) return pre.width;
  return undefined;
}

export function warmupInputs(config: ModelConfig, batch: number): Record<string, HostTensor> {
  const inputs: Record<string, HostTensor> = {};
  for (const spec of config.inputs) {
    const dims = spec.dims.map((dim, i) => {
      if (dim !== -1) return dim;
      const size = spatialSize(config, spec, i);
      if (size === undefined)
        throw new Error(
          `cannot size free dim ${i} of input "${spec.name}" for warm-up: declare preprocessing width/height and the input's layout`,
        );
      return size;
    });
    const full = [batch, ...dims];
    inputs[spec.name] = { dtype: spec.dtype, dims: full, data: allocate(spec.dtype, elementCount(full)) };
  }
  return inputs;
}
