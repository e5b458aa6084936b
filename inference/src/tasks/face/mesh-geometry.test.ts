import { CANONICAL_FACE } from './canonical-face';
import type { FaceLandmarks } from './face-types';
import { cylinderYawOfTurn, headPose, turnFromCylinderYaw } from './mesh-geometry';

const radians = (d: number) => (d * Math.PI) / 180;

/** MediaPipe's canonical face turned by `yaw` degrees about the vertical axis and drawn as FaceMesh would (x right, y down, z away). */
function canonicalTurned(yaw: number): FaceLandmarks['mesh'] {
  return Array.from({ length: CANONICAL_FACE.length / 3 }, (_, i) => {
    const [x, y, z] = [CANONICAL_FACE[3 * i], CANONICAL_FACE[3 * i + 1], CANONICAL_FACE[3 * i + 2]];
    const turnedX = x * Math.cos(radians(yaw)) + z * Math.sin(radians(yaw));
    const turnedZ = z * Math.cos(radians(yaw)) - x * Math.sin(radians(yaw));
    return [320 + 12 * turnedX, 240 - 12 * y, -12 * turnedZ];
  });
}

describe("the cylinder yaw and the turn it means on an average face's landmarks", () => {
  it('reads a real 30° turn as about 48° and 36° as about 70°, because the nose stands out of the cylinder', () => {
    expect(headPose(canonicalTurned(30)).yaw).toBeCloseTo(48.3, 0);
    expect(headPose(canonicalTurned(36)).yaw).toBeCloseTo(70, 0);
    expect(headPose(canonicalTurned(-36)).yaw).toBeCloseTo(-70, 0);
  });

  it.each([0, 8, 15, 22, 28, 32, 36, -12, -30, -36])('reads a %d° turn back as that turn once converted', (turn) => {
    expect(turnFromCylinderYaw(headPose(canonicalTurned(turn)).yaw)).toBeCloseTo(turn, 6);
  });

  it('reads every turn beyond 37.7° as 37.7°, where the nose passes the edge of the face', () => {
    expect(turnFromCylinderYaw(headPose(canonicalTurned(45)).yaw)).toBeCloseTo(37.7, 1);
    expect(turnFromCylinderYaw(headPose(canonicalTurned(-60)).yaw)).toBeCloseTo(-37.7, 1);
  });

  it('predicts what the cylinder reads for a turn (the conversion run backwards)', () => {
    for (const turn of [-36, -20, 0, 11, 33]) {
      expect(cylinderYawOfTurn(turn)).toBeCloseTo(headPose(canonicalTurned(turn)).yaw, 6);
    }
  });
});
