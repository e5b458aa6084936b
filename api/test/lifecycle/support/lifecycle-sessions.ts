import { call, validSession } from '../../support/http';
import type { CreatedSession } from '../../support/api-bodies';
import type { WebhookStack } from '../../webhooks/support/webhook-stack';

/** Polls `check` every 200 ms until it holds, failing after `ms`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Sessions created and simulated over the API as an integrator does, their webhooks sent where nobody answers. */
export function sessionCalls(stack: WebhookStack) {
  const create = async (key: string, body: Record<string, unknown> = {}) => {
    const res = await call(stack.baseUrl, 'POST', '/v1/sessions', {
      key,
      body: validSession({ webhook_url: 'https://127.0.0.1:9/hook', ...body }),
    });
    expect(res.status).toBe(201);
    return (res.json as CreatedSession).session_id;
  };
  const simulate = (key: string, id: string, outcome: Record<string, unknown> = { outcome: 'VERIFIED' }) =>
    call(stack.baseUrl, 'POST', `/v1/sessions/${id}/simulate`, { key, body: outcome });
  return { create, simulate };
}

/** The stack's account is issued with both keys; its support type names only the sandbox one. */
export function keysOf(stack: WebhookStack) {
  const issued = stack.account as typeof stack.account & { live_api_key: string };
  return { sandboxKey: issued.sandbox_api_key, liveKey: issued.live_api_key, accountId: issued.account_id };
}
