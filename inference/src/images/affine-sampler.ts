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
 */
export function sample(
  image: RgbImage,
  map: Affine,
  width: number,
  height: number,
  outside: Outside = 'black',
  antialias = true,
): Float32Array {
  const out = new Float32Array(width * height * 3);
  const shrink = Math.max(Math.hypot(map.a, map.d), Math.hypot(map.b, map.e));
  // Without antialiasing one bilinear tap at each output pixel's centre: OpenCV's INTER_LINEAR
  // resize, for models trained on crops cut that way.
  const taps = antialias ? Math.min(4, Math.max(1, Math.round(shrink))) : 1;
  const rgb = [0, 0, 0];
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let ty = 0; ty < taps; ty++) {
        for (let tx = 0; tx < taps; tx++) {
          const su = u + (tx + 0.5) / taps;
          const sv = v + (ty + 0.5) / taps;
          bilinear(
            image,
            map.a * su + map.b * sv + map.c - 0.5,
            map.d * su + map.e * sv + map.f - 0.5,
            rgb,
            outside === 'border',
          );
          r += rgb[0];
          g += rgb[1];
          b += rgb[2];
        }
      }
      const n = taps * taps;
      const at = (v * width + u) * 3;
      out[at] = r / n;
      out[at + 1] = g / n;
      out[at + 2] = b / n;
    }
  }
  return out;
}

function bilinear(image: RgbImage, xIn: number, yIn: number, out: number[], clamp: boolean): void {
  const x = clamp ? Math.min(Math.max(xIn, 0), image.width - 1) : xIn;
  const y = clamp ? Math.min(Math.max(yIn, 0), image.height - 1) : yIn;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  out[0] = out[1] = out[2] = 0;
  for (let j = 0; j < 2; j++) {
    const py = y0 + j;
    if (py < 0 || py >= image.height) continue;
    const wy = j ? fy : 1 - fy;
    for (let i = 0; i < 2; i++) {
      const px = x0 + i;
      if (px < 0 || px >= image.width) continue;
      const w = wy * (i ? fx : 1 - fx);
      const at = (py * image.width + px) * 3;
      out[0] += w * image.data[at];
      out[1] += w * image.data[at + 1];
      out[2] += w * image.data[at + 2];
    }
  }
}
