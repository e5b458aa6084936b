/** mulberry32: a tiny seeded generator, so a failing parity run can be repeated exactly. */
export function seededUniform(seed: number, count: number, low: number, high: number): Float32Array {
  let state = seed >>> 0;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = low + (((t ^ (t >>> 14)) >>> 0) / 4294967296) * (high - low);
  }
  return out;
}
