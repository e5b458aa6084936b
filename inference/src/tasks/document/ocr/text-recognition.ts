/**
 * PaddleOCR recognition of detected lines. Each rotated box is cut straight from the full-resolution
 * photo, scaled to the model's 48-pixel height and padded on the right to the next width bucket,
 * so lines of similar length from any request share an input shape and can be batched.
 */
import type { InferOptions, ModelRunner } from '../../../runtime/model-runner';
import { sample, type Affine } from '../../../images/affine-sampler';
import { selectInPlace } from './order-statistic';
import { chunks } from '../../batch-chunks';
import { packCrops, preprocessingOf } from '../../../images/image-to-tensor';
import type { RgbImage } from '../../../images/rgb-image';
import type { DecodedLine } from './ctc-decode';
import { charsetFor } from './recognition-charset';
import { decodeBatch, recognitionOutputsOf } from './recognition-outputs';
import type { TextBox } from './text-box';

export const textRecognitionModel = 'text-recognition';

/** Input widths; a 44-character MRZ line needs about 1,100 px at height 48. */
export const WIDTH_BUCKETS = [160, 320, 480, 640, 960, 1280, 1600];

export interface RecognizedLine extends DecodedLine {
  box: TextBox;
}

/**
 * Lines are cut a little tighter than DB's unclipped box. On MRZ rows of the synthetic set, the
 * share of rows read exactly was 40/48 at the full box height, 42/48 at 0.9, 40/48 at 0.8.
 */
const CROP_HEIGHT = 0.9;

/**
 * Output pixel (u, v) of a width x height crop to source pixels, along the box's own axes, the box's
 * height taken `heightShare` times (the MRZ cell reader takes it whole plus a margin).
 */
export function boxMap(box: TextBox, width: number, height: number, heightShare = CROP_HEIGHT): Affine {
  const c = Math.cos(box.angle);
  const s = Math.sin(box.angle);
  const boxHeight = box.height * heightShare;
  const kx = box.width / width;
  const ky = boxHeight / height;
  return {
    a: c * kx,
    b: -s * ky,
    c: box.cx - (c * box.width - s * boxHeight) / 2,
    d: s * kx,
    e: c * ky,
    f: box.cy - (s * box.width + c * boxHeight) / 2,
  };
}

/**
 * Grey levels stretched so the darkest 2 % of the crop is black and the lightest 2 % white, then
 * mid-tones lightened (gamma 0.35), which thins the strokes: faint security print behind the text
 * fades and every crop reaches the model alike. Exact raw reads of synthetic MRZ rows (72 rows):
 * 48 as cut, 52 stretched, 59 stretched with gamma 0.35 (0.5: 57, 0.25: 59).
 */
const GAMMA = 0.35;

function normaliseContrast(rgb: Float32Array): void {
  const n = rgb.length / 3;
  const grey = new Float32Array(n);
  for (let i = 0; i < n; i++) grey[i] = 0.299 * rgb[3 * i] + 0.587 * rgb[3 * i + 1] + 0.114 * rgb[3 * i + 2];
  const levels = Float32Array.from(grey);
  const low = selectInPlace(levels, Math.floor(0.02 * n));
  // After the first selection everything from the 2 % index on is at least `low`.
  const span = Math.max(1, selectInPlace(levels, Math.floor(0.98 * n), Math.floor(0.02 * n)) - low);
  for (let i = 0; i < n; i++) {
    const level = Math.min(1, Math.max(0, (grey[i] - low) / span));
    rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = 255 * Math.pow(level, GAMMA);
  }
}

/** The crop scaled to the model height, padded with mid-grey (0 after normalisation) to its bucket. */
function lineCrop(image: RgbImage, box: TextBox, height: number): { pixels: Float32Array; bucket: number } {
  const maxWidth = WIDTH_BUCKETS[WIDTH_BUCKETS.length - 1];
  const width = Math.min(maxWidth, Math.max(8, Math.ceil((height * box.width) / (box.height * CROP_HEIGHT))));
  const bucket = WIDTH_BUCKETS.find((b) => b >= width) ?? maxWidth;
  const cut = sample(image, boxMap(box, width, height), width, height);
  normaliseContrast(cut);
  const pixels = new Float32Array(bucket * height * 3).fill(127.5);
  for (let y = 0; y < height; y++) pixels.set(cut.subarray(y * width * 3, (y + 1) * width * 3), y * bucket * 3);
  return { pixels, bucket };
}

export async function recognizeLines(
  runner: ModelRunner,
  image: RgbImage,
  boxes: TextBox[],
  options: InferOptions = {},
): Promise<RecognizedLine[]> {
  const config = runner.config(textRecognitionModel);
  const pre = preprocessingOf(config);
  const charset = charsetFor(config);
  const form = recognitionOutputsOf(config);
  const crops = boxes.map((box) => ({ box, ...lineCrop(image, box, pre.height) }));
  const results = new Array<RecognizedLine>(boxes.length);
  const byBucket = new Map<number, number[]>();
  crops.forEach((c, i) => byBucket.set(c.bucket, [...(byBucket.get(c.bucket) ?? []), i]));
  const calls: Array<Promise<void>> = [];
  for (const [bucket, indices] of byBucket) {
    for (const group of chunks(indices, config.max_batch_size)) {
      const inputs = packCrops(
        { ...config, preprocessing: { ...pre, width: bucket } },
        group.map((i) => crops[i].pixels),
      );
      calls.push(
        runner.infer(textRecognitionModel, inputs, options).then((outputs) => {
          const lines = decodeBatch(form, outputs, group.length, charset);
          group.forEach((index, n) => {
            results[index] = { box: boxes[index], ...lines[n] };
          });
        }),
      );
    }
  }
  await Promise.all(calls);
  return results;
}
