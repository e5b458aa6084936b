/**
 * DB (differentiable binarisation) post-processing, as PaddleOCR does it: binarise the text
 * probability map, take each connected region, score it by its mean probability, fit a rotated
 * rectangle (here from the region's second moments) and grow it back by the unclip ratio, since
 * the network was trained to predict text kernels shrunk by that amount.
 */
import type { TextBox } from './text-box';

export interface DbThresholds {
  binarize: number;
  boxScore: number;
  unclipRatio: number;
}

const MIN_PIXELS = 6;
const MIN_SIDE = 3;

/** 8-connected regions of `mask`, as lists of pixel indices. */
function regions(mask: Uint8Array, width: number, height: number): Int32Array[] {
  const label = new Int32Array(width * height).fill(-1);
  const stack = new Int32Array(width * height);
  const out: Int32Array[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || label[start] !== -1) continue;
    const members: number[] = [];
    let top = 0;
    stack[top++] = start;
    label[start] = out.length;
    while (top > 0) {
      const p = stack[--top];
      members.push(p);
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (mask[q] && label[q] === -1) {
            label[q] = out.length;
            stack[top++] = q;
          }
        }
      }
    }
    out.push(Int32Array.from(members));
  }
  return out;
}

/** Rotated rectangle around a region, with the long side taken as the text direction (|angle| <= 45°). */
function fitRectangle(pixels: Int32Array, width: number): Omit<TextBox, 'score'> {
  let sx = 0;
  let sy = 0;
  for (const p of pixels) {
    sx += p % width;
    sy += Math.floor(p / width);
  }
  const mx = sx / pixels.length;
  const my = sy / pixels.length;
  let cxx = 0;
  let cyy = 0;
  let cxy = 0;
  for (const p of pixels) {
    const dx = (p % width) - mx;
    const dy = Math.floor(p / width) - my;
    cxx += dx * dx;
    cyy += dy * dy;
    cxy += dx * dy;
  }
  let angle = 0.5 * Math.atan2(2 * cxy, cxx - cyy);
  if (angle > Math.PI / 4) angle -= Math.PI / 2;
  if (angle < -Math.PI / 4) angle += Math.PI / 2;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  let u0 = Infinity;
  let u1 = -Infinity;
  let v0 = Infinity;
  let v1 = -Infinity;
  for (const p of pixels) {
    const dx = (p % width) - mx;
    const dy = Math.floor(p / width) - my;
    const u = dx * c + dy * s;
    const v = -dx * s + dy * c;
    u0 = Math.min(u0, u);
    u1 = Math.max(u1, u);
    v0 = Math.min(v0, v);
    v1 = Math.max(v1, v);
  }
  const um = (u0 + u1) / 2;
  const vm = (v0 + v1) / 2;
  // Pixel centres span n-1; the region covers n pixels.
  return {
    cx: mx + um * c - vm * s + 0.5,
    cy: my + um * s + vm * c + 0.5,
    width: u1 - u0 + 1,
    height: v1 - v0 + 1,
    angle,
  };
}

/**
 * Boxes in probability-map pixels. Only the top-left `validWidth` x `validHeight` of the map holds
 * the image; the rest is batching padding.
 */
export function dbBoxes(
  prob: Float32Array,
  mapWidth: number,
  validWidth: number,
  validHeight: number,
  t: DbThresholds,
): TextBox[] {
  const mask = new Uint8Array(validWidth * validHeight);
  for (let y = 0; y < validHeight; y++) {
    for (let x = 0; x < validWidth; x++) mask[y * validWidth + x] = prob[y * mapWidth + x] > t.binarize ? 1 : 0;
  }
  const boxes: TextBox[] = [];
  for (const pixels of regions(mask, validWidth, validHeight)) {
    if (pixels.length < MIN_PIXELS) continue;
    let sum = 0;
    for (const p of pixels) sum += prob[Math.floor(p / validWidth) * mapWidth + (p % validWidth)];
    const score = sum / pixels.length;
    if (score < t.boxScore) continue;
    const rect = fitRectangle(pixels, validWidth);
    if (Math.min(rect.width, rect.height) < MIN_SIDE) continue;
    const grow = (rect.width * rect.height * t.unclipRatio) / (2 * (rect.width + rect.height));
    boxes.push({ ...rect, width: rect.width + 2 * grow, height: rect.height + 2 * grow, score });
  }
  return boxes;
}
