/**
 * The served face line on independent photos, through the real gRPC service: the portrait the
 * document check reads from a synthetic passport or ID card is matched against a selfie that is
 * ANOTHER photo of the same person (years apart), and refused against other people, including
 * the nearest kind (two women in one group photo). A sample of the face-line set; `npm run eval --
 * --task face_line` scores all of it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Verdict } from '../../proto/gen/bioverify/inference/v1/verification_service';
import { faceLineDir, generateFaceLineTestdata } from '../tools/testdata/face-line/generate-face-line-testdata';
import type { FaceLinePair } from '../tools/testdata/face-line/face-line-pairs';
import { startInferenceService, type InferenceService } from '../../scripts/test-support/inference-service';

const models = join(__dirname, '../../models');
const servedLine = (
  JSON.parse(readFileSync(join(models, 'face-embedding/3/config.json'), 'utf8')) as {
    thresholds: { match_distance: number };
  }
).thresholds.match_distance;
const bytes = (name: string): Buffer => readFileSync(join(faceLineDir, name));

describe('the face line on a document portrait against an independent selfie (real service)', () => {
  let service: InferenceService;
  let pairs: FaceLinePair[];

  const portraits = new Map<string, Promise<Uint8Array>>();

  /**
   * The portrait as the document check crops it from the page, read once per document. The OCR in
   * a document read can take many seconds on a loaded CPU, so the call gets a generous deadline:
   * this test is about the face line, not the read's speed (benchmarks/ measures that).
   */
  function portraitOf(document: string): Promise<Uint8Array> {
    if (!portraits.has(document)) {
      portraits.set(
        document,
        service.client
          .verifyDocument({ image: bytes(document), now: new Date('2026-11-01T00:00:00Z') }, 150_000)
          .then((read) => {
            if (read.portraitJpeg.length === 0) throw new Error(`${document}: the document check found no portrait`);
            return read.portraitJpeg;
          }),
      );
    }
    return portraits.get(document)!;
  }

  async function match(pair: FaceLinePair): Promise<{ verdict: Verdict; distance: number; threshold: number }> {
    const answer = await service.client.matchFaces(await portraitOf(pair.document), bytes(pair.selfie), 60_000);
    const score = answer.outcome!.scores.find((s) => s.name === 'euclidean_distance')!;
    return { verdict: answer.outcome!.verdict, distance: score.value, threshold: score.threshold };
  }

  beforeAll(async () => {
    pairs = await generateFaceLineTestdata();
    service = await startInferenceService(models);
  }, 180_000);
  afterAll(async () => service?.stop());

  /** Passports only keep it quick (a document read runs OCR); the eval scores the ID cards too. */
  const sampled = (p: FaceLinePair): boolean => p.document.endsWith('__passport.jpg');

  it('matches the portrait read from each Obama passport with his selfies from other years', async () => {
    const genuine = pairs.filter((p) => p.same && sampled(p));
    expect(genuine.length).toBe(6);
    for (const pair of genuine) {
      const result = await match(pair);
      expect({
        pair: `${pair.document} | ${pair.selfie}`,
        verdict: result.verdict,
        threshold: result.threshold,
      }).toEqual({
        pair: `${pair.document} | ${pair.selfie}`,
        verdict: Verdict.VERDICT_PASS,
        threshold: servedLine,
      });
    }
  }, 300_000);

  it('refuses other people, from Obama against Biden to two women standing side by side in one photo', async () => {
    const sample = pairs.filter(
      (p) =>
        !p.same &&
        sampled(p) &&
        ((p.identities[0] === 'obama' && ['biden', 'face-api-s6-p1'].includes(p.identities[1])) ||
          (p.identities[0] === 'face-api-s6-p3' && p.identities[1] === 'face-api-s6-p1')),
    );
    expect(sample.length).toBeGreaterThanOrEqual(7);
    for (const pair of sample) {
      const result = await match(pair);
      expect({ pair: `${pair.document} | ${pair.selfie}`, verdict: result.verdict }).toEqual({
        pair: `${pair.document} | ${pair.selfie}`,
        verdict: Verdict.VERDICT_FAIL,
      });
      expect(result.distance).toBeGreaterThan(servedLine);
    }
  }, 300_000);
});
