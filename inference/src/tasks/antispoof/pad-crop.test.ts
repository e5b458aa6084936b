import { padCrop, scaledBox } from './pad-crop';
import { spreadFrames } from './spread-frames';

// Expected corners computed with upstream's own CropImage._get_new_box (src/generate_patches.py).
describe("MiniFASNet's crop box, as Silent-Face-Anti-Spoofing cuts it", () => {
  it.each([
    [
      'a face whose 2.7x box overruns the sides is shifted back and its scale lowered to fit',
      480,
      640,
      { x: 178, y: 136, width: 223, height: 225 },
      2.7,
      [0, 6, 479, 490],
    ],
    [
      'a face near the top-left corner is shifted right and down, keeping the full scale',
      480,
      640,
      { x: 10, y: 20, width: 100, height: 100 },
      2.7,
      [0, 0, 270, 270],
    ],
    [
      'a face near the bottom-right corner is shifted left and up',
      480,
      640,
      { x: 400, y: 560, width: 60, height: 60 },
      4.0,
      [239, 399, 479, 639],
    ],
    [
      'a face that fills the frame gets the whole image',
      300,
      300,
      { x: 20, y: 20, width: 260, height: 260 },
      2.7,
      [0, 0, 299, 299],
    ],
    [
      'a tall box in a landscape image is limited by the height',
      640,
      480,
      { x: 200, y: 100, width: 150, height: 180 },
      4.0,
      [75, 0, 474, 479],
    ],
  ])('%s', (_what, width, height, box, scale, corners) => {
    const out = scaledBox(width, height, box, scale);
    expect([out.left, out.top, out.right, out.bottom]).toEqual(corners);
  });

  it('reports full room when the enlarged box fits, and the share of the scale kept when it does not', () => {
    expect(scaledBox(480, 640, { x: 10, y: 20, width: 100, height: 100 }, 2.7)).toMatchObject({
      appliedScale: 2.7,
      room: 1,
    });
    const tight = scaledBox(300, 300, { x: 20, y: 20, width: 260, height: 260 }, 2.7);
    expect(tight.appliedScale).toBeCloseTo(299 / 260, 10);
    expect(tight.room).toBeCloseTo(299 / 260 / 2.7, 10);
  });

  it('cuts the box inclusive of its corners and resizes it with whole-number pixels, as cv2.resize of a uint8 image', () => {
    // A 4x4 image whose pixel value is its column index: the 2.7x box around a 1x1 face at (1,1)
    // covers columns 0..3 after the shift, which shrink to 2 output pixels of (0+1)/2 and (2+3)/2, rounded.
    const data = new Uint8Array(4 * 4 * 3);
    for (let p = 0; p < 16; p++) data.fill(p % 4, p * 3, p * 3 + 3);
    const { crop, scaled } = padCrop({ data, width: 4, height: 4 }, { x: 1, y: 1, width: 1.2, height: 1.2 }, 2.7, 2);
    expect([scaled.left, scaled.right]).toEqual([0, 3]);
    expect(Array.from(crop.filter((_, i) => i % 3 === 0))).toEqual([1, 3, 1, 3]);
  });
});

describe('the liveness frames scored', () => {
  it('spreads five across a sequence, first and last included', () => {
    expect(spreadFrames([...Array(21).keys()], 5).map((f) => f.index)).toEqual([0, 5, 10, 15, 20]);
  });
  it('takes every frame of a short sequence', () => {
    expect(spreadFrames(['a', 'b', 'c'], 5)).toEqual([
      { bytes: 'a', index: 0 },
      { bytes: 'b', index: 1 },
      { bytes: 'c', index: 2 },
    ]);
  });
});
