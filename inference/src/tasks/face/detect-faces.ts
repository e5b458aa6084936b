import type { HostTensor, ModelRunner } from '../../runtime/model-runner';
import { apply, sample, type Affine } from '../../images/affine-sampler';
import { blazefaceAnchors } from './blazeface-anchors';
import type { DetectedFace, Point } from './face-types';
import { chunks } from '../batch-chunks';
import { packCrops, preprocessingOf } from '../../images/image-to-tensor';
import type { RgbImage } from '../../images/rgb-image';
import { rememberedEach } from '../remembered-work';
import { letterboxByReduction, type Letterboxed } from '../../images/reduce-image';

export const faceDetectionModel = 'face-detection';

/**
 * Finds faces with BlazeFace. Each image is letterboxed into the model's square input so faces
 * keep their proportions; boxes and keypoints are decoded against the anchor grid, filtered by
 * the configured score and overlapping detections suppressed (NMS).
 */
export function detectFaces(runner: ModelRunner, images: RgbImage[]): Promise<DetectedFace[][]> {
  return rememberedEach(
    runner,
    'faces',
    images,
    (image) => image.source,
    (missing) => detectAll(runner, missing),
  );
}

async function detectAll(runner: ModelRunner, images: RgbImage[]): Promise<DetectedFace[][]> {
  const config = runner.config(faceDetectionModel);
  const size = preprocessingOf(config).width;
  const minScore = config.thresholds?.min_score ?? 0.5;
  const iou = config.thresholds?.nms_iou ?? 0.3;
  const anchors = blazefaceAnchors(size);
  const results: DetectedFace[][] = [];
  for (const batch of chunks(images, config.max_batch_size)) {
    const inputs = await Promise.all(batch.map((image) => detectorInput(image, size)));
    const outputs = await runner.infer(
      faceDetectionModel,
      packCrops(
        config,
        inputs.map((input) => input.crop),
      ),
    );
    const rows = detectionRows(outputs, anchors.length);
    inputs.forEach(({ map }, n) => {
      const candidates = decode(rows, n, anchors, map, minScore);
      results.push(suppress(candidates, iou));
    });
  }
  return results;
}

/**
 * From this shrink on, the letterbox is made by libvips (box shrink, then a linear reduce) instead of
 * averaging 3 x 3 or 4 x 4 bilinear taps per output pixel in JavaScript: the detector's input was
 * the largest single cost of the front's sampling (benchmarks/results/front-profile.md), 3-4x
 * cheaper this way for 640-1,280 px uploads. Below it the sampler takes 2 x 2 taps and costs about
 * what libvips does; and there the two filters differ in what a screen's subpixel pattern leaves
 * of a face: at 2.13x libvips kept a face on one screen-replay still of the PAD set that the
 * sampler's blur lost, and the PAD model then let that still through (npm run eval -- --task pad).
 */
export const REDUCE_FROM = 2.5;

/** The detector's input for one image and the map from it back to the image. */
async function detectorInput(image: RgbImage, size: number): Promise<Letterboxed> {
  const map = letterbox(image, size);
  if (map.a < REDUCE_FROM) return { crop: sample(image, map, size, size), map };
  return letterboxByReduction(image, size);
}

function letterbox(image: RgbImage, size: number): Affine {
  const scale = Math.max(image.width, image.height) / size;
  return {
    a: scale,
    b: 0,
    c: (image.width - size * scale) / 2,
    d: 0,
    e: scale,
    f: (image.height - size * scale) / 2,
  };
}

/** One anchor level: `rows` anchors per image, 1 logit and 16 box values per anchor. */
interface Level {
  logits: Float32Array;
  logitStride: number;
  boxes: Float32Array;
  boxStride: number;
  boxOffset: number;
  rows: number;
}

/**
 * The converted graph answers either one [N, anchors, 17] tensor or, like the TFJS original, score
 * ([N, k, 1]) and box ([N, k, 16]) tensors per anchor level; levels are ordered finest grid first.
 */
function detectionRows(outputs: Record<string, HostTensor>, anchorCount: number): Level[] {
  const tensors = Object.values(outputs);
  const last = (t: HostTensor) => t.dims[t.dims.length - 1];
  const rowsOf = (t: HostTensor) => t.dims[t.dims.length - 2];
  const combined = tensors.find((t) => last(t) === 17 && rowsOf(t) === anchorCount);
  if (combined) {
    const data = combined.data as Float32Array;
    return [{ logits: data, logitStride: 17, boxes: data, boxStride: 17, boxOffset: 1, rows: anchorCount }];
  }
  const scores = tensors.filter((t) => last(t) === 1).sort((a, b) => rowsOf(b) - rowsOf(a));
  const boxes = tensors.filter((t) => last(t) === 16).sort((a, b) => rowsOf(b) - rowsOf(a));
  const total = scores.reduce((n, t) => n + rowsOf(t), 0);
  if (!scores.length || scores.length !== boxes.length || total !== anchorCount) {
    throw new Error(
      `face-detection outputs [${tensors.map((t) => t.dims.join('x')).join(', ')}] do not match ${anchorCount} anchors`,
    );
  }
  return scores.map((t, l) => ({
    logits: t.data as Float32Array,
    logitStride: 1,
    boxes: boxes[l].data as Float32Array,
    boxStride: 16,
    boxOffset: 0,
    rows: rowsOf(t),
  }));
}

function rowReader(levels: Level[], n: number): (i: number) => { logit: number; box: Float32Array } {
  return (i) => {
    let offset = i;
    for (const level of levels) {
      if (offset < level.rows) {
        const row = n * level.rows + offset;
        const at = row * level.boxStride + level.boxOffset;
        return { logit: level.logits[row * level.logitStride], box: level.boxes.subarray(at, at + 16) };
      }
      offset -= level.rows;
    }
    throw new Error(`anchor ${i} outside the detector's outputs`);
  };
}

function decode(
  rows: Level[],
  n: number,
  anchors: Array<[number, number]>,
  map: Affine,
  minScore: number,
): DetectedFace[] {
  const faces: DetectedFace[] = [];
  const read = rowReader(rows, n);
  anchors.forEach(([ax, ay], i) => {
    const { logit, box } = read(i);
    const score = 1 / (1 + Math.exp(-logit));
    if (score < minScore) return;
    const cx = box[0] + ax;
    const cy = box[1] + ay;
    const [x0, y0] = apply(map, cx - box[2] / 2, cy - box[3] / 2);
    const [x1, y1] = apply(map, cx + box[2] / 2, cy + box[3] / 2);
    const keypoints: Point[] = [];
    for (let k = 0; k < 6; k++) keypoints.push(apply(map, box[4 + 2 * k] + ax, box[5 + 2 * k] + ay));
    faces.push({ box: { x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, score, keypoints });
  });
  return faces;
}

function suppress(faces: DetectedFace[], iouLimit: number): DetectedFace[] {
  const kept: DetectedFace[] = [];
  for (const face of [...faces].sort((a, b) => b.score - a.score)) {
    if (kept.every((k) => overlap(k.box, face.box) <= iouLimit)) kept.push(face);
  }
  return kept;
}

function overlap(a: DetectedFace['box'], b: DetectedFace['box']): number {
  const w = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const h = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}
