/**
 * What the capture API answers to captures it cannot use, on the real stack (real models, the
 * API and a worker): a selfie to be taken again, and refusals in the contract shape that store
 * nothing. The decisions themselves are capture-decision.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { CaptureClient } from './support/capture-client';
import { CaptureStack } from './support/capture-stack';
import { documentOf, livenessOf, selfieOf, TESTDATA } from './support/applicant-files';
import { capture } from './support/captured-applicant';
import { pngBomb } from '../../../inference/test/support/png-bomb';

describe('captures the API cannot use (real models)', () => {
  let stack: CaptureStack;
  beforeAll(async () => {
    stack = await CaptureStack.start();
  }, 240_000);
  afterAll(async () => stack?.stop(), 60_000);

  describe('refusals, each in the contract shape and with nothing stored', () => {
    let client: CaptureClient;
    let id: string;
    const jpeg = () => selfieOf('astronaut');
    beforeAll(async () => {
      ({ id, client } = await capture(stack, { expected_name: 'Nobody' }));
    });

    async function refused(
      call: () => Promise<{ status: number; body: { error?: { code: string } } }>,
      status: number,
      code: string,
    ) {
      const before = await stack.blobs();
      const answer = await call();
      expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status, code });
      expect(await stack.blobs()).toBe(before);
    }

    it('refuses uploads that are not acceptable images', async () => {
      await refused(
        () => client.document('front', 'passport', Buffer.from('not an image at all')),
        422,
        'VALIDATION_ERROR',
      );
      await refused(
        () => client.document('front', 'passport', pngBomb(20_000, 20_000, 8), 'image/png'),
        422,
        'VALIDATION_ERROR',
      );
      await refused(
        () => client.document('front', 'passport', Buffer.alloc(11 * 1024 * 1024, 0xff)),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      await refused(
        () => client.document('front', 'passport', jpeg(), 'application/pdf'),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      await refused(() => client.selfie(jpeg(), 'text/plain'), 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('refuses liveness uploads with too many or too few frames, or timestamps that go back', async () => {
      const frame = livenessOf('astronaut', 'synthetic-performs-challenge').frames[0];
      await refused(() => client.liveness(new Array<Buffer>(61).fill(frame)), 422, 'VALIDATION_ERROR');
      await refused(() => client.liveness(new Array<Buffer>(7).fill(frame)), 422, 'VALIDATION_ERROR');
      await refused(
        () => client.liveness(new Array<Buffer>(8).fill(frame), [0, 100, 200, 150, 300, 400, 500, 600]),
        422,
        'VALIDATION_ERROR',
      );
    });

    it('refuses writes without the token, with a wrong token, or from a second device after start', async () => {
      const stranger = new CaptureClient(stack.baseUrl, id);
      await refused(() => stranger.selfie(jpeg()), 401, 'UNAUTHORIZED');
      stranger.token = 'cap_wrongwrongwrongwrongwrongwrongwrong';
      await refused(() => stranger.selfie(jpeg()), 401, 'UNAUTHORIZED');
      const second = new CaptureClient(stack.baseUrl, id);
      await refused(() => second.start(), 409, 'CONFLICT');
      expect((await client.start(client.token)).body.capture_token).toBe(client.token);
    });

    it('answers 404 for an unknown session and 409 for a submit with captures missing', async () => {
      await refused(() => new CaptureClient(stack.baseUrl, 'ses_000000000000000000000000').start(), 404, 'NOT_FOUND');
      const missing = await client.submit();
      expect(missing.status).toBe(409);
      expect(missing.body.error?.details?.map((d) => d.field)).toEqual(['document.front', 'liveness', 'selfie']);
    });

    it('refuses every write once the session is decided', async () => {
      expect((await stack.api('DELETE', `/v1/sessions/${id}`)).status).toBe(200);
      await refused(() => client.selfie(jpeg()), 409, 'CONFLICT');
      await refused(() => client.submit(), 409, 'CONFLICT');
    });
  });

  // After the refusals: the worker deletes a decided session's images just after its decision,
  // which would move the image counts the refusals compare.
  it('asks for a selfie whose face fills the frame to be retaken (FACE_TOO_CLOSE) only while no liveness frames can decide instead, never judging it a spoof', async () => {
    const passport = documentOf('TD3', 'clean', 'astronaut');
    const { client } = await capture(stack, { expected_name: passport.label.expected.fields.name });
    await client.document('front', 'passport', passport.image);
    // The astronaut's face (about 105 px in the 512-px original) cut 1.3 times its size: the 2.7x
    // crop the PAD model needs would have less than half its room.
    const tight = await sharp(readFileSync(path.join(TESTDATA, 'faces/astronaut__original.jpg')))
      .extract({ left: 156, top: 58, width: 137, height: 137 })
      .resize(480)
      .jpeg()
      .toBuffer();
    expect((await client.selfie(tight)).body).toEqual({
      face_found: true,
      retake: true,
      reason: 'FACE_TOO_CLOSE',
      attempts_left: 2,
    });
    await client.liveness(livenessOf('astronaut', 'synthetic-performs-challenge').frames);
    expect((await client.selfie(tight)).body).toEqual({
      face_found: true,
      retake: false,
      reason: null,
      attempts_left: 1,
    });
    await client.submit();
    expect(await client.decided()).toMatchObject({ status: 'VERIFIED' });
  }, 90_000);
});
