import { faceTestRunner, type ServiceTestRunner } from '../../inference/test/support/face-fixtures';
import { analyseFaces } from '../../inference/src/tasks/face/analyse-faces';
import { headPose, mouthOpenness, turnFromCylinderYaw } from '../../inference/src/tasks/face/mesh-geometry';
import { PACED_LINES } from '../../inference/src/tasks/liveness/follow-paced';
import { decodeUpload } from '../../inference/src/tasks/remembered-work';
import { type HeadPose, SyntheticHead } from './paced-performer';

let runner: ServiceTestRunner;
beforeAll(async () => {
  runner = await faceTestRunner(['face-detection', 'face-landmarks']);
}, 120_000);
afterAll(() => runner?.close());

/** What FaceMesh reads of the head at this pose: its mouth opening (inner-lip gap over mouth width) and yaw. */
async function read(head: SyntheticHead, pose: HeadPose): Promise<{ mouth: number; yaw: number }> {
  const image = await decodeUpload(runner, new Uint8Array(await head.frame(pose)), 'frame');
  const [face] = await analyseFaces(runner, [image]);
  if (!face) throw new Error(`no face in ${head.subject}'s frame at ${JSON.stringify(pose)}`);
  return { mouth: mouthOpenness(face.landmarks.mesh), yaw: headPose(face.landmarks.mesh).yaw };
}

const subjects = ['grace-hopper', 'astronaut', 'bearded-man'];
const facing = { yaw: 0, pitch: 0, mouth: 0 };

describe('the synthetic head the paced challenge is performed with (read by the real FaceMesh)', () => {
  it.each(subjects)(
    "%s's open mouth parts the lips as FaceMesh reads them, by more than the OPEN_MOUTH line above the closed mouth",
    async (subject) => {
      const head = new SyntheticHead(true, { subject });
      const closed = await read(head, facing);
      const open = await read(head, { ...facing, mouth: 0.75 });
      expect(open.mouth - closed.mouth).toBeGreaterThan(PACED_LINES.minMouthGain);
    },
    60_000,
  );

  it('held rigid, the head shows the same closed mouth whatever the mouth is asked to do', async () => {
    const head = new SyntheticHead(false, { subject: 'bearded-man' });
    expect((await head.frame({ ...facing, mouth: 1 })).equals(await head.frame(facing))).toBe(true);
  });

  // The bearded man's turn to his left is short (his photo is turned already: paced-performer.ts, FACES).
  const turns = subjects
    .flatMap((subject) => [-32, 32].map((yaw) => [subject, yaw] as const))
    .filter(([subject, yaw]) => !(subject === 'bearded-man' && yaw > 0));
  it.each(turns)(
    '%s asked to turn %d° shows that turn, as the paced check reads it (within 6°)',
    async (subject, yaw) => {
      const shown = await read(new SyntheticHead(true, { subject }), { ...facing, yaw });
      expect(Math.abs(turnFromCylinderYaw(shown.yaw) - yaw)).toBeLessThan(6);
    },
    60_000,
  );

  it.each(subjects)('%s facing the camera reads as facing it (yaw within 8°)', async (subject) => {
    const { yaw } = await read(new SyntheticHead(true, { subject }), facing);
    expect(Math.abs(yaw)).toBeLessThan(8);
  });
});
