/**
 * Turns an image into a model input exactly as its config's preprocessing block declares:
 * crop, stretch to width×height, channel order, (pixel·scale − mean) / std, NHWC or NCHW.
 */
import sharp from 'sharp';
import { normalise } from '../../../src/images/image-to-tensor';
import type { Preprocessing } from '../../../src/repository/model-config';

export interface Crop {
  left: number;
  top: number;
  width: number;
  height: number;
}

export async function preprocessImage(file: string, pre: Preprocessing, crop?: Crop): Promise<Float32Array> {
  let image = sharp(file).removeAlpha();
  if (crop) image = image.extract(crop);
  const pixels = await image.resize(pre.width, pre.height, { fit: 'fill' }).raw().toBuffer();
  // The service's own normalisation, so the parity tests feed exactly what the tasks feed.
  return normalise([pixels], pre).data as Float32Array;
}

/** The value range a preprocessed pixel can take, for random inputs that look like real ones. */
export function valueRange(pre: Preprocessing): [number, number] {
  const lows = pre.mean.map((m, c) => (0 - m) / pre.std[c]);
  const highs = pre.mean.map((m, c) => (255 * pre.scale - m) / pre.std[c]);
  return [Math.min(...lows), Math.max(...highs)];
}
