/**
 * PaddleOCR text detection on a whole document photo. The image is scaled so its long side is the
 * config's preprocessing width (960 by default) and padded to a multiple of SHAPE_STEP on each
 * side, so requests from different callers share a handful of input shapes the batcher can stack
 * (and cuDNN benchmarks once). At 960 an MRZ character of a photographed TD1 card is still about
 * 18 px tall, well inside what the detector resolves; see the document check notes for measures.
 */
import type { InferOptions, ModelRunner } from '../../../runtime/model-runner';
import { sample } from '../../../images/affine-sampler';
import { packCrops, preprocessingOf } from '../../../images/image-to-tensor';
import type { RgbImage } from '../../../images/rgb-image';
import { dbBoxes } from './db-postprocess';
import type { TextBox } from './text-box';

export const textDetectionModel = 'text-detection';

/** Padded sides are multiples of this: 160 keeps at most six heights and six widths. */
export const SHAPE_STEP = 160;

/**
 * The long side of the reduced page the MRZ band is first looked for on
 * (`thresholds.band_long_side` in models/text-detection's config), or null where that is off (0 or
 * absent): then the whole page is detected at the preprocessing width, as always.
 */
export function bandLongSide(runner: ModelRunner): number | null {
  const side = runner.config(textDetectionModel).thresholds?.band_long_side ?? 0;
  return side > 0 ? side : null;
}

const roundUp = (n: number, step: number): number => Math.max(step, Math.ceil(n / step) * step);

/**
 * Text boxes in source pixels. `longSide` scales the page to another long side than the config's
 * (the band finder's reduced page); the boxes come back in source pixels all the same.
 */
export async function detectText(
  runner: ModelRunner,
  image: RgbImage,
  options: InferOptions = {},
  longSide?: number,
): Promise<TextBox[]> {
  const config = runner.config(textDetectionModel);
  const pre = preprocessingOf(config);
  const scale = (longSide ?? pre.width) / Math.max(image.width, image.height);
  const validWidth = Math.round(image.width * scale);
  const validHeight = Math.round(image.height * scale);
  const width = roundUp(validWidth, SHAPE_STEP);
  const height = roundUp(validHeight, SHAPE_STEP);
  // Outside the image `sample` writes black, which the detector reads as background.
  const pixels = sample(image, { a: 1 / scale, b: 0, c: 0, d: 0, e: 1 / scale, f: 0 }, width, height);
  const inputs = packCrops({ ...config, preprocessing: { ...pre, width, height } }, [pixels]);
  const outputs = await runner.infer(textDetectionModel, inputs, options);
  const prob = outputs[config.outputs[0].name].data as Float32Array;
  const t = config.thresholds ?? {};
  const boxes = dbBoxes(prob, width, validWidth, validHeight, {
    binarize: t.binarize ?? 0.3,
    boxScore: t.box_score ?? 0.6,
    unclipRatio: t.unclip_ratio ?? 1.5,
  });
  return boxes.map((b) => ({
    ...b,
    cx: b.cx / scale,
    cy: b.cy / scale,
    width: b.width / scale,
    height: b.height / scale,
  }));
}
