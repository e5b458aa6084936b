import type { Preprocessing } from '../repository/model-config';
import { normalise } from './image-to-tensor';

const pre = (color: Preprocessing['color'], layout: Preprocessing['layout']): Preprocessing => ({
  width: 3,
  height: 2,
  color,
  scale: 1 / 255,
  mean: [0.485, 0.456, 0.406],
  std: [0.229, 0.224, 0.225],
  layout,
});

// Two crops of 3 x 2 RGB pixels, values 0..35 and 100..135.
const crops = [Float32Array.from({ length: 18 }, (_, i) => i * 2), Uint8Array.from({ length: 18 }, (_, i) => 100 + i)];

/** The declared formula, written out per value. */
function expected(p: Preprocessing, crop: ArrayLike<number>, pixel: number, c: number): number {
  const order = p.color === 'BGR' ? [2, 1, 0] : [0, 1, 2];
  const value =
    p.color === 'GRAY'
      ? 0.299 * crop[pixel * 3] + 0.587 * crop[pixel * 3 + 1] + 0.114 * crop[pixel * 3 + 2]
      : crop[pixel * 3 + order[c]];
  return Math.fround((value * p.scale - p.mean[c]) / p.std[c]);
}

describe('normalising crops into a model input', () => {
  it.each([
    ['RGB', 'NCHW'],
    ['RGB', 'NHWC'],
    ['BGR', 'NCHW'],
    ['BGR', 'NHWC'],
  ] as const)('puts (pixel * scale - mean) / std of every %s pixel where %s says', (color, layout) => {
    const p = pre(color, layout);
    const tensor = normalise(crops, p);
    expect(tensor.dims).toEqual(layout === 'NCHW' ? [2, 3, 2, 3] : [2, 2, 3, 3]);
    crops.forEach((crop, n) => {
      for (let pixel = 0; pixel < 6; pixel++)
        for (let c = 0; c < 3; c++) {
          const at = layout === 'NCHW' ? n * 18 + c * 6 + pixel : n * 18 + pixel * 3 + c;
          expect(tensor.data[at]).toBe(expected(p, crop, pixel, c));
        }
    });
  });

  it('turns a GRAY input into one luma plane per crop', () => {
    const p = pre('GRAY', 'NCHW');
    const tensor = normalise(crops, p);
    expect(tensor.dims).toEqual([2, 1, 2, 3]);
    crops.forEach((crop, n) => {
      for (let pixel = 0; pixel < 6; pixel++) expect(tensor.data[n * 6 + pixel]).toBe(expected(p, crop, pixel, 0));
    });
  });

  it('refuses a crop of the wrong size, naming the size it expected', () => {
    expect(() => normalise([new Float32Array(17)], pre('RGB', 'NCHW'))).toThrow('expected 18 (3x2 RGB)');
  });
});
