/**
 * The service's own faults never fail an applicant, and never decide a session twice: the real
 * stack with the inference service stopped and started again, a worker killed mid-decision, and
 * a burst of concurrent submits (synthetic documents and faces, real models).
 */
import { CaptureClient } from './support/capture-client';
import { CaptureStack } from './support/capture-stack';
import { documentOf, livenessOf, selfieOf } from './support/applicant-files';

/**
 * An applicant with everything captured. The selfie upload scores liveness and face match, so a
 * decision needs the inference service only for a capture retaken after the selfie: the tests that
 * need the decision to call it retake the frames last (the hosted flow allows that).
 */
async function readyToSubmit(
  stack: CaptureStack,
  options: { retakeFramesAfterSelfie?: boolean } = {},
): Promise<CaptureClient> {
  const passport = documentOf('TD3', 'clean', 'astronaut');
  const id = await stack.session({
    expected_name: passport.label.expected.fields.name,
    sandbox: { liveness_challenge: ['TURN_LEFT', 'TURN_RIGHT', 'BLINK'] },
  });
  const client = new CaptureClient(stack.baseUrl, id);
  await client.start();
  await client.document('front', 'passport', passport.image);
  await client.liveness(livenessOf('astronaut', 'synthetic-performs-challenge').frames);
  await client.selfie(selfieOf('astronaut'));
  if (options.retakeFramesAfterSelfie)
    await client.liveness(livenessOf('astronaut', 'synthetic-performs-challenge').frames);
  return client;
}

async function webhooksFor(stack: CaptureStack, id: string, atLeast: number, waitMs = 20_000) {
  const until = Date.now() + waitMs;
  while (stack.stack.receiver.copies.filter((c) => c.sessionId === id).length < atLeast && Date.now() < until)
    await new Promise((r) => setTimeout(r, 100));
  return stack.stack.receiver.copies.filter((c) => c.sessionId === id);
}

describe('decisions survive the service’s own faults (real stack)', () => {
  let stack: CaptureStack;
  beforeAll(async () => {
    stack = await CaptureStack.start();
  }, 240_000);
  afterEach(async () => {
    await stack?.ensureInference();
    await stack?.awaitApiReady();
  }, 120_000);
  afterAll(async () => stack?.stop(), 60_000);

  it('keeps a submitted session pending while inference is down, past its expiry, and decides it once inference is back', async () => {
    const client = await readyToSubmit(stack, { retakeFramesAfterSelfie: true });
    await stack.stopInference();
    expect((await client.submit()).body).toEqual({ status: 'IN_PROGRESS', decision: 'pending' });
    // Its expiry passes while the decision waits: the expiry sweep (every second here) leaves it alone.
    await stack.stack.sessionModel.updateOne(
      { _id: client.sessionId },
      { $set: { expires_at: new Date(Date.now() - 1_000) } },
    );
    await new Promise((r) => setTimeout(r, 3_000));
    expect((await client.status(null)).body).toEqual({
      status: 'IN_PROGRESS',
      decision: 'pending',
      redirect_url: null,
    });
    const metrics = await fetch(`http://127.0.0.1:${stack.stack.workers[0].port}/metrics`).then((r) => r.text());
    expect(Number(/^bioverify_decisions_pending (\d+)/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    await stack.startInference();
    expect(await client.decided(90_000)).toMatchObject({ status: 'VERIFIED', decision: 'done' });
    const copies = await webhooksFor(stack, client.sessionId, 1);
    expect(copies.map((c) => c.status)).toEqual(['VERIFIED']);
  }, 180_000);

  it('decides a session whose captures were all scored at upload without the inference service', async () => {
    const client = await readyToSubmit(stack);
    await stack.stopInference();
    expect((await client.submit()).body).toEqual({ status: 'IN_PROGRESS', decision: 'pending' });
    expect(await client.decided(60_000)).toMatchObject({ status: 'VERIFIED', decision: 'done' });
  }, 180_000);

  it('decides exactly once, with one webhook, when the worker is killed mid-decision', async () => {
    const client = await readyToSubmit(stack, { retakeFramesAfterSelfie: true });
    await client.submit();
    await new Promise((r) => setTimeout(r, 150)); // the worker has taken the job and is running the checks
    await stack.stack.workers[0].kill('SIGKILL');
    stack.stack.workers.shift();
    await stack.stack.startWorker();
    expect(await client.decided(60_000)).toMatchObject({ status: 'VERIFIED' });
    await new Promise((r) => setTimeout(r, 2_000));
    const ids = new Set((await webhooksFor(stack, client.sessionId, 1)).map((c) => c.webhookId));
    expect(ids.size).toBe(1);
    const claims = await stack.stack.sessions.claims.countDocuments({
      session_id: client.sessionId,
      to: { $in: ['VERIFIED', 'FAILED'] },
    });
    expect(claims).toBe(1);
  }, 120_000);

  it('makes one decision of 20 concurrent submits', async () => {
    const client = await readyToSubmit(stack);
    const answers = await Promise.all(Array.from({ length: 20 }, () => client.submit()));
    // A repeat is a no-op answering the same while the decision is pending; once decided (it takes
    // no model run here, so it can land inside the burst) a write is 409 CONFLICT, as for any write.
    const pending = answers.filter((a) => a.status === 202 && a.body.decision === 'pending');
    expect(pending.length).toBeGreaterThanOrEqual(1);
    expect(answers.filter((a) => !pending.includes(a)).map((a) => [a.status, a.body.error?.code])).toEqual(
      answers.filter((a) => !pending.includes(a)).map(() => [409, 'CONFLICT']),
    );
    expect(await client.decided()).toMatchObject({ status: 'VERIFIED' });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(new Set((await webhooksFor(stack, client.sessionId, 1)).map((c) => c.webhookId)).size).toBe(1);
    expect(
      await stack.stack.sessions.claims.countDocuments({
        session_id: client.sessionId,
        to: { $in: ['VERIFIED', 'FAILED'] },
      }),
    ).toBe(1);
  }, 120_000);
});
