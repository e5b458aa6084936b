/**
 * Turns an image into a model input exactly as its config's preprocessing block declares:
 * crop, stretch to width×height, channel order, (pixel·scale − mean) / std, NHWC or NCHW.
 */
import sharp from 'sharp';
import type { Preprocessing } from '../../../src/runtime/model-runner';

export interface Crop { left: number; top: number; width: number; height: number }

export async function preprocessImage(file: string, pre: Preprocessing, crop?: Crop): Promise<Float32Array> {
  let image = sharp(file).removeAlpha();
  if (crop) image = image.extract(crop);
  const pixels = await image.resize(pre.width, pre.height, { fit: 'fill' }).raw().toBuffer();
  const plane = pre.width * pre.height;
  const out = new Float32Array(plane * 3);
  const order = pre.color === 'BGR' ? [2, 1, 0] : [0, 1, 2];
  for (let p = 0; p < plane; p++) {
    for (let c = 0; c < 3; c++) {
      const value = (pixels[p * 3 + order[c]] * pre.scale - pre.mean[c]) / pre.std[c];
      out[pre.layout === 'NHWC' ? p * 3 + c : c * plane + p] = value;
    }
  }
  return out;
}

/** The value range a preprocessed pixel can take, for random inputs that look like real ones. */
export function valueRange(pre: Preprocessing): [number, number] {
  const lows = pre.mean.map((m, c) => (0 - m) / pre.std[c]);
  const highs = pre.mean.map((m, c) => (255 * pre.scale - m) / pre.std[c]);
  return [Math.min(...lows), Math.max(...highs)];
}
