import sharp from 'sharp';
import { AppError } from './app-error';

export interface ImageRules {
  maxPixels: number;
  /** Formats sharp must find in the bytes (the declared content type is checked separately). */
  formats: string[];
}

/**
 * Reads only the image header (sharp's metadata does not decode pixels), so a pixel bomb is refused
 * before anything allocates its pixels. Throws 422 VALIDATION_ERROR naming `field`.
 */
export async function probeImage(bytes: Buffer, rules: ImageRules, field: string): Promise<{ width: number; height: number; format: string }> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The upload is not an image.', [{ field, message: 'is not a decodable JPEG, PNG or WebP image' }]);
  }
  const format = meta.format ?? 'unknown';
  if (!rules.formats.includes(format) || !meta.width || !meta.height) {
    throw new AppError('VALIDATION_ERROR', 'The upload is not an image in an accepted format.', [{ field, message: `must be ${rules.formats.join(', ')}; got ${format}` }]);
  }
  if (meta.width * meta.height > rules.maxPixels) {
    throw new AppError('VALIDATION_ERROR', 'The image has too many pixels.', [
      { field, message: `${meta.width}x${meta.height} exceeds ${(rules.maxPixels / 1e6).toFixed(0)} megapixels` },
    ]);
  }
  return { width: meta.width, height: meta.height, format };
}

/** Document sides and selfies (contract: JPEG, PNG or WebP, at most 40 megapixels). */
export const PHOTO_RULES: ImageRules = { maxPixels: 40_000_000, formats: ['jpeg', 'png', 'webp'] };
/** Liveness frames (contract: JPEG, at most 2 megapixels each). */
export const FRAME_RULES: ImageRules = { maxPixels: 2_000_000, formats: ['jpeg'] };
