import sharp from 'sharp';
import { dimensionProblem, FRAME_LIMITS, ImageLimits, PHOTO_LIMITS } from '../../../inference/src/client/image-limits';
import { AppError } from './app-error';

/** Document sides and selfies: JPEG, PNG or WebP, 10 MiB, 40 MP; liveness frames: JPEG, 1 MiB, 2 MP each. */
export { FRAME_LIMITS, PHOTO_LIMITS };

/**
 * Reads only the image header (sharp's metadata does not decode pixels), so a pixel bomb is refused
 * before anything allocates its pixels. The limits are the inference tier's own, so an image
 * accepted here is never refused there. Throws 422 VALIDATION_ERROR naming `field`.
 */
export async function probeImage(
  bytes: Buffer,
  limits: ImageLimits,
  field: string,
): Promise<{ width: number; height: number; format: string }> {
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(bytes, { limitInputPixels: false, failOn: 'none' }).metadata();
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The upload is not an image.', [
      { field, message: 'is not a decodable JPEG, PNG or WebP image' },
    ]);
  }
  const format = meta.format ?? 'unknown';
  if (!limits.formats.includes(format) || !meta.width || !meta.height) {
    throw new AppError('VALIDATION_ERROR', 'The upload is not an image in an accepted format.', [
      { field, message: `must be ${limits.formats.join(', ')}; got ${format}` },
    ]);
  }
  const problem = dimensionProblem(meta.width, meta.height, limits);
  if (problem) throw new AppError('VALIDATION_ERROR', 'The image has too many pixels.', [{ field, message: problem }]);
  return { width: meta.width, height: meta.height, format };
}
