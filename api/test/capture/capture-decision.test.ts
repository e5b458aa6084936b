/**
 * An applicant's photos decide the session, on the real stack (FerretDB, Redis, the inference
 * service on the real models, the API and a worker process) over HTTP. The applicants are
 * synthetic documents printed with real portraits, augmented selfies of the same photos and
 * synthetic head-motion sequences (api/test/capture/support/applicant-files.ts).
 */
import { CaptureClient } from './support/capture-client';
import { CaptureStack } from './support/capture-stack';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { cardSides, documentOf, livenessOf, selfieOf, TESTDATA } from './support/applicant-files';
import { pngBomb } from '../../../inference/test/support/png-bomb';
import { WatchlistRepository } from '../../src/data-access/watchlist.repository';
import { issueAccount } from '../../../scripts/test-support/account-bootstrap';

const PINNED = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'];

async function capture(stack: CaptureStack, body: Record<string, unknown>, apiKey?: string) {
  const id = await stack.session({ sandbox: { liveness_challenge: PINNED }, ...body }, apiKey);
  const client = new CaptureClient(stack.baseUrl, id);
  const started = await client.start();
  expect(started.status).toBe(200);
  return { id, client, started };
}

describe('a captured applicant decides the session (synthetic documents, real models)', () => {
  let stack: CaptureStack;
  beforeAll(async () => {
    stack = await CaptureStack.start();
  }, 240_000);
  afterAll(async () => stack?.stop(), 60_000);

  it('verifies a passport holder who performs the challenge, with the webhook, credential and report to show for it', async () => {
    const passport = documentOf('TD3', 'clean', 'astronaut');
    const fields = passport.label.expected.fields;
    const { id, client, started } = await capture(stack, {
      expected_name: fields.name.toLowerCase(),
      expected_dob: fields.birth_date,
    });
    expect(started.body.challenge).toEqual(PINNED);
    expect(started.body.document_types).toEqual(['passport', 'id_card', 'driving_licence', 'residence_permit']);

    const front = await client.document('front', 'passport', passport.image);
    expect(front.body).toEqual({
      side: 'front',
      readable: true,
      reason: null,
      retake: false,
      attempts_left: 2,
      next: 'liveness',
    });
    expect(JSON.stringify(front.body)).not.toContain(fields.birth_date);
    const live = await client.liveness(livenessOf('astronaut', 'synthetic-performs-challenge').frames);
    expect(live.body).toMatchObject({ retake: false, attempts_left: 2 });
    expect(live.body.face_found_ratio).toBeGreaterThanOrEqual(0.8);
    expect((await client.selfie(selfieOf('astronaut'))).body).toEqual({
      face_found: true,
      retake: false,
      reason: null,
      attempts_left: 2,
    });
    expect(await client.submit()).toEqual({
      status: 202,
      body: { status: 'IN_PROGRESS', decision: 'pending' },
    });

    const done = await client.decided();
    expect(done.decision).toBe('done');
    expect(done.status).toBe('VERIFIED');
    expect(done.redirect_url).toBe(`https://example.com/done?session_id=${id}&status=VERIFIED`);
    const result = await stack.api('GET', `/v1/sessions/${id}/result`);
    expect(result.body).toMatchObject({
      status: 'VERIFIED',
      failure_reason: null,
      checks: { document: 'PASS', liveness: 'PASS', antispoof: 'PASS', face_match: 'PASS' },
      person: {
        name: fields.name,
        dob: fields.birth_date,
        document_type: 'passport',
        document_country: fields.document_country,
      },
    });
    expect(result.body.confidence).toBeGreaterThanOrEqual(0.5);
    const credential = await fetch(`${stack.baseUrl}/v1/credentials/${result.body.credential_token}`).then((r) =>
      r.json(),
    );
    expect(credential).toMatchObject({ valid: true, status: 'VERIFIED', name: fields.name });

    const report = await stack.api('GET', `/v1/sessions/${id}/report`);
    expect(report.status).toBe(200);
    expect(report.body.document).toMatchObject({
      format: 'TD3',
      type: 'passport',
      country: fields.document_country,
    });
    const faceMatch = report.body.checks.face_match;
    expect(faceMatch.scores[0]).toMatchObject({
      name: expect.any(String),
      threshold: expect.any(Number),
      comparison: expect.stringMatching(/gte|lte/),
    });
    expect(faceMatch.model).toMatchObject({
      name: 'face-embedding',
      version: expect.any(String),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(JSON.stringify(report.body)).not.toContain(fields.birth_date);

    const until = Date.now() + 20_000;
    while (!stack.stack.receiver.copies.some((c) => c.sessionId === id) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    const copy = stack.stack.receiver.copies.find((c) => c.sessionId === id);
    expect(copy).toMatchObject({ status: 'VERIFIED', bioSignatureValid: true, standardSignatureValid: true });
    expect(copy?.body).toBe(JSON.stringify(result.body));
  }, 120_000);

  it('verifies an ID card whose machine-readable zone is on the back', async () => {
    // Not grace-hopper: her portrait is a scan of a printed photograph, which the PAD model rightly
    // scores as a recapture (real 0.003 on her augmented selfie), so she cannot be a live applicant.
    const card = documentOf('TD1', 'clean', 'bearded-man');
    const { front, back } = await cardSides(card.image);
    const { client } = await capture(stack, { expected_name: card.label.expected.fields.name });
    expect((await client.document('front', 'id_card', front)).body).toMatchObject({
      readable: true,
      retake: false,
      next: 'back',
    });
    expect((await client.document('back', 'id_card', back)).body).toMatchObject({
      readable: true,
      reason: null,
      next: 'liveness',
    });
    await client.liveness(livenessOf('bearded-man', 'synthetic-performs-challenge').frames);
    await client.selfie(selfieOf('bearded-man'));
    await client.submit();
    expect(await client.decided()).toMatchObject({ status: 'VERIFIED' });
    const result = await stack.api('GET', `/v1/sessions/${client.sessionId}/result`);
    expect(result.body.person).toMatchObject({
      name: card.label.expected.fields.name,
      dob: card.label.expected.fields.birth_date,
      document_type: 'id_card',
    });
  }, 90_000);

  it('asks for a selfie whose face fills the frame to be retaken as FACE_TOO_CLOSE (move back), never judging it a spoof, then verifies the retake', async () => {
    const passport = documentOf('TD3', 'clean', 'astronaut');
    const { client } = await capture(stack, { expected_name: passport.label.expected.fields.name });
    await client.document('front', 'passport', passport.image);
    await client.liveness(livenessOf('astronaut', 'synthetic-performs-challenge').frames);
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
    expect((await client.selfie(selfieOf('astronaut'))).body).toEqual({
      face_found: true,
      retake: false,
      reason: null,
      attempts_left: 1,
    });
    await client.submit();
    expect(await client.decided()).toMatchObject({ status: 'VERIFIED' });
  }, 90_000);

  async function decide(
    identity: string,
    options: { selfieOf?: string; expectedName?: string; liveness?: string; performer?: string } = {},
  ) {
    const passport = documentOf('TD3', 'clean', identity);
    const { id, client } = await capture(stack, {
      expected_name: options.expectedName ?? passport.label.expected.fields.name,
    });
    await client.document('front', 'passport', passport.image);
    await client.liveness(
      livenessOf(options.performer ?? options.selfieOf ?? identity, options.liveness ?? 'synthetic-performs-challenge')
        .frames,
    );
    await client.selfie(selfieOf(options.selfieOf ?? identity));
    await client.submit();
    await client.decided();
    return (await stack.api('GET', `/v1/sessions/${id}/result`)).body;
  }

  it("fails someone else's selfie with that document as FACE_MATCH_BELOW_THRESHOLD", async () => {
    const result = await decide('astronaut', { selfieOf: 'bearded-man' });
    expect(result).toMatchObject({
      status: 'FAILED',
      failure_reason: 'FACE_MATCH_BELOW_THRESHOLD',
      checks: { face_match: 'FAIL', document: 'PASS' },
    });
    expect(result.confidence).toBeLessThan(0.5);
  }, 90_000);

  it('fails a document of another person than expected as NAME_MISMATCH, on the document check', async () => {
    const result = await decide('bearded-man', { expectedName: 'Jeanne Dupont' });
    expect(result).toMatchObject({
      status: 'FAILED',
      failure_reason: 'NAME_MISMATCH',
      checks: { document: 'FAIL' },
    });
  }, 90_000);

  it('fails frames that do not perform the challenge as LIVENESS_FAILED', async () => {
    const result = await decide('grace-hopper', { liveness: 'synthetic-static' });
    expect(result).toMatchObject({
      status: 'FAILED',
      failure_reason: 'LIVENESS_FAILED',
      checks: { liveness: 'FAIL' },
    });
  }, 90_000);

  it('fails a selfie of someone other than the person who performed the challenge as LIVENESS_FAILED', async () => {
    const result = await decide('bearded-man', { performer: 'astronaut' });
    expect(result).toMatchObject({
      status: 'FAILED',
      failure_reason: 'LIVENESS_FAILED',
      checks: { liveness: 'FAIL', face_match: 'PASS' },
    });
    const report = (await stack.api('GET', `/v1/sessions/${result.session_id}/report`)).body;
    expect(report.checks.liveness.scores.map((s: { name: string }) => s.name)).toContain('selfie_distance');
  }, 90_000);

  it('screens the document holder for an account with the watchlist add-on: a listed name and DOB fail the session as SANCTIONS_MATCH', async () => {
    const { store, env } = stack.stack;
    const screened = await issueAccount(store, env, { name: 'Screened', watchlist: true });
    const passport = documentOf('TD3', 'clean', 'bearded-man');
    const fields = passport.label.expected.fields;
    await new WatchlistRepository(store).replaceList(
      'test-list',
      'ftm-jsonl',
      [{ id: 'listed-1', names: [fields.name], dobs: [fields.birth_date], nationalities: [] }],
      new Date(),
    );
    const { id, client } = await capture(stack, { expected_name: fields.name }, screened.sandbox_api_key);
    await client.document('front', 'passport', passport.image);
    await client.liveness(livenessOf('bearded-man', 'synthetic-performs-challenge').frames);
    await client.selfie(selfieOf('bearded-man'));
    await client.submit();
    await client.decided();
    const result = (await stack.api('GET', `/v1/sessions/${id}/result`, screened.sandbox_api_key)).body;
    expect(result).toMatchObject({
      status: 'FAILED',
      failure_reason: 'SANCTIONS_MATCH',
      checks: { document: 'PASS', sanctions: 'MATCH' },
    });
    const report = (await stack.api('GET', `/v1/sessions/${id}/report`, screened.sandbox_api_key)).body;
    expect(report.checks.sanctions).toMatchObject({
      verdict: 'MATCH',
      match: { list: 'test-list', entry_id: 'listed-1' },
      lists: [{ name: 'test-list' }],
    });
  }, 90_000);

  it('asks for a blurred MRZ to be retaken twice, then goes on and fails as DOCUMENT_UNREADABLE', async () => {
    const blurred = documentOf('TD3', 'blurred-mrz', 'astronaut');
    const { id, client } = await capture(stack, { expected_name: 'Nobody Known' });
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push((await client.document('front', 'passport', blurred.image)).body);
    expect(answers.map((a) => [a.readable, a.reason, a.attempts_left, a.retake])).toEqual([
      [false, 'DOCUMENT_UNREADABLE', 2, true],
      [false, 'DOCUMENT_UNREADABLE', 1, true],
      [false, 'DOCUMENT_UNREADABLE', 0, false],
    ]);
    expect(answers[2]?.next).toBe('liveness');
    expect((await client.document('front', 'passport', blurred.image)).status).toBe(409);
    await client.liveness(livenessOf('astronaut', 'synthetic-performs-challenge').frames);
    await client.selfie(selfieOf('astronaut'));
    await client.submit();
    await client.decided();
    const result = (await stack.api('GET', `/v1/sessions/${id}/result`)).body;
    // Every check that can run does: the portrait was still found, so the faces were compared.
    expect(result).toMatchObject({
      status: 'FAILED',
      failure_reason: 'DOCUMENT_UNREADABLE',
      person: null,
      checks: { document: 'FAIL', face_match: 'PASS' },
      confidence: 0,
    });
  }, 120_000);

  it('leaves no captured image behind once every session above is decided', async () => {
    // The worker deletes them right after writing the decision, which a client may see first.
    const until = Date.now() + 10_000;
    while ((await stack.blobs()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(await stack.blobs()).toBe(0);
  });

  it("counts the decisions above on the workers' /metrics by status and failure reason, each with its latency, and their webhooks by outcome", async () => {
    const scraped = await Promise.all(
      stack.stack.workers.map((w) => fetch(`http://127.0.0.1:${w.port}/metrics`).then((r) => r.text())),
    );
    const total = (name: string, labels: Record<string, string> = {}) =>
      scraped
        .flatMap((text) => text.split('\n'))
        .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
        .filter((line) => Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`)))
        .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    expect(total('bioverify_decisions_total', { status: 'VERIFIED', failure_reason: 'none' })).toBeGreaterThanOrEqual(
      2,
    );
    const failedFor = ['FACE_MATCH_BELOW_THRESHOLD', 'NAME_MISMATCH', 'LIVENESS_FAILED', 'DOCUMENT_UNREADABLE'];
    expect(
      failedFor.filter(
        (reason) => total('bioverify_decisions_total', { status: 'FAILED', failure_reason: reason }) < 1,
      ),
    ).toEqual([]);
    expect(total('bioverify_decision_latency_seconds_count')).toBe(total('bioverify_decisions_total'));
    expect(total('bioverify_webhook_deliveries_total', { outcome: 'delivered' })).toBeGreaterThanOrEqual(1);
  });

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
      await refused(() => client.liveness(Array(61).fill(frame)), 422, 'VALIDATION_ERROR');
      await refused(() => client.liveness(Array(7).fill(frame)), 422, 'VALIDATION_ERROR');
      await refused(
        () => client.liveness(Array(8).fill(frame), [0, 100, 200, 150, 300, 400, 500, 600]),
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
});
