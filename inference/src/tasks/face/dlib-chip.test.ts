import { apply, sample } from '../../images/affine-sampler';
import { dlibChipAlignment, fitSimilarity } from './dlib-chip';
import type { FaceLandmarks, Point } from './face-types';

describe('the dlib face chip', () => {
  it('fits exactly the rotation, scale and shift that moved a set of points', () => {
    const from: Point[] = [
      [10, 20],
      [80, 25],
      [45, 60],
      [30, 90],
      [70, 88],
    ];
    const angle = 0.3;
    const to = from.map(([x, y]): Point => [
      2 * (Math.cos(angle) * x - Math.sin(angle) * y) + 5,
      2 * (Math.sin(angle) * x + Math.cos(angle) * y) - 7,
    ]);
    const fit = fitSimilarity(from, to);
    from.forEach((p, i) => {
      const [x, y] = apply(fit, p[0], p[1]);
      expect(x).toBeCloseTo(to[i][0], 9);
      expect(y).toBeCloseTo(to[i][1], 9);
    });
  });

  it("puts the eye corners where dlib's mean face has them, inside the 0.25 padding", () => {
    // A mesh whose points are a tilted, shifted copy of the mean face at 300 px.
    const mesh: FaceLandmarks['mesh'] = Array.from({ length: 468 }, () => [0, 0, 0]);
    const place = (index: number, x: number, y: number) => {
      mesh[index] = [400 + 300 * (x * 0.96 - y * 0.28), 100 + 300 * (x * 0.28 + y * 0.96), 0];
    };
    place(33, 0.121737, 0.216423);
    place(133, 0.334606, 0.231733);
    place(362, 0.645647, 0.231733);
    place(263, 0.858516, 0.216423);
    place(1, 0.490127, 0.515625);
    place(2, 0.490127, 0.628106);
    place(61, 0.254149, 0.780233);
    place(291, 0.726104, 0.780233);
    const toSource = dlibChipAlignment(mesh, 150);
    const [x, y] = apply(toSource, ((0.25 + 0.121737) / 1.5) * 150, ((0.25 + 0.216423) / 1.5) * 150);
    expect(x).toBeCloseTo(mesh[33][0], 6);
    expect(y).toBeCloseTo(mesh[33][1], 6);
  });

  it('repeats the border where the chip runs off the photo instead of painting it black', () => {
    const image = { data: new Uint8Array(4 * 4 * 3).fill(200), width: 4, height: 4 };
    const offEdge = { a: 1, b: 0, c: -10, d: 0, e: 1, f: -10 };
    expect(Array.from(sample(image, offEdge, 2, 2, 'border'))).toEqual(Array(12).fill(200));
    expect(Array.from(sample(image, offEdge, 2, 2))).toEqual(Array(12).fill(0));
  });
});
