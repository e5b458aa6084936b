/**
 * Caps applied before any pixel is decoded. Bytes: below the gRPC request limit, so one frame
 * always fits a request. Pixels: 36 MP covers a full-resolution 36 MP camera frame; above that a
 * decode would need over 100 MB of RGB, and a small file claiming more is a decompression bomb.
 */
export interface ImageLimits {
  maxBytes: number;
  maxPixels: number;
  /** sharp's format names accepted from applicants' cameras and uploads. */
  formats: readonly string[];
}

export const DEFAULT_IMAGE_LIMITS: ImageLimits = {
  maxBytes: 15 * 1024 * 1024,
  maxPixels: 36_000_000,
  formats: ['jpeg', 'png', 'webp'],
};
