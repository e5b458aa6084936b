import { seededRandom } from '../../scripts/test-support/seeded-random';

/** `count` unit vectors of `dim` components, isotropic (normalised Gaussians), in one flat array. */
export function unitVectors(count: number, dim: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(count * dim);
  for (let n = 0; n < count; n++) {
    let norm = 0;
    for (let i = 0; i < dim; i += 2) {
      // Box-Muller: two Gaussians per pair of uniforms.
      const r = Math.sqrt(-2 * Math.log(random() || 1e-12));
      const t = 2 * Math.PI * random();
      out[n * dim + i] = r * Math.cos(t);
      if (i + 1 < dim) out[n * dim + i + 1] = r * Math.sin(t);
    }
    for (let i = 0; i < dim; i++) norm += out[n * dim + i] ** 2;
    norm = Math.sqrt(norm);
    for (let i = 0; i < dim; i++) out[n * dim + i] /= norm;
  }
  return out;
}

/**
 * A unit vector at Euclidean distance `distance` from the unit vector `probe`: rotated from it by
 * the angle whose chord is that distance, towards a random direction orthogonal to it.
 */
export function atDistance(probe: Float32Array, distance: number, random: () => number): Float32Array {
  const dim = probe.length;
  const u = unitVectors(1, dim, Math.floor(random() * 2 ** 31));
  let dot = 0;
  for (let i = 0; i < dim; i++) dot += u[i] * probe[i];
  let norm = 0;
  for (let i = 0; i < dim; i++) {
    u[i] -= dot * probe[i];
    norm += u[i] ** 2;
  }
  norm = Math.sqrt(norm);
  const theta = 2 * Math.asin(distance / 2);
  return Float32Array.from(probe, (p, i) => Math.cos(theta) * p + (Math.sin(theta) * u[i]) / norm);
}

/** The same gallery quantised to int8 with one scale for every component (unit vectors: |x| <= 1). */
export function quantise(flat: Float32Array): { codes: Int8Array; scale: number } {
  let max = 0;
  for (const v of flat) max = Math.max(max, Math.abs(v));
  const scale = 127 / max;
  // A loop, not Int8Array.from(flat, map): that builds a plain array first, too long at 1M faces.
  const codes = new Int8Array(flat.length);
  for (let i = 0; i < flat.length; i++) codes[i] = Math.round(flat[i] * scale);
  return { codes, scale };
}

export const seed = (n: number) => seededRandom(n);
