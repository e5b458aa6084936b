import { borrowCropBuffer } from './crop-buffers';
import type { RgbImage } from './rgb-image';

/**
 * Maps output pixel (u, v) to source (x, y): x = a*u + b*v + c, y = d*u + e*v + f. Crops, resizes,
 * letterboxing and eye alignment are all one such map, so every model input is cut in one pass.
 */
export interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

export function invert(m: Affine): Affine {
  const det = m.a * m.e - m.b * m.d;
  return {
    a: m.e / det,
    b: -m.b / det,
    c: (m.b * m.f - m.e * m.c) / det,
    d: -m.d / det,
    e: m.a / det,
    f: (m.d * m.c - m.a * m.f) / det,
  };
}

export function apply(m: Affine, x: number, y: number): [number, number] {
  return [m.a * x + m.b * y + m.c, m.d * x + m.e * y + m.f];
}

/** Output-to-source map that cuts the square (or rectangle) box and scales it to width x height. */
export function boxToSize(
  box: { x: number; y: number; width: number; height: number },
  width: number,
  height: number,
): Affine {
  return { a: box.width / width, b: 0, c: box.x, d: 0, e: box.height / height, f: box.y };
}

/**
 * What a crop shows where it runs off the source: black, or the nearest edge pixel repeated
 * (`border`), which keeps a padded face chip from a tightly cropped photo free of hard black bars.
 */
export type Outside = 'black' | 'border';

/**
 * Samples `image` through `map` into width x height RGB floats (HWC, 0..255). When the map shrinks
 * the source a lot, several taps are averaged so small model inputs are not aliased (unless
 * `antialias` is false).
 *
 * Every model input in a verification is cut here, so this loop was the front's largest CPU cost.
 * Each tap's source column and row (floor, weights, bounds) depend only on u or only on v when the
 * map has no rotation, so they are computed once per column and once per row; the sums keep the
 * reference order (`inference/test/support/sample-reference.ts`) so the floats are bit-for-bit the same.
 * The crop is lent from crop-buffers.ts (every value is written here): packCrops hands it back.
 */
export function sample(
  image: RgbImage,
  map: Affine,
  width: number,
  height: number,
  outside: Outside = 'black',
  antialias = true,
): Float32Array {
  const shrink = Math.max(Math.hypot(map.a, map.d), Math.hypot(map.b, map.e));
  // Without antialiasing one bilinear tap at each output pixel's centre: OpenCV's INTER_LINEAR
  // resize, for models trained on crops cut that way.
  const taps = antialias ? Math.min(4, Math.max(1, Math.round(shrink))) : 1;
  const clamp = outside === 'border';
  if (map.b === 0 && map.d === 0) return sampleAxisAligned(image, map, width, height, taps, clamp);
  return sampleRotated(image, map, width, height, taps, clamp);
}

/** One tap axis: the first source index and the two bilinear weights of each (output, tap) pair. */
interface TapAxis {
  first: Int32Array;
  w0: Float64Array;
  w1: Float64Array;
}

function tapAxis(count: number, taps: number, scale: number, offset: number, size: number, clamp: boolean): TapAxis {
  const axis = {
    first: new Int32Array(count * taps),
    w0: new Float64Array(count * taps),
    w1: new Float64Array(count * taps),
  };
  for (let o = 0; o < count; o++) {
    for (let t = 0; t < taps; t++) {
      const s = o + (t + 0.5) / taps;
      const raw = scale * s + offset - 0.5;
      const at = clamp ? Math.min(Math.max(raw, 0), size - 1) : raw;
      const first = Math.floor(at);
      const f = at - first;
      axis.first[o * taps + t] = first;
      axis.w0[o * taps + t] = 1 - f;
      axis.w1[o * taps + t] = f;
    }
  }
  return axis;
}

