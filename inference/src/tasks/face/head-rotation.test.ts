import { CANONICAL_FACE } from './canonical-face';
import type { FaceLandmarks } from './face-types';
import { headRotation } from './head-rotation';
import { MOUTH_AND_JAW } from './mouth-and-jaw';

const radians = (d: number) => (d * Math.PI) / 180;

/** The canonical face turned (yaw, then pitch applied first, then roll in the image plane) and drawn as FaceMesh would: image x right, y down, z away. */
function meshAt(yaw: number, pitch: number, roll = 0, mouthDrop = 0): FaceLandmarks['mesh'] {
  const jaw = new Set(MOUTH_AND_JAW);
  return Array.from({ length: CANONICAL_FACE.length / 3 }, (_, i) => {
    let [x, y, z] = [CANONICAL_FACE[3 * i], CANONICAL_FACE[3 * i + 1], CANONICAL_FACE[3 * i + 2]];
    if (jaw.has(i)) y -= mouthDrop;
    [y, z] = [
      y * Math.cos(radians(pitch)) + z * Math.sin(radians(pitch)),
      z * Math.cos(radians(pitch)) - y * Math.sin(radians(pitch)),
    ];
    [x, z] = [
      x * Math.cos(radians(yaw)) + z * Math.sin(radians(yaw)),
      z * Math.cos(radians(yaw)) - x * Math.sin(radians(yaw)),
    ];
    [x, y] = [
      x * Math.cos(radians(roll)) + y * Math.sin(radians(roll)),
      y * Math.cos(radians(roll)) - x * Math.sin(radians(roll)),
    ];
    return [320 + 12 * x, 240 - 12 * y, -12 * z];
  });
}

describe('headRotation (the canonical face fitted to the landmarks in 3D)', () => {
  it.each([
    [0, 0],
    [25, 0],
    [-35, 0],
    [0, 14],
    [0, -12],
    [30, -10],
  ])('reads yaw %d° and pitch %d° back from a face turned so', (yaw, pitch) => {
    const read = headRotation(meshAt(yaw, pitch));
    expect(read.yaw).toBeCloseTo(yaw, 6);
    expect(read.pitch).toBeCloseTo(pitch, 6);
  });

  it("reads a turn to the subject's left (nose toward the image's right) as positive yaw, and looking up as positive pitch", () => {
    const turned = meshAt(20, 10);
    expect(turned[1][0]).toBeGreaterThan(meshAt(0, 0)[1][0]);
    const read = headRotation(turned);
    expect(read.yaw).toBeCloseTo(20, 6);
    expect(read.pitch).toBeCloseTo(10, 6);
  });

  it('reads a head tilted in the image plane as roll, not as yaw or pitch', () => {
    const read = headRotation(meshAt(0, 0, 15));
    expect(read.roll).toBeCloseTo(15, 6);
    expect(read.yaw).toBeCloseTo(0, 6);
    expect(read.pitch).toBeCloseTo(0, 6);
  });

  it('is not moved by the mouth opening: the lips and jaw are left out of the fit', () => {
    const read = headRotation(meshAt(18, -6, 0, 1.5));
    expect(read.yaw).toBeCloseTo(18, 6);
    expect(read.pitch).toBeCloseTo(-6, 6);
  });
});
