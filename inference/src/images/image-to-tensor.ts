/**
 * Model inputs from pixels, exactly as the model's config declares: channels in the declared
 * colour order (or grey), value = (pixel * scale - mean[c]) / std[c], in NHWC or NCHW. Crops cut
 * by the affine sampler (face boxes, chips, text lines) are packed with packCrops; a whole image
 * is stretched to the preprocessing size first by imageToTensor.
 */
import sharp from 'sharp';
import type { HostTensor } from '../client/host-tensor';
import type { ModelConfig, Preprocessing } from '../repository/model-config';
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
    for (let p = 0; p < plane; p++) {
      for (let c = 0; c < channels; c++) {
        const pixel =
          channels === 1
            ? 0.299 * crop[p * 3] + 0.587 * crop[p * 3 + 1] + 0.114 * crop[p * 3 + 2]
            : crop[p * 3 + order[c]];
        data[nchw ? base + c * plane + p : base + p * channels + c] =
          (pixel * pre.scale - (pre.mean[c] ?? 0)) / (pre.std[c] ?? 1);
      }
    }
  });
  const dims = nchw ? [crops.length, channels, height, width] : [crops.length, height, width, channels];
  return { dtype: 'float32', dims, data };
}

/** Packs crops cut to the model's size into its single input, keyed by the input's name. */
export function packCrops(config: ModelConfig, crops: ArrayLike<number>[]): Record<string, HostTensor> {
  const input = config.inputs[0];
  const pre = preprocessingOf(config);
  return { [input.name]: normalise(crops, pre, input.layout ?? pre.layout) };
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