function sampleAxisAligned(
  image: RgbImage,
  map: Affine,
  width: number,
  height: number,
  taps: number,
  clamp: boolean,
): Float32Array {
  const out = borrowCropBuffer(width * height * 3);
  const { data, width: W, height: H } = image;
  // x = a*su + b*sv + c - 0.5 with b = 0 adds an exact zero; the order of the rest is kept.
  const cols = tapAxis(width, taps, map.a, map.c, W, clamp);
  const rows = tapAxis(height, taps, map.e, map.f, H, clamp);
  const n = taps * taps;
  const tap = new Float64Array(3);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let ty = 0; ty < taps; ty++) {
        const ry = v * taps + ty;
        const y0 = rows.first[ry];
        const wy0 = rows.w0[ry];
        const wy1 = rows.w1[ry];
        for (let tx = 0; tx < taps; tx++) {
          const cx = u * taps + tx;
          const x0 = cols.first[cx];
          const wx0 = cols.w0[cx];
          const wx1 = cols.w1[cx];
          if (y0 >= 0 && y0 + 1 < H && x0 >= 0 && x0 + 1 < W) {
            // All four neighbours inside: the common case, without a bounds test per neighbour.
            const at0 = (y0 * W + x0) * 3;
            const at1 = ((y0 + 1) * W + x0) * 3;
            const w00 = wy0 * wx0;
            const w01 = wy0 * wx1;
            const w10 = wy1 * wx0;
            const w11 = wy1 * wx1;
            r += w00 * data[at0] + w01 * data[at0 + 3] + w10 * data[at1] + w11 * data[at1 + 3];
            g += w00 * data[at0 + 1] + w01 * data[at0 + 4] + w10 * data[at1 + 1] + w11 * data[at1 + 4];
            b += w00 * data[at0 + 2] + w01 * data[at0 + 5] + w10 * data[at1 + 2] + w11 * data[at1 + 5];
          } else {
            edgeTap(image, x0, wx0, wx1, y0, wy0, wy1, tap);
            r += tap[0];
            g += tap[1];
            b += tap[2];
          }
        }
      }
      const at = (v * width + u) * 3;
      out[at] = r / n;
      out[at + 1] = g / n;
      out[at + 2] = b / n;
    }
  }
  return out;
}

function sampleRotated(
  image: RgbImage,
  map: Affine,
  width: number,
  height: number,
  taps: number,
  clamp: boolean,
): Float32Array {
  const out = borrowCropBuffer(width * height * 3);
  const { width: W, height: H } = image;
  const n = taps * taps;
  const tap = new Float64Array(3);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let ty = 0; ty < taps; ty++) {
        const sv = v + (ty + 0.5) / taps;
        for (let tx = 0; tx < taps; tx++) {
          const su = u + (tx + 0.5) / taps;
          const xIn = map.a * su + map.b * sv + map.c - 0.5;
          const yIn = map.d * su + map.e * sv + map.f - 0.5;
          const x = clamp ? Math.min(Math.max(xIn, 0), W - 1) : xIn;
          const y = clamp ? Math.min(Math.max(yIn, 0), H - 1) : yIn;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const fx = x - x0;
          const fy = y - y0;
          edgeTap(image, x0, 1 - fx, fx, y0, 1 - fy, fy, tap);
          r += tap[0];
          g += tap[1];
          b += tap[2];
        }
      }
      const at = (v * width + u) * 3;
      out[at] = r / n;
      out[at + 1] = g / n;
      out[at + 2] = b / n;
    }
  }
  return out;
}

/**
 * One bilinear tap into `tap` (RGB), neighbour by neighbour in row order as the reference sums it;
 * a neighbour outside the image adds nothing. The axis-aligned loop inlines the all-inside case.
 */
function edgeTap(
  image: RgbImage,
  x0: number,
  wx0: number,
  wx1: number,
  y0: number,
  wy0: number,
  wy1: number,
  tap: Float64Array,
): void {
  const { data, width: W, height: H } = image;
  let tr = 0;
  let tg = 0;
  let tb = 0;
  for (let j = 0; j < 2; j++) {
    const py = y0 + j;
    if (py < 0 || py >= H) continue;
    const wy = j ? wy1 : wy0;
    for (let i = 0; i < 2; i++) {
      const px = x0 + i;
      if (px < 0 || px >= W) continue;
      const w = wy * (i ? wx1 : wx0);
      const at = (py * W + px) * 3;
      tr += w * data[at];
      tg += w * data[at + 1];
      tb += w * data[at + 2];
    }
  }
  tap[0] = tr;
  tap[1] = tg;
  tap[2] = tb;
}
