import { seededRandom } from '../../../../scripts/test-support/seeded-random';
import type { Point } from '../face/face-types';
import {
  fitHomography,
  measurePlanarMotion,
  planarResidual,
  project,
  rigidResidual,
  type MotionFrame,
} from './planar-motion';

type Point3 = [number, number, number];

/** A face-sized cloud of points (mm): a flat sheet, or a head whose nose and cheeks stand out. */
function facePoints(depth: 'flat' | 'head', count = 120): Point3[] {
  const random = seededRandom(7);
  return Array.from({ length: count }, () => {
    const x = (random() - 0.5) * 140;
    const y = (random() - 0.5) * 180;
    // A head: an ellipsoid-ish front with the centre ~45 mm in front of the outline, and a nose.
    const bulge = 45 * Math.max(0, 1 - (x / 70) ** 2 - (y / 95) ** 2);
    const nose = 20 * Math.exp(-(x ** 2 + (y - 5) ** 2) / 300);
    return [x, y, depth === 'flat' ? 0 : bulge + nose];
  });
}

/** Pinhole camera 500 mm away, focal 800 px, after turning the object `yaw` degrees about the vertical. */
function view(points: Point3[], yaw: number, pitch = 0): Point[] {
  const a = (yaw * Math.PI) / 180;
  const b = (pitch * Math.PI) / 180;
  return points.map(([x, y, z]) => {
    const x1 = x * Math.cos(a) + z * Math.sin(a);
    const z1 = -x * Math.sin(a) + z * Math.cos(a);
    const y2 = y * Math.cos(b) - z1 * Math.sin(b);
    const z2 = y * Math.sin(b) + z1 * Math.cos(b);
    const depth = 500 - z2;
    return [320 + (800 * x1) / depth, 240 + (800 * y2) / depth];
  });
}

const frame = (points: Point[]): MotionFrame => ({ points, eyeDistance: 100 });

describe('planar motion', () => {
  it('recovers a known homography from its point pairs', () => {
    const h = [1.1, 0.05, 12, -0.03, 0.95, -7, 0.0004, -0.0002, 1];
    const from: Point[] = [
      [10, 20],
      [300, 40],
      [280, 260],
      [30, 240],
      [150, 130],
      [90, 200],
    ];
    const fitted = fitHomography(
      from,
      from.map((p) => project(h, p)),
    );
    fitted.forEach((v, i) => expect(v).toBeCloseTo(h[i], 6));
  });

  it('explains a flat face turned 30 degrees with one homography', () => {
    const sheet = facePoints('flat');
    expect(planarResidual(view(sheet, 0), view(sheet, 30, 8))).toBeLessThan(1e-6);
  });

  it('leaves pixels of residual for a head turned 30 degrees, which has depth', () => {
    const head = facePoints('head');
    expect(planarResidual(view(head, 0), view(head, 30))).toBeGreaterThan(2);
  });

  it('tells a turned head from a turned sheet with landmark noise of half a pixel', () => {
    const noise = seededRandom(3);
    const jitter = (points: Point[]): Point[] => points.map(([x, y]) => [x + noise() - 0.5, y + noise() - 0.5]);
    const sequence = (cloud: Point3[]) => [0, 15, 30, 15, 0, -15, -30].map((yaw) => frame(jitter(view(cloud, yaw))));
    const sheet = measurePlanarMotion(sequence(facePoints('flat')), 0.02);
    const head = measurePlanarMotion(sequence(facePoints('head')), 0.02);
    expect(sheet.framesMeasured).toBeGreaterThanOrEqual(2);
    expect(head.framesMeasured).toBeGreaterThanOrEqual(2);
    expect(head.parallax!).toBeGreaterThan(5 * sheet.parallax!);
  });

  it('measures nothing when the face only moved, turned in the image or came closer', () => {
    const head = view(facePoints('head'), 0);
    const moved = (dx: number, angle: number, scale: number): Point[] =>
      head.map(([x, y]) => [
        dx + scale * (x * Math.cos(angle) - y * Math.sin(angle)),
        scale * (x * Math.sin(angle) + y * Math.cos(angle)),
      ]);
    const still = [moved(0, 0, 1), moved(40, 0.1, 1.2), moved(-25, -0.2, 0.9)].map((p) => frame(p));
    expect(measurePlanarMotion(still, 0.02)).toEqual({
      parallax: null,
      framesMeasured: 0,
      perFrame: [null, null, null],
    });
    expect(rigidResidual(head, moved(40, 0.1, 1.2))).toBeLessThan(1e-6);
  });

  it('refuses fewer than four point pairs', () => {
    expect(() =>
      fitHomography(
        [
          [0, 0],
          [1, 0],
          [0, 1],
        ],
        [
          [0, 0],
          [1, 0],
          [0, 1],
        ],
      ),
    ).toThrow('at least 4');
  });
});
