import { Webhook } from 'standardwebhooks';
import { DeliverableSession } from '../../ports/webhook-outbox';
import { AttemptOutcome, WebhookRequest } from '../../ports/webhook-sender';
import { NewDeliveryAttempt } from '../../webhooks/delivery-attempt';
import { createLogger } from '../../../shared/logger';
import { newWebhookSecret } from '../manage-accounts/issue-credentials';
import { DeliveryAttemptFailed, deliverWebhook, DeliverWebhookDeps } from './deliver-webhook.usecase';

const secret = newWebhookSecret();
const pending = (overrides: Partial<DeliverableSession> = {}): DeliverableSession => ({
  _id: 'ses_1234567890123456789012',
  account_id: 'acct_1',
  environment: 'sandbox',
  status: 'VERIFIED',
  webhook_url: 'https://hooks.example/identity',
  result_body: '{"session_id":"ses_1234567890123456789012","status":"VERIFIED","metadata":{"a":1.0}}',
  webhook_state: 'pending',
  webhook_delivery_id: 'msg_stable',
  webhook_redeliveries: 0,
  ...overrides,
});

function harness(session: DeliverableSession | null, answer: AttemptOutcome) {
  const sent: WebhookRequest[] = [];
  const logged: NewDeliveryAttempt[] = [];
  const settled: Array<[string, number, string]> = [];
  const deps: DeliverWebhookDeps = {
    outbox: {
      findDeliverable: () => Promise.resolve(session),
      settle: (id, round, state) => {
        settled.push([id, round, state]);
        return Promise.resolve();
      },
    },
    secrets: { webhookSecret: () => Promise.resolve(secret) },
    sender: {
      send: (request) => {
        sent.push(request);
        return Promise.resolve(answer);
      },
    },
    log: { record: (a) => Promise.resolve(void logged.push(a)) },
    clock: { now: () => new Date('2026-01-02T03:04:05.678Z') },
    logger: createLogger('silent'),
  };
  return { deps, sent, logged, settled };
}

const job = { sessionId: 'ses_1234567890123456789012', round: 0, attempt: 1, maxAttempts: 4 };

describe('deliverWebhook', () => {
  it('sends the stored result bytes, signed, and settles the outbox as delivered on a 2xx', async () => {
    const h = harness(pending(), { statusCode: 204, latencyMs: 12, error: null });
    await expect(deliverWebhook(h.deps, job)).resolves.toBe('delivered');
    expect(h.sent[0].body).toBe(pending().result_body);
    expect(h.sent[0].headers['webhook-id']).toBe('msg_stable');
    expect(h.sent[0].headers['webhook-timestamp']).toBe(String(Date.parse('2026-01-02T03:04:05Z') / 1000));
    expect(h.settled).toEqual([[job.sessionId, 0, 'delivered']]);
    expect(h.logged[0]).toMatchObject({
      attempt: 1,
      status_code: 204,
      latency_ms: 12,
      result: 'delivered',
      delivery_id: 'msg_stable',
    });
  });

  it('signs so that the Standard Webhooks library verifies the request', async () => {
    const h = harness(pending(), { statusCode: 200, latencyMs: 1, error: null });
    h.deps.clock = { now: () => new Date() };
    await deliverWebhook(h.deps, job);
    expect(() => new Webhook(secret).verify(h.sent[0].body, h.sent[0].headers)).not.toThrow();
  });

  it('logs a non-2xx attempt and throws so the queue retries it, leaving the outbox pending', async () => {
    const h = harness(pending(), { statusCode: 302, latencyMs: 5, error: null });
    await expect(deliverWebhook(h.deps, { ...job, attempt: 2 })).rejects.toThrow(DeliveryAttemptFailed);
    expect(h.logged[0]).toMatchObject({ attempt: 2, status_code: 302, result: 'retry_scheduled' });
    expect(h.settled).toEqual([]);
  });

  it('marks the delivery failed after the last attempt fails', async () => {
    const h = harness(pending(), { statusCode: null, latencyMs: 10_000, error: 'timed out after 10000 ms' });
    await expect(deliverWebhook(h.deps, { ...job, attempt: 4 })).rejects.toThrow('timed out');
    expect(h.logged[0]).toMatchObject({
      attempt: 4,
      status_code: null,
      error: 'timed out after 10000 ms',
      result: 'failed',
    });
    expect(h.settled).toEqual([[job.sessionId, 0, 'failed']]);
  });

  it.each([
    ['already delivered', pending({ webhook_state: 'delivered' })],
    ['superseded by a redelivery round', pending({ webhook_redeliveries: 1 })],
    ['gone', null],
  ])('sends nothing when the session is %s', async (_why, session) => {
    const h = harness(session, { statusCode: 200, latencyMs: 1, error: null });
    await expect(deliverWebhook(h.deps, job)).resolves.toBe('skipped');
    expect(h.sent).toEqual([]);
    expect(h.logged).toEqual([]);
  });
});
