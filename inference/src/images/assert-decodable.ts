/**
 * Proves an upload is a whole, decodable image within the limits before any task touches it, so a
 * non-image, truncated file or pixel bomb is answered INVALID_ARGUMENT at the door rather than
 * failing deep inside a check. JPEG shrink-on-load keeps this cheap (an 1/8-scale decode).
 */
import { decodeRgbImage } from './decode-image';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from './image-limits';

export async function assertDecodable(
  bytes: Uint8Array,
  what: string,
  limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
): Promise<void> {
  await decodeRgbImage(bytes, { what, limits, maxSide: 64 });
}
