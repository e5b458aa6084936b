/**
 * Turns an image into a model input exactly as the model's config declares: resized to the
 * preprocessing size (stretched, as the repository's configs assume for pre-cropped inputs),
 * channels in the declared colour order, value = (pixel * scale - mean[c]) / std[c], in NHWC or
 * NCHW. Task code with model-specific cropping (face boxes, text lines) builds its own tensors.
 */
import sharp from 'sharp';
import type { HostTensor, Preprocessing } from '../runtime/model-runner';
import type { RgbImage } from './decode-image';

export async function imageToTensor(image: RgbImage, pre: Preprocessing): Promise<HostTensor> {
  const resized = await sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), { raw: { width: image.width, height: image.height, channels: 3 } })
    .resize(pre.width, pre.height, { fit: 'fill' })
    .raw()
    .toBuffer();
  return rgbToTensor(new Uint8Array(resized.buffer, resized.byteOffset, resized.length), pre);
}

/** `rgb` is pre.width x pre.height RGB interleaved. */
export function rgbToTensor(rgb: Uint8Array, pre: Preprocessing): HostTensor {
  const { width, height } = pre;
  const channels = pre.color === 'GRAY' ? 1 : 3;
  const order = pre.color === 'BGR' ? [2, 1, 0] : [0, 1, 2];
  const plane = width * height;
  const data = new Float32Array(plane * channels);
  for (let p = 0; p < plane; p++) {
    for (let c = 0; c < channels; c++) {
      const pixel = pre.color === 'GRAY' ? 0.299 * rgb[p * 3]! + 0.587 * rgb[p * 3 + 1]! + 0.114 * rgb[p * 3 + 2]! : rgb[p * 3 + order[c]!]!;
      const value = (pixel * pre.scale - (pre.mean[c] ?? 0)) / (pre.std[c] ?? 1);
      data[pre.layout === 'NCHW' ? c * plane + p : p * channels + c] = value;
    }
  }
  const dims = pre.layout === 'NCHW' ? [1, channels, height, width] : [1, height, width, channels];
  return { dtype: 'float32', dims, data };
}
