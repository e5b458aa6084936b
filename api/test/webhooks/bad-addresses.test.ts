import { waitFor } from '../../../scripts/stack/child-process';
import { loadConfig } from '../../src/config/env';
import { startApi, RunningApi } from '../../src/entry-points/http/http-server';
import { createLogger } from '../../src/shared/logger';
import { createSession, simulate } from '../../../scripts/test-support/sessions-api';
import { WebhookStack } from './support/webhook-stack';
import type { ApiError } from '../support/api-bodies';
import { stringMatching } from '../../../scripts/test-support/typed-matchers';

/**
 * Egress safety end to end: with WEBHOOK_ALLOW_PRIVATE_NETWORKS unset, the API refuses such a
 * webhook_url with 422, and a worker refuses to open a socket to one that got into the store
 * anyway (created while the deployment allowed it, or a name that now resolves elsewhere).
 */
describe('webhook_url aimed at non-public addresses', () => {
  let stack: WebhookStack;
  let strictApi: RunningApi;
  const strictUrl = () => `http://127.0.0.1:${strictApi.port}`;
  const post = (body: unknown) =>
    fetch(`${strictUrl()}/v1/sessions`, {
      method: 'POST',
      headers: { 'X-Api-Key': stack.account.sandbox_api_key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const badUrls = () => {
    const p = stack.receiver.port;
    return [
      `http://127.0.0.1:${p}/hook`,
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      `http://[::1]:${p}/hook`,
      `http://[::ffff:127.0.0.1]:${p}/hook`,
      `http://localhost:${p}/hook`,
    ];
  };

  beforeAll(async () => {
    stack = await WebhookStack.start({ WEBHOOK_RETRY_INTERVAL_SECONDS: '0.1' });
    strictApi = await startApi(
      loadConfig({ ...stack.env, PORT: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' }),
      createLogger('silent'),
    );
    await stack.startApi(); // the permissive one, to plant bad targets in the store
  });
  afterAll(async () => {
    await strictApi.stop();
    await stack.stop();
  });

  it('answers 422 at creation for each of them, naming webhook_url', async () => {
    for (const webhook_url of badUrls()) {
      const res = await post({
        return_url: 'https://example.com/done',
        webhook_url,
        expected_name: 'Jane Doe',
      });
      const json = (await res.json()) as ApiError;
      expect({ webhook_url, status: res.status }).toEqual({ webhook_url, status: 422 });
      expect(json.error.details).toEqual([{ field: 'webhook_url', message: stringMatching(/non-public address/) }]);
    }
  });

  it('accepts a public address, and a name that does not resolve (the connect-time guard still applies)', async () => {
    for (const webhook_url of ['https://93.184.216.34/hook', 'https://hooks.invalid/identity']) {
      expect(
        (await post({ return_url: 'https://example.com/done', webhook_url, expected_name: 'Jane Doe' })).status,
      ).toBe(201);
    }
  });

  it('opens no socket at delivery, logs every refused attempt and marks the delivery failed', async () => {
    const ids: string[] = [];
    for (const url of badUrls()) {
      const id = await createSession(stack.baseUrl, stack.account.sandbox_api_key, url);
      expect(await simulate(stack.baseUrl, stack.account.sandbox_api_key, id)).toBe(200);
      ids.push(id);
    }
    await stack.startWorker({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' });
    await waitFor(
      'every delivery to give up',
      async () => (await Promise.all(ids.map((id) => stack.webhookState(id)))).every((s) => s === 'failed'),
      30_000,
    );
    expect(stack.receiver.connections).toBe(0);
    expect(stack.receiver.copies).toEqual([]);
    for (const id of ids) {
      const attempts = await stack.deliveryLog.listForSession(id);
      expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
      for (const a of attempts)
        expect(a).toMatchObject({ status_code: null, error: stringMatching(/^egress refused/) });
      expect(attempts[3].result).toBe('failed');
    }
  });
});
