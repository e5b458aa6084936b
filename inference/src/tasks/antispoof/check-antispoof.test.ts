import sharp from 'sharp';
import { faceImage, faceTestRunner, withThresholds, type ServiceTestRunner } from '../../../test/support/face-fixtures';
import { checkAntispoof } from './check-antispoof';

let runner: ServiceTestRunner;
beforeAll(async () => {
  runner = await faceTestRunner(['face-detection', 'face-landmarks', 'antispoof', 'passive-liveness']);
}, 120_000);
afterAll(() => runner?.close());

const identities = ['astronaut', 'grace-hopper', 'bearded-man', 'messi', 'facereg-1', 'facereg-2', 'facereg-3', 'facereg-4', 'yale-subject'];

describe('antispoof on camera photos of people and attack simulations (real models in the real inference service)', () => {
  it('passes every bona fide camera photo at the configured line', async () => {
    for (const identity of identities) {
      const out = await checkAntispoof(runner, { selfie: await faceImage(`${identity}__original.jpg`) });
      expect({ identity, verdict: out.verdict }).toEqual({ identity, verdict: 'PASS' });
      expect(out.scores).toEqual([
        { name: 'real_score', value: expect.any(Number), threshold: runner.config('antispoof').thresholds!.min_real_score, comparison: 'gte' },
        { name: 'passive_liveness', value: expect.any(Number), threshold: runner.config('passive-liveness').thresholds!.min_live_score, comparison: 'gte' },
      ]);
    }
  }, 120_000);

  it('rejects the painting (the Mona Lisa) as SPOOF_DETECTED through the passive-liveness line, which the antispoof model alone lets through', async () => {
    const out = await checkAntispoof(runner, { selfie: await faceImage('antispoof/mona-lisa__painting.jpg') });
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'SPOOF_DETECTED' });
    const [real, live] = out.scores;
    expect(real.value).toBeGreaterThanOrEqual(real.threshold);
    expect(live.value).toBeLessThan(live.threshold);
  });

  it('reports SPOOF_DETECTED with the score when the score is below the line', async () => {
    const strict = withThresholds(runner, 'antispoof', { min_real_score: 0.99 });
    const out = await checkAntispoof(strict, { selfie: await faceImage('astronaut__original.jpg') });
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'SPOOF_DETECTED' });
    expect(out.scores[0].value).toBeLessThan(0.99);
  });

  it('answers FACE_NOT_DETECTED when there is no face to score', async () => {
    const blank = await sharp({ create: { width: 256, height: 256, channels: 3, background: { r: 200, g: 200, b: 200 } } }).png().toBuffer();
    const out = await checkAntispoof(runner, { selfie: new Uint8Array(blank) });
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'FACE_NOT_DETECTED', scores: [] });
  });
});
