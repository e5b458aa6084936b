/**
 * The image limits, in the one place the API and the inference tier both read: the API refuses an
 * upload over them at the door (422, 413), and the inference service, which holds the same limits,
 * then never refuses an image the API let through. Lives beside the client because the client is
 * the part of the inference tier the API already imports, and it imports nothing itself.
 *
 * Photos: 40 megapixels (a full-resolution phone or camera photo, with room) and 10 MiB (the
 * contract's upload limit, well under the gRPC request limit); above 40 MP a decode needs over
 * 120 MB of RGB, and a small file claiming more is a decompression bomb. No side over 16,384 px:
 * a 40 MP strip one pixel high is not a photo of anything. Frames: the contract's 2 MP and 1 MiB.
 */
export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
  /** The longest either side may be, in pixels. */
  maxSide: number;
  /** sharp's format names accepted. */
  formats: readonly string[];
}

export const PHOTO_LIMITS: ImageLimits = {
  maxBytes: 10 * 1024 * 1024,
  maxPixels: 40_000_000,
  maxSide: 16_384,
  formats: ['jpeg', 'png', 'webp'],
};

export const FRAME_LIMITS: ImageLimits = {
  maxBytes: 1024 * 1024,
  maxPixels: 2_000_000,
  maxSide: 16_384,
  formats: ['jpeg'],
};

/** What is wrong with an image of these dimensions under `limits`, or null when it is within them. */
export function dimensionProblem(width: number, height: number, limits: ImageLimits): string | null {
  if (width > limits.maxSide || height > limits.maxSide)
    return `${width}x${height} has a side over ${limits.maxSide} pixels`;
  if (width * height > limits.maxPixels) return `${width}x${height} exceeds ${limits.maxPixels / 1e6} megapixels`;
  return null;
}
