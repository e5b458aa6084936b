import type { HostTensor, ModelConfig, Preprocessing } from '../../runtime/model-runner';

/**
 * Packs RGB crops (HWC floats, 0..255, already cut to the model's size) into the model's single
 * input, normalised and laid out as its config declares: value = (pixel * scale - mean) / std.
 */
export function packCrops(config: ModelConfig, crops: Float32Array[]): Record<string, HostTensor> {
  const input = config.inputs[0];
  const pre = preprocessingOf(config);
  const { width, height } = pre;
  const plane = width * height;
  const data = new Float32Array(crops.length * plane * 3);
  const order = pre.color === 'BGR' ? [2, 1, 0] : [0, 1, 2];
  const nchw = (input.layout ?? pre.layout) === 'NCHW';
  crops.forEach((crop, n) => {
    if (crop.length !== plane * 3) throw new Error(`crop for ${config.name} holds ${crop.length} values, expected ${plane * 3}`);
    const base = n * plane * 3;
    for (let p = 0; p < plane; p++) {
      for (let c = 0; c < 3; c++) {
        const value = (crop[p * 3 + order[c]] * pre.scale - pre.mean[c]) / pre.std[c];
        data[nchw ? base + c * plane + p : base + p * 3 + c] = value;
      }
    }
  });
  const dims = nchw ? [crops.length, 3, height, width] : [crops.length, height, width, 3];
  return { [input.name]: { dtype: 'float32', dims, data } };
}

/** The model's declared input size and normalisation; the config must declare them. */
export function preprocessingOf(config: ModelConfig): Preprocessing {
  if (!config.preprocessing) throw new Error(`model ${config.name} v${config.version} declares no preprocessing in its config.json`);
  return config.preprocessing;
}

/** Runs `crops` through the model in chunks no larger than its max batch size. */
export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  const step = Math.max(1, size);
  for (let i = 0; i < items.length; i += step) out.push(items.slice(i, i + step));
  return out;
}
