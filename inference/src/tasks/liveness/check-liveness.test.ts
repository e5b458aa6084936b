import path from 'node:path';
import { faceImage, faceTestRunner, jsonLines, livenessTestdataDir, type ServiceTestRunner } from '../face/face-test-fixtures';
import type { LivenessSequence } from '../../../../models/testdata/faces/make-liveness-sequences';
import { checkLiveness } from './check-liveness';

let runner: ServiceTestRunner;
let sequences: LivenessSequence[];
beforeAll(async () => {
  runner = await faceTestRunner(['face-detection', 'face-landmarks', 'face-embedding', 'passive-liveness']);
  sequences = await jsonLines<LivenessSequence>(path.join(livenessTestdataDir, 'sequences.jsonl'));
}, 120_000);
afterAll(() => runner?.close());

const run = async (sequence: LivenessSequence) =>
  checkLiveness(runner, { frames: await Promise.all(sequence.frames.map((f) => faceImage(f, livenessTestdataDir))), challenge: sequence.challenge });

describe('liveness on synthetic sequences warped from real photos (real models in the real inference service)', () => {
  it('passes every synthetic sequence that performs its challenge, with scores and their lines', async () => {
    const live = sequences.filter((s) => s.live);
    expect(live.length).toBeGreaterThanOrEqual(9);
    for (const sequence of live) {
      const out = await run(sequence);
      expect({ name: sequence.name, verdict: out.verdict, detail: out.detail }).toEqual({ name: sequence.name, verdict: 'PASS', detail: expect.any(String) });
      expect(out.scores.map((s) => s.name)).toEqual(['steps_completed', 'same_face_similarity', 'passive_liveness']);
      expect(out.per_frame).toHaveLength(sequence.frames.length);
    }
  }, 120_000);

  it('fails wrong-order, static, no-blink, swapped-face and no-face sequences, naming the failed step', async () => {
    const negatives = sequences.filter((s) => !s.live);
    expect(new Set(negatives.map((s) => s.kind)).size).toBeGreaterThanOrEqual(5);
    for (const sequence of negatives) {
      const out = await run(sequence);
      expect({ name: sequence.name, verdict: out.verdict, reason: out.reason, step: out.failed_step }).toEqual({
        name: sequence.name, verdict: 'FAIL', reason: sequence.expected_reason, step: sequence.expected_failed_step,
      });
    }
  }, 120_000);
});
