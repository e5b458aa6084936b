/**
 * mulberry32: a tiny seeded generator, so a benchmark's or test's inputs are the same on every run
 * and a failing run can be repeated exactly.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function between(random: () => number, low: number, high: number): number {
  return low + (high - low) * random();
}

/** `count` values uniform in [low, high) from `seed`, as the model parity tests feed them. */
export function seededUniform(seed: number, count: number, low: number, high: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from({ length: count }, () => between(random, low, high));
}

/** A stable seed from a string (FNV-1a), so each named item gets its own stream whatever the order. */
export function seedOf(text: string): number {
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return hash >>> 0;
}
