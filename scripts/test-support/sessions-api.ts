import { randomUUID } from 'node:crypto';
import { assertMatchesDocument } from './openapi-conformance';

export type Outcome = 'VERIFIED' | 'FAILED';

async function post(url: string, key: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const json: unknown = text ? JSON.parse(text) : null;
  // Every answer is checked against the OpenAPI document, so callers also prove it still holds.
  assertMatchesDocument({
    method: 'POST',
    url,
    status: res.status,
    contentType: res.headers.get('content-type'),
    json,
  });
  return { status: res.status, json };
}

/** POST /v1/sessions pointing the webhook at `webhookUrl`; metadata carries a unique reference. */
export async function createSession(baseUrl: string, key: string, webhookUrl: string): Promise<string> {
  const res = await post(`${baseUrl}/v1/sessions`, key, {
    return_url: 'https://example.com/done',
    webhook_url: webhookUrl,
    expected_name: 'Jane Doe',
    metadata: { order: randomUUID() },
  });
  if (res.status !== 201) throw new Error(`create answered ${res.status}: ${JSON.stringify(res.json)}`);
  // The answer matched the document's 201 (post checks it), so it carries the session id.
  return (res.json as { session_id: string }).session_id;
}

/** POST /simulate: the sandbox completes the session as a real capture would (result, webhook). */
export async function simulate(
  baseUrl: string,
  key: string,
  id: string,
  outcome: Outcome = 'VERIFIED',
): Promise<number> {
  const body = outcome === 'VERIFIED' ? { outcome } : { outcome, failure_reason: 'FACE_MATCH_BELOW_THRESHOLD' };
  return (await post(`${baseUrl}/v1/sessions/${id}/simulate`, key, body)).status;
}

/** Creates and decides `count` sessions (alternating VERIFIED / FAILED); returns their ids. */
export async function decideSessions(
  baseUrl: string,
  key: string,
  webhookUrl: string,
  count: number,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = await createSession(baseUrl, key, webhookUrl);
    const status = await simulate(baseUrl, key, id, i % 2 === 0 ? 'VERIFIED' : 'FAILED');
    if (status !== 200) throw new Error(`simulate answered ${status}`);
    ids.push(id);
  }
  return ids;
}
