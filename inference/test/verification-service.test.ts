/**
 * VerificationService over gRPC on the real models: each check answers what its task function
 * answers in-process, concurrent verifications share model batches, and bad uploads are refused
 * with INVALID_ARGUMENT quickly and with bounded memory before any model runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import sharp from 'sharp';
import { ChallengeStep, Verdict, type CheckOutcome } from '../../proto/gen/bioverify/inference/v1/verification_service';
import { createInProcessModelRunner, type InProcessModelRunner } from '../src/runtime/in-process-model-runner';
import { checkAntispoof } from '../src/tasks/antispoof/check-antispoof';
import { verifyDocument } from '../src/tasks/document/verify-document';
import { matchFaces } from '../src/tasks/face-match/match-faces';
import { checkLiveness } from '../src/tasks/liveness/check-liveness';
import type { CheckOutcome as TaskOutcome } from '../src/tasks/task-contracts';
import { pngBomb } from './support/png-bomb';
import { MAX_LIVENESS_FRAMES } from '../src/grpc/verification-service-handlers';
import { startInferenceService, type InferenceService } from '../../scripts/test-support/inference-service';
import { stringContaining } from '../../scripts/test-support/typed-matchers';
import { DOCUMENT_TYPES as API_DOCUMENT_TYPES } from '../../api/src/domain/session-status';

const faces = join(__dirname, '../../.state/assets/debian/faces');
const photo = (name: string) => new Uint8Array(readFileSync(join(faces, name)));

function expectSameOutcome(remote: CheckOutcome | undefined, local: TaskOutcome): void {
  expect(remote!.verdict).toBe(local.verdict === 'PASS' ? Verdict.VERDICT_PASS : Verdict.VERDICT_FAIL);
  expect(remote!.reason).toBe(local.reason ?? '');
  expect(remote!.scores.map((s) => s.name)).toEqual(local.scores.map((s) => s.name));
  remote!.scores.forEach((s, i) => {
    expect(s.value).toBeCloseTo(local.scores[i].value, 4);
    expect(s.threshold).toBe(local.scores[i].threshold);
  });
}

describe('VerificationService over gRPC (real models)', () => {
  let service: InferenceService;
  let local: InProcessModelRunner;
  beforeAll(async () => {
    service = await startInferenceService(join(__dirname, '../../models'));
    local = await createInProcessModelRunner({
      repository: join(__dirname, '../../models'),
      models: [
        'face-detection',
        'face-landmarks',
        'face-embedding',
        'antispoof',
        'passive-liveness',
        'pad-minifasnet-v2',
        'pad-minifasnet-v1se',
        'text-detection',
        'text-recognition',
      ],
    });
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await local?.close();
  });

  it('MatchFaces passes two crops of one photo and fails two different people, as the task does in-process', async () => {
    const samePerson = await service.client.matchFaces(photo('grace_hopper.jpg'), photo('grace_hopper_512x512.jpg'));
    // The answer names the models that scored it, with the served version and checksum.
    expect(samePerson.outcome!.models.map((m) => m.name)).toContain('face-embedding');
    expect(samePerson.outcome!.models.every((m) => m.version >= 1 && /^[0-9a-f]{64}$/.test(m.sha256))).toBe(true);
    expect(samePerson.outcome!.verdict).toBe(Verdict.VERDICT_PASS);
    expectSameOutcome(
      samePerson.outcome,
      await matchFaces(local, {
        document_portrait: photo('grace_hopper.jpg'),
        selfie: photo('grace_hopper_512x512.jpg'),
      }),
    );
    const different = await service.client.matchFaces(photo('grace_hopper.jpg'), photo('astronaut.png'));
    expect(different.outcome).toMatchObject({
      verdict: Verdict.VERDICT_FAIL,
      reason: 'FACE_MATCH_BELOW_THRESHOLD',
    });
    const alone = await matchFaces(local, {
      document_portrait: photo('grace_hopper.jpg'),
      selfie: photo('astronaut.png'),
    });
    expect(different.similarity).toBeCloseTo(alone.similarity!, 4);
  });

  it('CheckAntispoof and CheckLiveness answer what the tasks answer in-process', async () => {
    expectSameOutcome(
      (await service.client.checkAntispoof(photo('astronaut.png'))).outcome,
      await checkAntispoof(local, { selfie: photo('astronaut.png') }),
    );
    const padFrames = [photo('astronaut.png'), photo('grace_hopper_512x512.jpg'), photo('astronaut.png')];
    const withFrames = await service.client.checkAntispoof(photo('astronaut.png'), undefined, padFrames);
    const withFramesAlone = await checkAntispoof(local, {
      selfie: photo('astronaut.png'),
      frames: padFrames,
    });
    expectSameOutcome(withFrames.outcome, withFramesAlone);
    expect(withFrames.outcome!.scores.map((s) => s.name)).toEqual(withFramesAlone.scores.map((s) => s.name));
    expect(withFrames.outcome!.scores.map((s) => s.name)).toContain('pad_frame_1');
    expect(withFrames.retakeReason).toBe(withFramesAlone.retake_reason ?? '');
    const frames = [photo('grace_hopper.jpg'), photo('grace_hopper.jpg')];
    const remote = await service.client.checkLiveness({
      frames: frames.map((f) => Buffer.from(f)),
      challenge: [ChallengeStep.CHALLENGE_STEP_TURN_LEFT],
    });
    const alone = await checkLiveness(local, { frames, challenge: ['TURN_LEFT'] });
    expectSameOutcome(remote.outcome, alone);
    expect(remote.failedStep).toBe(
      alone.failed_step ? ChallengeStep.CHALLENGE_STEP_TURN_LEFT : ChallengeStep.CHALLENGE_STEP_UNSPECIFIED,
    );
    expect(remote.perFrame.map((f) => f.faceFound)).toEqual(alone.per_frame.map((f) => f.face_found));
  });

  it('CheckLiveness compares the selfie it is sent with the frames, as the task does in-process', async () => {
    const frames = [photo('grace_hopper.jpg'), photo('grace_hopper.jpg')];
    const remote = await service.client.checkLiveness({
      frames: frames.map((f) => Buffer.from(f)),
      challenge: [ChallengeStep.CHALLENGE_STEP_TURN_LEFT],
      selfie: Buffer.from(photo('astronaut.png')),
    });
    const alone = await checkLiveness(local, {
      frames,
      challenge: ['TURN_LEFT'],
      selfie: photo('astronaut.png'),
    });
    expectSameOutcome(remote.outcome, alone);
    expect(remote.outcome!.scores.map((s) => s.name)).toContain('selfie_distance');
  });

  it('VerifyDocument answers what the task answers in-process', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const remote = await service.client.verifyDocument({ image: photo('grace_hopper.jpg'), now });
    const alone = await verifyDocument(local, { image: photo('grace_hopper.jpg'), now });
    expectSameOutcome(remote.outcome, alone);
    expect(remote.rawMrzLines).toEqual(alone.raw_mrz_lines);
  }, 60_000);

  it('takes every document type the API lets an applicant declare (the two services list them apart)', async () => {
    const declared = await Promise.all(
      API_DOCUMENT_TYPES.map((type) =>
        service.client.verifyDocument({ image: photo('grace_hopper.jpg'), declaredDocumentType: type }),
      ),
    );
    expect(declared.map((d) => d.outcome?.verdict)).toEqual(API_DOCUMENT_TYPES.map(() => Verdict.VERDICT_FAIL));
  }, 60_000);

  it('batches model work across concurrent verifications', async () => {
    // Six different selfies: the same one six times would be run once and shared (next test).
    const selfies = await Promise.all(
      [400, 416, 432, 448, 464, 480].map((side) =>
        sharp(photo('grace_hopper_512x512.jpg')).resize(side, side).jpeg().toBuffer(),
      ),
    );
    const before = (await service.client.modelStatistics('face-detection')).modelStats[0];
    const answers = await Promise.all(selfies.map((selfie) => service.client.checkAntispoof(selfie)));
    const after = (await service.client.modelStatistics('face-detection')).modelStats[0];
    expect(after.inferenceCount - before.inferenceCount).toBeGreaterThanOrEqual(6);
    expect(after.executionCount - before.executionCount).toBeLessThan(after.inferenceCount - before.inferenceCount);
    expect(answers.every((a) => a.outcome!.verdict === answers[0].outcome!.verdict)).toBe(true);
  });

  it('runs the face models once for frames and a selfie that several checks are sent, and answers each check as before', async () => {
    // Images no earlier test sent, so none of their rows is remembered yet.
    const frames = await Promise.all(
      [2, 4, 6].map((angle) =>
        sharp(photo('grace_hopper.jpg')).rotate(angle, { background: '#808080' }).jpeg().toBuffer(),
      ),
    );
    const selfie = await sharp(photo('grace_hopper_512x512.jpg')).resize(500, 500).jpeg().toBuffer();
    const portrait = await sharp(photo('grace_hopper.jpg')).rotate(-3, { background: '#808080' }).jpeg().toBuffer();
    const rowsOf = (stats: { batchStats: Array<{ batchSize: number; computeInfer?: { count: number } }> }) =>
      stats.batchStats.reduce((n, b) => n + b.batchSize * Number(b.computeInfer?.count ?? 0), 0);
    const rowsRun = async () =>
      Object.fromEntries(
        await Promise.all(
          ['face-detection', 'face-landmarks', 'face-embedding'].map(
            async (m) => [m, rowsOf((await service.client.modelStatistics(m)).modelStats[0])] as const,
          ),
        ),
      );
    const request = { frames, challenge: [ChallengeStep.CHALLENGE_STEP_TURN_LEFT] };
    const gate = await service.client.checkLiveness(request);
    const before = await rowsRun();
    const [withSelfie, antispoof, match] = await Promise.all([
      service.client.checkLiveness({ ...request, selfie }),
      service.client.checkAntispoof(selfie, undefined, frames),
      service.client.matchFaces(portrait, selfie),
    ]);
    const after = await rowsRun();
    // Only the selfie and the document portrait are new to the detector, FaceMesh and the embedding, each once.
    expect(Number(after['face-detection']) - Number(before['face-detection'])).toBe(2);
    expect(Number(after['face-landmarks']) - Number(before['face-landmarks'])).toBe(2);
    expect(Number(after['face-embedding']) - Number(before['face-embedding'])).toBe(2);
    expectSameOutcome(gate.outcome, await checkLiveness(local, { frames, challenge: ['TURN_LEFT'] }));
    expectSameOutcome(withSelfie.outcome, await checkLiveness(local, { frames, challenge: ['TURN_LEFT'], selfie }));
    expectSameOutcome(antispoof.outcome, await checkAntispoof(local, { selfie, frames }));
    expectSameOutcome(match.outcome, await matchFaces(local, { document_portrait: portrait, selfie }));
  });

  it('decodes each face upload once: the proof that it decodes is the decode its check then uses', async () => {
    const decodes = async () => {
      const text = await (await fetch(`http://127.0.0.1:${service.server.metricsPort}/metrics`)).text();
      const count = (outcome: string) =>
        Number(
          text.match(
            new RegExp(`^inference_image_memo_lookups_total{kind="decode",outcome="${outcome}"} (\\S+)`, 'm'),
          )?.[1] ?? 0,
        );
      return { miss: count('miss'), hit: count('hit') };
    };
    // Frames no earlier test sent, so none is remembered yet.
    const frames = await Promise.all(
      [5, 7, 9].map((angle) =>
        sharp(photo('grace_hopper.jpg')).rotate(angle, { background: '#707070' }).jpeg().toBuffer(),
      ),
    );
    const before = await decodes();
    const gate = await service.client.checkLiveness({ frames, challenge: [ChallengeStep.CHALLENGE_STEP_TURN_LEFT] });
    const after = await decodes();
    // Three decodes (the proofs), and the check's own three lookups answered by them.
    expect(after.miss - before.miss).toBe(3);
    expect(after.hit - before.hit).toBe(3);
    expectSameOutcome(gate.outcome, await checkLiveness(local, { frames, challenge: ['TURN_LEFT'] }));
  });

  it('refuses non-images, truncated files and wrong frame counts with INVALID_ARGUMENT', async () => {
    const jpeg = photo('grace_hopper.jpg');
    await expect(service.client.checkAntispoof(Buffer.from('<html>not a photo</html>'))).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
    await expect(service.client.matchFaces(jpeg, jpeg.subarray(0, jpeg.length / 2))).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: stringContaining('selfie'),
    });
    const tooMany = Array.from({ length: MAX_LIVENESS_FRAMES + 1 }, () => Buffer.from(jpeg));
    await expect(
      service.client.checkLiveness({ frames: tooMany, challenge: [ChallengeStep.CHALLENGE_STEP_BLINK] }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    await expect(
      service.client.checkLiveness({
        frames: [Buffer.from(jpeg)],
        challenge: [ChallengeStep.CHALLENGE_STEP_UNSPECIFIED],
      }),
    ).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    await expect(service.client.verifyDocument({ image: jpeg, declaredDocumentType: 'visa' })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: stringContaining('declared_document_type'),
    });
  });

  it('refuses pixel bombs with INVALID_ARGUMENT quickly and without decoding them', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    for (const bomb of [pngBomb(100_000, 100_000, 1), pngBomb(8_000, 8_000), gif]) {
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      await expect(service.client.checkAntispoof(bomb)).rejects.toMatchObject({
        code: status.INVALID_ARGUMENT,
      });
      expect(performance.now() - started).toBeLessThan(500);
      expect((process.memoryUsage().rss - rssBefore) / 1e6).toBeLessThan(64);
    }
  });
});
