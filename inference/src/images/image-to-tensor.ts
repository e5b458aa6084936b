/**
 * Model inputs from pixels, exactly as the model's config declares: channels in the declared
 * colour order (or grey), value = (pixel * scale - mean[c]) / std[c], in NHWC or NCHW. Crops cut
 * by the affine sampler (face boxes, chips, text lines) are packed with packCrops; a whole image
 * is stretched to the preprocessing size first by imageToTensor.
 */
import sharp from 'sharp';
import type { HostTensor } from '../client/host-tensor';
import type { ModelConfig, Preprocessing } from '../repository/model-config';
import { returnCropBuffers } from './crop-buffers';
import type { RgbImage } from './rgb-image';

/** The model's declared input size and normalisation; the config must declare them. */
export function preprocessingOf(config: ModelConfig): Preprocessing {
  if (!config.preprocessing)
    throw new Error(`model ${config.name} v${config.version} declares no preprocessing in its config.json`);
  return config.preprocessing;
}

/**
 * Normalises RGB crops (HWC, 0..255, each already pre.width x pre.height) into one batch tensor.
 * `layout` overrides the preprocessing layout when the input tensor declares its own.
 */
export function normalise(crops: ArrayLike<number>[], pre: Preprocessing, layout: string = pre.layout): HostTensor {
  const { width, height } = pre;
  const plane = width * height;
  const channels = pre.color === 'GRAY' ? 1 : 3;
  const order = pre.color === 'BGR' ? [2, 1, 0] : [0, 1, 2];
  const nchw = layout === 'NCHW';
  const data = new Float32Array(crops.length * plane * channels);
  crops.forEach((crop, n) => {
    if (crop.length !== plane * 3)
      throw new Error(`a crop holds ${crop.length} values, expected ${plane * 3} (${width}x${height} RGB)`);
    const base = n * plane * channels;
    if (channels === 1) normaliseGrey(crop, data, base, plane, pre);
    else normaliseColour(crop, data, base, plane, order, nchw, pre);
  });
  const dims = nchw ? [crops.length, channels, height, width] : [crops.length, height, width, channels];
  return { dtype: 'float32', dims, data };
}

// The two loops below run over every pixel of every model input; the constants are read once and
// the arithmetic is the declared (pixel * scale - mean) / std in that order, value for value.

function normaliseGrey(crop: ArrayLike<number>, data: Float32Array, base: number, plane: number, pre: Preprocessing) {
  const scale = pre.scale;
  const mean = pre.mean[0] ?? 0;
  const std = pre.std[0] ?? 1;
  for (let p = 0; p < plane; p++) {
    const pixel = 0.299 * crop[p * 3] + 0.587 * crop[p * 3 + 1] + 0.114 * crop[p * 3 + 2];
    data[base + p] = (pixel * scale - mean) / std;
  }
}

function normaliseColour(
  crop: ArrayLike<number>,
  data: Float32Array,
  base: number,
  plane: number,
  order: number[],
  nchw: boolean,
  pre: Preprocessing,
) {
  const scale = pre.scale;
  const [o0, o1, o2] = order;
  const [m0, m1, m2] = [0, 1, 2].map((c) => pre.mean[c] ?? 0);
  const [s0, s1, s2] = [0, 1, 2].map((c) => pre.std[c] ?? 1);
  // Where channel c of pixel p goes: NCHW planes or NHWC interleaved.
  const step = nchw ? 1 : 3;
  const c0 = base;
  const c1 = nchw ? base + plane : base + 1;
  const c2 = nchw ? base + 2 * plane : base + 2;
  for (let p = 0; p < plane; p++) {
    const at = p * 3;
    const out = p * step;
    data[c0 + out] = (crop[at + o0] * scale - m0) / s0;
    data[c1 + out] = (crop[at + o1] * scale - m1) / s1;
    data[c2 + out] = (crop[at + o2] * scale - m2) / s2;
  }
}

/**
 * Packs crops cut to the model's size into its single input, keyed by the input's name. The crops
 * are read here for the last time, so those the sampler lent go back to its pool (crop-buffers.ts).
 */
export function packCrops(config: ModelConfig, crops: ArrayLike<number>[]): Record<string, HostTensor> {
  const input = config.inputs[0];
  const pre = preprocessingOf(config);
  const packed = { [input.name]: normalise(crops, pre, input.layout ?? pre.layout) };
  returnCropBuffers(crops);
  return packed;
}

/** A whole image stretched to the preprocessing size (for models fed pre-cropped inputs). */
export async function imageToTensor(image: RgbImage, pre: Preprocessing): Promise<HostTensor> {
  const resized = await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .resize(pre.width, pre.height, { fit: 'fill' })
    .raw()
    .toBuffer();
  return normalise([resized], pre);
}
