/**
 * The one way task code turns image bytes into pixels: probed first (byte cap, formats, pixel
 * bombs), then decoded upright (EXIF orientation, as a phone camera writes it) to RGB. The decode
 * itself also carries limitInputPixels, so a header that lied is still stopped by libvips. Every
 * failure is INVALID_ARGUMENT with a reason that names no personal data.
 */
import sharp from 'sharp';
import { InferenceError } from '../runtime/inference-error';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from './image-limits';
import { probeImage } from './probe-image';
import type { RgbImage } from './rgb-image';

export type { RgbImage } from './rgb-image';

export interface DecodeOptions {
  limits?: ImageLimits;
  /** Shrink so neither side exceeds this (JPEG shrink-on-load keeps memory low); default: no resize. */
  maxSide?: number;
  /** Names the image in error messages ("selfie", "frame 3"). */
  what?: string;
}

export async function decodeRgbImage(bytes: Uint8Array, options: DecodeOptions = {}): Promise<RgbImage> {
  const limits = options.limits ?? DEFAULT_IMAGE_LIMITS;
  const what = options.what ?? 'image';
  await probeImage(bytes, limits, what);
  try {
    let pipeline = sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate();
    if (options.maxSide)
      pipeline = pipeline.resize({
        width: options.maxSide,
        height: options.maxSide,
        fit: 'inside',
        withoutEnlargement: true,
      });
    const { data, info } = await pipeline
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
    };
  } catch {
    throw new InferenceError('INVALID_ARGUMENT', `${what} could not be decoded (corrupt or truncated)`);
  }
}
