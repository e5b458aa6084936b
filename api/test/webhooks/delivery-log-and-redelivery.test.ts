import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitFor } from '../../../scripts/stack/child-process';
import { issueAccount } from '../../../scripts/test-support/account-bootstrap';
import { expectEveryDecisionDelivered, waitUntilAcknowledged } from './support/delivery-assertions';
import { createSession, decideSessions } from '../../../scripts/test-support/sessions-api';
import { WebhookStack } from './support/webhook-stack';
import type { DeliveryLog } from '../support/api-bodies';
import { anyOf, stringMatching } from '../../../scripts/test-support/typed-matchers';

const ROOT = path.resolve(__dirname, '../../..');
const run = promisify(execFile);

describe('delivery log (GET /v1/sessions/{id}/webhooks) and admin redelivery', () => {
  let stack: WebhookStack;
  const key = () => stack.account.sandbox_api_key;
  const log = (id: string, apiKey: string | null = key()) =>
    fetch(`${stack.baseUrl}/v1/sessions/${id}/webhooks`, { headers: apiKey ? { 'X-Api-Key': apiKey } : {} });
  const admin = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'api/src/entry-points/cli/admin.ts'), ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        MONGODB_URI: stack.env.MONGODB_URI,
        SECRET_ENCRYPTION_KEY: stack.env.SECRET_ENCRYPTION_KEY,
        PII_MASTER_KEYS: stack.env.PII_MASTER_KEYS,
        ...env,
      },
    });
  const withQueue = () => ({ REDIS_URL: stack.env.REDIS_URL, REDIS_PREFIX: stack.env.REDIS_PREFIX });

  beforeAll(async () => {
    stack = await WebhookStack.start();
    await stack.startApi();
    await stack.startWorker();
  });
  afterAll(() => stack.stop());

  it('lists every attempt of a session for its owner: time, status code, latency, error, delivery id', async () => {
    stack.receiver.reply = (_c, nth) => (nth === 0 ? 503 : 200);
    const [id] = await decideSessions(stack.baseUrl, key(), stack.receiver.url(), 1);
    await expectEveryDecisionDelivered(stack, [id]);
    const res = await log(id);
    expect(res.status).toBe(200);
    const body = (await res.json()) as DeliveryLog;
    const session = await stack.session(id);
    expect(body).toMatchObject({
      session_id: id,
      webhook_state: 'delivered',
      delivery_id: session!.webhook_delivery_id,
    });
    expect(body.attempts).toEqual([
      {
        delivery_id: session!.webhook_delivery_id,
        round: 0,
        attempt: 1,
        attempted_at: anyOf(String),
        status_code: 503,
        latency_ms: anyOf(Number),
        error: null,
        result: 'retry_scheduled',
      },
      {
        delivery_id: session!.webhook_delivery_id,
        round: 0,
        attempt: 2,
        attempted_at: anyOf(String),
        status_code: 200,
        latency_ms: anyOf(Number),
        error: null,
        result: 'delivered',
      },
    ]);
    expect(Date.parse(body.attempts[1].attempted_at)).toBeGreaterThan(Date.parse(body.attempts[0].attempted_at));
    // The worker records the settlement apart; the next outbox sweep copies it onto the session.
    await waitFor(
      'the sweep to copy the settlement',
      async () => (await stack.session(id))?.webhook_state === 'delivered',
      10_000,
    );
  });

  it("shows an open session with nothing due, and answers 401, 403 and 404 like the session's other routes", async () => {
    const open = await createSession(stack.baseUrl, key(), stack.receiver.url());
    expect(await (await log(open)).json()).toEqual({
      session_id: open,
      webhook_state: 'none',
      delivery_id: null,
      attempts: [],
    });
    const other = await issueAccount(stack.store, stack.env, { name: 'Someone else' });
    expect((await log(open, other.sandbox_api_key)).status).toBe(403);
    expect((await log(open, stack.account.sandbox_api_key.replace('vk_sand_', 'vk_live_'))).status).toBe(401);
    expect((await log('ses_000000000000000000000000')).status).toBe(404);
    expect((await log(open, null)).status).toBe(401);
  });

  it('redelivers a decided session on the admin command, with the same webhook-id, as round 1', async () => {
    stack.receiver.reply = () => 200;
    const [id] = await decideSessions(stack.baseUrl, key(), stack.receiver.url(), 1);
    await expectEveryDecisionDelivered(stack, [id]);
    const { stdout } = await admin(['sessions', 'redeliver', '--session', id], withQueue());
    const session = await stack.session(id);
    expect(JSON.parse(stdout)).toEqual({
      session_id: id,
      status: session!.status,
      delivery_id: session!.webhook_delivery_id,
      round: 1,
      enqueued: true,
    });
    await waitUntilAcknowledged(stack, [id]);
    await expectEveryDecisionDelivered(stack, [id]);
    await new Promise((r) => setTimeout(r, 300));
    expect(stack.receiver.copiesOf(id)).toHaveLength(2);
    const attempts = await stack.deliveryLog.listForSession(id);
    expect(attempts.map((a) => [a.round, a.attempt, a.result])).toEqual([
      [0, 1, 'delivered'],
      [1, 1, 'delivered'],
    ]);
  });

  it('still redelivers through the outbox sweep when the command cannot reach Redis', async () => {
    const [id] = await decideSessions(stack.baseUrl, key(), stack.receiver.url(), 1);
    await expectEveryDecisionDelivered(stack, [id]);
    const { stdout } = await admin(['sessions', 'redeliver', '--session', id]);
    expect(JSON.parse(stdout)).toMatchObject({ session_id: id, round: 1, enqueued: false });
    await expectEveryDecisionDelivered(stack, [id]);
    expect(stack.receiver.copiesOf(id).length).toBeGreaterThanOrEqual(2);
  });

  it('refuses to redeliver a cancelled session, which never had a webhook', async () => {
    const id = await createSession(stack.baseUrl, key(), stack.receiver.url());
    await fetch(`${stack.baseUrl}/v1/sessions/${id}`, { method: 'DELETE', headers: { 'X-Api-Key': key() } });
    const failure = await admin(['sessions', 'redeliver', '--session', id], withQueue()).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failure).toMatchObject({ code: 65, stderr: stringMatching(/FAILED without a webhook/) });
    expect(stack.receiver.copiesOf(id)).toEqual([]);
  });
});
