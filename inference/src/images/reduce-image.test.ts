import { apply } from './affine-sampler';
import { returnCropBuffers } from './crop-buffers';
import { letterboxByReduction, reduceImage } from './reduce-image';
import type { RgbImage } from './rgb-image';

/** A grey image with one white square, so where it lands after reduction shows the geometry. */
function squareAt(width: number, height: number, x: number, y: number, side: number): RgbImage {
  const data = new Uint8Array(width * height * 3).fill(40);
  for (let row = y; row < y + side; row++) data.fill(255, (row * width + x) * 3, (row * width + x + side) * 3);
  return { data, width, height };
}

/** The mean position of pixels brighter than mid-grey, in pixel-centre coordinates. */
function brightCentre(image: RgbImage): [number, number] {
  let sx = 0;
  let sy = 0;
  let n = 0;
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++)
      if (image.data[(y * image.width + x) * 3] > 150) {
        sx += x + 0.5;
        sy += y + 0.5;
        n++;
      }
  return [sx / n, sy / n];
}

describe('reduceImage', () => {
  it('keeps a feature where it was, scaled: pixel centres stay aligned', async () => {
    const source = squareAt(1280, 960, 600, 300, 50);
    const reduced = await reduceImage(source, 256, 192);
    expect([reduced.width, reduced.height]).toEqual([256, 192]);
    const [x, y] = brightCentre(reduced);
    // The square's centre (625, 325) at a fifth of the size.
    expect(x).toBeCloseTo(125, 0);
    expect(y).toBeCloseTo(65, 0);
  });

  it('averages detail finer than its pixels instead of aliasing it', async () => {
    // One-pixel black and white columns: any single tap would read 0 or 255.
    const width = 1000;
    const height = 600;
    const data = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) if (i % 2) data.fill(255, i * 3, i * 3 + 3);
    const reduced = await reduceImage({ data, width, height }, 250, 150);
    const values = Array.from(reduced.data);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(120);
    expect(Math.max(...values)).toBeLessThanOrEqual(135);
  });

  it('letterboxes onto black, and its map sends what the crop shows back to where it is in the image', async () => {
    const source = squareAt(1280, 720, 600, 300, 50);
    const { crop, map } = await letterboxByReduction(source, 256);
    const pixels = { data: Uint8Array.from(crop), width: 256, height: 256 };
    // 1280 x 720 fits as 256 x 144, so 56 black rows above and below.
    expect(Math.max(...pixels.data.subarray(0, 56 * 256 * 3))).toBe(0);
    expect(Math.max(...pixels.data.subarray((256 - 56) * 256 * 3))).toBe(0);
    const [x, y] = apply(map, ...brightCentre(pixels));
    // Within one crop pixel (5 image pixels) of the square's centre (625, 325).
    expect(Math.abs(x - 625)).toBeLessThan(2.5);
    expect(Math.abs(y - 325)).toBeLessThan(2.5);
    returnCropBuffers([crop]);
  });
});
