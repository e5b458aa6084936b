/**
 * The sampler as first written: one bilinear call per tap, every coordinate computed at every tap.
 * Kept only as the reference the fast sampler must match bit for bit (affine-sampler.test.ts).
 */
import type { Affine, Outside } from '../../src/images/affine-sampler';
import type { RgbImage } from '../../src/images/rgb-image';

export function sampleReference(
  image: RgbImage,
  map: Affine,
  width: number,
  height: number,
  outside: Outside = 'black',
  antialias = true,
): Float32Array {
  const out = new Float32Array(width * height * 3);
  const shrink = Math.max(Math.hypot(map.a, map.d), Math.hypot(map.b, map.e));
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
