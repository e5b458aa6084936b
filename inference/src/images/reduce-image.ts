import sharp from 'sharp';
import type { Affine } from './affine-sampler';
import { borrowCropBuffer } from './crop-buffers';
import type { RgbImage } from './rgb-image';

/**
 * A smaller copy of decoded pixels, made by libvips: a box shrink by the integer part of the factor,
 * then a linear reduce for the rest. For a model input many times smaller than the upload (the face
 * detector's 256 px letterbox of a 1,280 px frame) this is several times cheaper than averaging
 * bilinear taps per output pixel in JavaScript, and it runs on libuv's pool, off the event loop.
 * Pixel centres stay aligned: output pixel i covers source [i, i + 1) * (source size / output size).
 */
export async function reduceImage(image: RgbImage, width: number, height: number): Promise<RgbImage> {
  const raw = { width: image.width, height: image.height, channels: 3 as const };
  const pixels = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  const { data, info } = await sharp(pixels, { raw })
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** A model input cut from an image, and the map from its pixels back to the image's (for decoding what the model finds). */
export interface Letterboxed {
  crop: Float32Array;
  map: Affine;
}

/**
 * The image scaled by libvips to fit size x size and centred on black, as a crop (RGB HWC, 0..255,
 * lent from crop-buffers.ts like the sampler's), with no per-pixel sampling pass in JavaScript.
 * The map follows the placement actually made (whole-pixel margins, per-axis scale), so boxes found
 * in the crop land where they are in the image.
 */
export async function letterboxByReduction(image: RgbImage, size: number): Promise<Letterboxed> {
  const scale = Math.max(image.width, image.height) / size;
  const width = Math.max(1, Math.min(size, Math.round(image.width / scale)));
  const height = Math.max(1, Math.min(size, Math.round(image.height / scale)));
  const reduced = await reduceImage(image, width, height);
  const left = Math.floor((size - width) / 2);
  const top = Math.floor((size - height) / 2);
  const crop = borrowCropBuffer(size * size * 3);
  crop.fill(0);
  const row = width * 3;
  for (let y = 0; y < height; y++)
    crop.set(reduced.data.subarray(y * row, (y + 1) * row), ((top + y) * size + left) * 3);
  const kx = image.width / width;
  const ky = image.height / height;
  return { crop, map: { a: kx, b: 0, c: -left * kx, d: 0, e: ky, f: -top * ky } };
}
