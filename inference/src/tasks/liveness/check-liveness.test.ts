import path from 'node:path';
import {
  faceImage,
  faceTestRunner,
  jsonLines,
  livenessTestdataDir,
  withThresholds,
  type ServiceTestRunner,
} from '../../../test/support/face-fixtures';
import type { LivenessSequence } from '../../../tools/testdata/faces/make-liveness-sequences';
import { checkLiveness } from './check-liveness';
import { anyOf } from '../../../../scripts/test-support/typed-matchers';

let runner: ServiceTestRunner;
let sequences: LivenessSequence[];
beforeAll(async () => {
  runner = await faceTestRunner(['face-detection', 'face-landmarks', 'face-embedding', 'passive-liveness']);
  sequences = await jsonLines<LivenessSequence>(path.join(livenessTestdataDir, 'sequences.jsonl'));
}, 120_000);
afterAll(() => runner?.close());

const run = async (sequence: LivenessSequence, selfie?: Uint8Array) =>
  checkLiveness(runner, {
    frames: await Promise.all(sequence.frames.map((f) => faceImage(f, livenessTestdataDir))),
    challenge: sequence.challenge,
    ...(selfie ? { selfie } : {}),
  });
const named = (name: string) => sequences.find((s) => s.name === name)!;

/**
 * Each variant (the part of the name after the identity) once, the identity rotating from one
 * variant to the next, so every kind of sequence and every face is covered in a third of the time;
 * `npm run eval -- --task liveness` runs all of them.
 */
function oneOfEachVariant(of: LivenessSequence[]): LivenessSequence[] {
  const identities = [...new Set(of.map((s) => s.name.split('__')[0]))];
  const variants = [...new Set(of.map((s) => s.name.split('__')[1]))];
  return variants.map(
    (variant, k) =>
      of.find((s) => s.name === `${identities[k % identities.length]}__${variant}`) ??
      of.find((s) => s.name.endsWith(`__${variant}`))!,
  );
}

describe('liveness on synthetic sequences warped from real photos (real models in the real inference service)', () => {
  it('passes each kind of synthetic sequence that performs its challenge (identities rotating), with scores and their lines', async () => {
    const live = oneOfEachVariant(sequences.filter((s) => s.live));
    expect(live.map((s) => s.name.split('__')[1]).sort()).toEqual([
      'synthetic-blink-right-left',
      'synthetic-left-right-blink',
      'synthetic-right-left-blink-still-turned',
      'synthetic-up-left-down',
    ]);
    for (const sequence of live) {
      const out = await run(sequence);
      expect({ name: sequence.name, verdict: out.verdict, detail: out.detail }).toEqual({
        name: sequence.name,
        verdict: 'PASS',
        detail: anyOf(String),
      });
      expect(out.scores.map((s) => s.name)).toEqual([
        'steps_completed',
        'same_face_distance',
        'passive_liveness',
        ...(sequence.challenge.some((s) => s !== 'BLINK') ? ['planar_parallax'] : []),
      ]);
      expect(out.per_frame).toHaveLength(sequence.frames.length);
    }
  }, 240_000);

  it('fails wrong-order, static, no-blink, swapped-face, no-face and talking-drift sequences (one of each), naming the failed step', async () => {
    const negatives = oneOfEachVariant(sequences.filter((s) => !s.live));
    expect(new Set(negatives.map((s) => s.kind))).toEqual(
      new Set([
        'synthetic-wrong-order',
        'synthetic-static',
        'synthetic-no-blink',
        'synthetic-face-swapped-mid-sequence',
        'synthetic-no-face',
        'synthetic-talking-drift',
        'synthetic-talking-drift-then-blink',
      ]),
    );
    for (const sequence of negatives) {
      const out = await run(sequence);
      expect({
        name: sequence.name,
        verdict: out.verdict,
        reason: out.reason,
        step: out.failed_step,
      }).toEqual({
        name: sequence.name,
        verdict: 'FAIL',
        reason: sequence.expected_reason,
        step: sequence.expected_failed_step,
      });
    }
  }, 240_000);

  it('passes when the selfie shows the person who performed the challenge, reporting the selfie distance and its line', async () => {
    const out = await run(
      named('astronaut__synthetic-left-right-blink'),
      await faceImage('astronaut__augmented-2.jpg'),
    );
    expect(out.verdict).toBe('PASS');
    const selfie = out.scores.find((s) => s.name === 'selfie_distance');
    expect(selfie).toEqual({
      name: 'selfie_distance',
      value: anyOf(Number),
      threshold: runner.config('face-embedding').thresholds!.match_distance,
      comparison: 'lte',
    });
    expect(selfie!.value).toBeLessThanOrEqual(selfie!.threshold);
  }, 60_000);

  it("fails with LIVENESS_FAILED when another person's photo is handed in as the selfie after the challenge", async () => {
    const out = await run(
      named('astronaut__synthetic-left-right-blink'),
      await faceImage('bearded-man__augmented-1.jpg'),
    );
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'LIVENESS_FAILED', failed_step: null });
    expect(out.detail).toContain('selfie');
    const selfie = out.scores.find((s) => s.name === 'selfie_distance')!;
    expect(selfie.value).toBeGreaterThan(selfie.threshold);
  }, 60_000);

  it('fails as SPOOF_DETECTED, with the parallax and its line, when the turns show less parallax than the line asks', async () => {
    const sequence = named('bearded-man__synthetic-left-right-blink');
    const frames = await Promise.all(sequence.frames.map((f) => faceImage(f, livenessTestdataDir)));
    const strict = withThresholds(runner, 'face-landmarks', { min_planar_parallax: 0.5 });
    const out = await checkLiveness(strict, { frames, challenge: sequence.challenge });
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'SPOOF_DETECTED', failed_step: null });
    expect(out.detail).toContain('flat picture');
    const parallax = out.scores.find((s) => s.name === 'planar_parallax')!;
    expect(parallax).toEqual({
      name: 'planar_parallax',
      value: anyOf(Number),
      threshold: 0.5,
      comparison: 'gte',
    });
    expect(parallax.value).toBeGreaterThanOrEqual(runner.config('face-landmarks').thresholds!.min_planar_parallax);
  }, 60_000);
});
