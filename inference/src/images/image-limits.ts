/**
 * Caps applied before any pixel is decoded: the photo limits the API also enforces at upload
 * (client/image-limits.ts, their one home), so an image the API accepted is never refused here.
 */
export { type ImageLimits, PHOTO_LIMITS as DEFAULT_IMAGE_LIMITS, dimensionProblem } from '../client/image-limits';
