import { assertMatchesDocument } from '../../../scripts/test-support/openapi-conformance';

export interface CallOptions {
  key?: string;
  body?: unknown;
  /** Sent as is, for malformed or byte-exact bodies. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * `json` is the body as the schema named by the caller (see api-bodies.ts): every response is checked
 * against the OpenAPI document before it is handed back.
 */
export interface CallResult<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

/**
 * One HTTP call to the API under test, answering status, headers, raw text and parsed JSON. Every
 * response is checked against the OpenAPI document (its operation, status and schema), so a test
 * fails when the API and its document part ways.
 */
export async function call<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key !== undefined) headers['X-Api-Key'] = options.key;
  let body: string | Buffer | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  assertMatchesDocument({
    method,
    url: path,
    status: response.status,
    contentType: response.headers.get('content-type'),
    json,
  });
  return { status: response.status, headers: response.headers, text, json: json as T };
}

export const validSession = (overrides: Record<string, unknown> = {}) => ({
  return_url: 'https://example.com/done',
  webhook_url: 'https://example.com/webhooks',
  expected_name: 'Jane Doe',
  ...overrides,
});
