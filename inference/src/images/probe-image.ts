/**
 * Reads only an image's header to refuse what must not be decoded: oversize files, unknown
 * formats and pixel bombs (a few KB claiming gigapixels). Runs in milliseconds and allocates no
 * pixel buffer, so a hostile upload costs the service almost nothing.
 */
import sharp, { type Metadata } from 'sharp';
import { InferenceError } from '../runtime/inference-error';
import { DEFAULT_IMAGE_LIMITS, dimensionProblem, type ImageLimits } from './image-limits';

export interface ImageHeader {
  format: string;
  width: number;
  height: number;
}

export async function probeImage(
  bytes: Uint8Array,
  limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
  what = 'image',
): Promise<ImageHeader> {
  if (bytes.byteLength === 0) throw new InferenceError('INVALID_ARGUMENT', `${what} is empty`);
  if (bytes.byteLength > limits.maxBytes) {
    throw new InferenceError(
      'INVALID_ARGUMENT',
      `${what} is ${bytes.byteLength} bytes; the limit is ${limits.maxBytes}`,
    );
  }
  let header: Metadata;
  try {
    // metadata() parses the header only; the pixel limit is checked below with a clearer message.
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new InferenceError('INVALID_ARGUMENT', `${what} is not a readable image`);
  }
  const { format, width, height } = header;
  if (!format || !limits.formats.includes(format)) {
    throw new InferenceError(
      'INVALID_ARGUMENT',
      `${what} format ${format ?? 'unknown'} is not accepted (${limits.formats.join(', ')})`,
    );
  }
  if (!width || !height) throw new InferenceError('INVALID_ARGUMENT', `${what} has no dimensions`);
  const problem = dimensionProblem(width, height, limits);
  if (problem) throw new InferenceError('INVALID_ARGUMENT', `${what} is ${width}x${height} pixels: ${problem}`);
  return { format, width, height };
}
