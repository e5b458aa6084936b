/**
 * Brute-force 1:N searches over a flat gallery (face n at [n*dim, (n+1)*dim)), answering the faces
 * within `line` (Euclidean) of the probe. Float32 and int8 variants of the same loop.
 */
export function searchFloat32(gallery: Float32Array, dim: number, probe: Float32Array, line: number): number[] {
  const limit = line * line;
  const hits: number[] = [];
  const count = gallery.length / dim;
  for (let n = 0, base = 0; n < count; n++, base += dim) {
    let sum = 0;
    for (let i = 0; i < dim; i++) {
      const d = gallery[base + i] - probe[i];
      sum += d * d;
    }
    if (sum <= limit) hits.push(n);
  }
  return hits;
}

/** The probe is quantised with the gallery's scale; distances compare in integer units (scale² per unit²). */
export function searchInt8(codes: Int8Array, scale: number, dim: number, probe: Float32Array, line: number): number[] {
  const q = Int8Array.from(probe, (v) => Math.max(-127, Math.min(127, Math.round(v * scale))));
  const limit = (line * scale) ** 2;
  const hits: number[] = [];
  const count = codes.length / dim;
  for (let n = 0, base = 0; n < count; n++, base += dim) {
    let sum = 0;
    for (let i = 0; i < dim; i++) {
      const d = codes[base + i] - q[i];
      sum += d * d;
    }
    if (sum <= limit) hits.push(n);
  }
  return hits;
}
