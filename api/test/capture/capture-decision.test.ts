/**
 * An applicant's photos decide the session, on the real stack (FerretDB, Redis, the inference
 * service on the real models, the API and a worker process) over HTTP. The applicants are
 * synthetic documents printed with real portraits, augmented selfies of the same photos and
 * synthetic head-motion sequences (api/test/capture/support/applicant-files.ts).
 */
import { CaptureClient } from './support/capture-client';
import { CaptureStack } from './support/capture-stack';
import { cardSides, documentOf, livenessOf, selfieOf } from './support/applicant-files';

const PINNED = ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'];

async function capture(stack: CaptureStack, body: Record<string, unknown>) {
  const id = await stack.session({ sandbox: { liveness_challenge: PINNED }, ...body });
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
    const { id, client, started } = await capture(stack, { expected_name: fields.name.toLowerCase(), expected_dob: fields.birth_date });
    expect(started.body.challenge).toEqual(PINNED);
    expect(started.body.document_types).toEqual(['passport', 'id_card', 'driving_licence', 'residence_permit']);

    const front = await client.document('front', 'passport', passport.image);
    expect(front.body).toEqual({ side: 'front', readable: true, reason: null, retake: false, attempts_left: 2, next: 'liveness' });
    expect(JSON.stringify(front.body)).not.toContain(fields.birth_date);
    const live = await client.liveness(livenessOf('astronaut', 'synthetic-performs-challenge').frames);
    expect(live.body).toMatchObject({ retake: false, attempts_left: 2 });
    expect(live.body.face_found_ratio).toBeGreaterThanOrEqual(0.8);
    expect((await client.selfie(selfieOf('astronaut'))).body).toEqual({ face_found: true, retake: false, attempts_left: 2 });
    expect((await client.submit())).toEqual({ status: 202, body: { status: 'IN_PROGRESS', decision: 'pending' } });

    const done = await client.decided();
    expect(done.decision).toBe('done');
    expect(done.status).toBe('VERIFIED');
    expect(done.redirect_url).toBe(`https://example.com/done?session_id=${id}&status=VERIFIED`);
    const result = await stack.api('GET', `/v1/sessions/${id}/result`);
    expect(result.body).toMatchObject({
      status: 'VERIFIED',
      failure_reason: null,
      checks: { document: 'PASS', liveness: 'PASS', antispoof: 'PASS', face_match: 'PASS' },
      person: { name: fields.name, dob: fields.birth_date, document_type: 'passport', document_country: fields.document_country },
    });
    expect(result.body.confidence).toBeGreaterThanOrEqual(0.5);
    const credential = await fetch(`${stack.baseUrl}/v1/credentials/${result.body.credential_token}`).then((r) => r.json());
    expect(credential).toMatchObject({ valid: true, status: 'VERIFIED', name: fields.name });

    const report = await stack.api('GET', `/v1/sessions/${id}/report`);
    expect(report.status).toBe(200);
    expect(report.body.document).toMatchObject({ format: 'TD3', type: 'passport', country: fields.document_country });
    const faceMatch = report.body.checks.face_match;
    expect(faceMatch.scores[0]).toMatchObject({ name: expect.any(String), threshold: expect.any(Number), comparison: expect.stringMatching(/gte|lte/) });
    expect(faceMatch.model).toMatchObject({ name: 'face-embedding', version: expect.any(String), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(JSON.stringify(report.body)).not.toContain(fields.birth_date);

    const until = Date.now() + 20_000;
    while (!stack.stack.receiver.copies.some((c) => c.sessionId === id) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const copy = stack.stack.receiver.copies.find((c) => c.sessionId === id);
    expect(copy).toMatchObject({ status: 'VERIFIED', bioSignatureValid: true, standardSignatureValid: true });
    expect(copy?.body).toBe(JSON.stringify(result.body));
  }, 120_000);
});
