import path from 'node:path';
import sharp from 'sharp';
import { faceMatchEval } from '../../../tools/eval/tasks/face-match-eval';
import {
  faceImage,
  faceTestdataDir,
  faceTestRunner,
  type ServiceTestRunner,
} from '../../../test/support/face-fixtures';
import { servedMetric } from '../face/descriptor-metric';
import { matchFaces } from './match-faces';

let runner: ServiceTestRunner;
beforeAll(async () => {
  runner = await faceTestRunner(['face-detection', 'face-landmarks', 'face-embedding']);
}, 120_000);
afterAll(() => runner?.close());

describe('face match on the project pair set (real models in the real inference service, augmented same-photo pairs)', () => {
  it('matches every same-person pair and no pair of different people at the configured line', async () => {
    const outcome = await faceMatchEval.run({
      runner,
      args: { pairs: path.join(faceTestdataDir, 'pairs.jsonl') },
      log: () => {},
    });
    const line = outcome.decision!.threshold;
    const trials = outcome.trials!;
    const { metric } = servedMetric(runner);
    const missed = trials.filter((t) => t.genuine && !(t.score !== null && metric.passes(t.score, line)));
    const falseMatches = trials.filter((t) => !t.genuine && t.score !== null && metric.passes(t.score, line));
    expect(trials.filter((t) => t.genuine).length).toBeGreaterThanOrEqual(100);
    expect(trials.filter((t) => !t.genuine).length).toBeGreaterThanOrEqual(1000);
    expect(missed.map((t) => t.id)).toEqual([]);
    expect(falseMatches.map((t) => t.id)).toEqual([]);
  }, 120_000);

  it('serves the dlib ResNet (v3) and judges it by Euclidean distance, at most the configured line', () => {
    expect(runner.config('face-embedding').version).toBe(3);
    expect(servedMetric(runner)).toMatchObject({
      metric: { name: 'euclidean_distance', comparison: 'lte' },
      matchLine: runner.config('face-embedding').thresholds!.match_distance,
    });
  });

  it('passes an augmented copy of the selfie with its distance and the line it cleared', async () => {
    const out = await matchFaces(runner, {
      document_portrait: await faceImage('astronaut__original.jpg'),
      selfie: await faceImage('astronaut__augmented-3.jpg'),
    });
    expect(out.verdict).toBe('PASS');
    expect(out.reason).toBeNull();
    expect(out.scores).toEqual([
      {
        name: 'euclidean_distance',
        value: out.similarity,
        threshold: runner.config('face-embedding').thresholds!.match_distance,
        comparison: 'lte',
      },
    ]);
    expect(out.similarity!).toBeLessThanOrEqual(out.scores[0].threshold);
    // The selfie's descriptor and the model that made it come back for the account's face search.
    const config = runner.config('face-embedding');
    expect(out.embedding_model).toEqual({ name: config.name, version: config.version, sha256: config.sha256 });
    expect(out.selfie_embedding).toHaveLength(config.outputs[0].dims[0]);
  });

  it('fails two different people with FACE_MATCH_BELOW_THRESHOLD', async () => {
    const out = await matchFaces(runner, {
      document_portrait: await faceImage('grace-hopper__original.jpg'),
      selfie: await faceImage('bearded-man__augmented-1.jpg'),
    });
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'FACE_MATCH_BELOW_THRESHOLD' });
    expect(out.similarity!).toBeGreaterThan(out.scores[0].threshold);
  });

  it('answers FACE_NOT_DETECTED when the selfie shows no face', async () => {
    const blank = await sharp({
      create: { width: 320, height: 320, channels: 3, background: { r: 90, g: 110, b: 100 } },
    })
      .jpeg()
      .toBuffer();
    const out = await matchFaces(runner, {
      document_portrait: await faceImage('astronaut__original.jpg'),
      selfie: new Uint8Array(blank),
    });
    expect(out).toMatchObject({ verdict: 'FAIL', reason: 'FACE_NOT_DETECTED', similarity: null });
    expect(out.detail).toContain('selfie');
  });
});
