import { boxToSize, sample, type Affine, type Outside } from './affine-sampler';
import type { RgbImage } from './rgb-image';
import { sampleReference } from '../../test/support/sample-reference';

/** A deterministic noisy image, so every tap reads a different value. */
function noiseImage(width: number, height: number, seed: number): RgbImage {
  const data = new Uint8Array(width * height * 3);
  let state = seed;
  for (let i = 0; i < data.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    data[i] = state >>> 24;
  }
  return { data, width, height };
}

const rotation = (angle: number, scale: number, cx: number, cy: number): Affine => ({
  a: scale * Math.cos(angle),
  b: -scale * Math.sin(angle),
  c: cx,
  d: scale * Math.sin(angle),
  e: scale * Math.cos(angle),
  f: cy,
});

const cases: Array<[string, Affine, number, number, Outside, boolean]> = [
  [
    'a letterbox that shrinks 5x (4x4 taps)',
    boxToSize({ x: 0, y: -40, width: 640, height: 640 }, 128, 128),
    128,
    128,
    'black',
    true,
  ],
  ['a shrink of 1.6x (2x2 taps)', { a: 1.6, b: 0, c: 3.3, d: 0, e: 1.6, f: 0 }, 200, 150, 'black', true],
  [
    'a face box enlarged past the edges, border-clamped',
    boxToSize({ x: -50, y: -30, width: 120, height: 120 }, 80, 80),
    80,
    80,
    'border',
    false,
  ],
  [
    'a box off the image, black outside',
    boxToSize({ x: 600, y: 400, width: 90, height: 90 }, 64, 64),
    64,
    64,
    'black',
    true,
  ],
  ['a rotated, shrunk eye alignment', rotation(0.3, 2.2, 100, 60), 112, 112, 'black', true],
  ['a rotated chip clamped at the border', rotation(-0.8, 0.7, -10, 300), 150, 150, 'border', true],
  ['a stretch that is wider than tall', { a: 3.1, b: 0, c: 0, d: 0, e: 0.5, f: 10 }, 96, 48, 'black', true],
];

describe('the affine sampler', () => {
  const image = noiseImage(640, 480, 7);

  it.each(cases)(
    "gives the reference sampler's floats bit for bit for %s",
    (_name, map, width, height, outside, antialias) => {
      const fast = sample(image, map, width, height, outside, antialias);
      const reference = sampleReference(image, map, width, height, outside, antialias);
      expect(fast.length).toBe(reference.length);
      expect(Buffer.from(fast.buffer).equals(Buffer.from(reference.buffer))).toBe(true);
    },
  );

  it('averages a flat image to its own value, inside and at a clamped border', () => {
    const flat: RgbImage = { data: new Uint8Array(40 * 30 * 3).fill(200), width: 40, height: 30 };
    const out = sample(flat, boxToSize({ x: -5, y: -5, width: 50, height: 40 }, 10, 8), 10, 8, 'border');
    expect(Array.from(new Set(Array.from(out, (v) => Math.round(v * 1e6) / 1e6)))).toEqual([200]);
  });

  it('leaves black what falls outside the image', () => {
    const flat: RgbImage = { data: new Uint8Array(10 * 10 * 3).fill(255), width: 10, height: 10 };
    const out = sample(flat, { a: 1, b: 0, c: 20, d: 0, e: 1, f: 0 }, 4, 4);
    expect(Math.max(...out)).toBe(0);
  });
});
