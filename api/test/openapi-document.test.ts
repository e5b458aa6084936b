import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ERROR_CODES } from '../src/shared/app-error';
import { buildOpenApiDocument } from '../src/entry-points/http/openapi/openapi-document';
import { at } from './support/json-path';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const doc: unknown = buildOpenApiDocument('http://localhost:8080');

interface Operation {
  where: string;
  operationId?: string;
  security?: unknown;
}

const operations: Operation[] = Object.entries(at(doc, 'paths') as Record<string, object>).flatMap(([p, item]) =>
  Object.entries(item).map(([method, op]) => ({ where: `${method.toUpperCase()} ${p}`, ...(op as object) })),
);

interface RedoclyReport {
  problems: { ruleId: string; message: string }[];
  totals: unknown;
}

describe('the OpenAPI document', () => {
  it('is committed up to date, with the hosted page types generated from it', async () => {
    await expect(
      run('npx', ['tsx', 'api/tools/openapi/write-openapi.ts', '--check'], { cwd: ROOT }),
    ).resolves.toBeDefined();
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    // Redocly exits non-zero when it finds a problem; its report is on stdout either way.
    const { stdout } = await run('npx', ['redocly', 'lint', 'api/openapi.json', '--format=json'], {
      cwd: ROOT,
      env,
    }).catch((e: { stdout: string }) => e);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as RedoclyReport;
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('names every operation once, in camelCase', () => {
    const ids = operations.map((op) => op.operationId);
    expect(ids.every((id) => id !== undefined && /^[a-z][a-zA-Z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'createSession',
        'getSession',
        'getSessionResult',
        'cancelSession',
        'retrySession',
        'simulateSession',
        'startCapture',
        'uploadDocumentFront',
      ]),
    );
  });

  it('declares security on every operation, an empty list on the public ones', () => {
    const byId = Object.fromEntries(operations.map((op): [string, unknown] => [String(op.operationId), op.security]));
    expect(operations.filter((op) => !Array.isArray(op.security)).map((op) => op.where)).toEqual([]);
    for (const id of [
      'checkCredential',
      'getHealth',
      'getReadiness',
      'openVerificationPage',
      'showCredentialPage',
      'getCaptureProgress',
    ])
      expect(byId[id]).toEqual([]);
    expect(byId.createSession).toEqual([{ ApiKey: [] }]);
    expect(byId.uploadSelfie).toEqual([{ CaptureToken: [] }]);
  });

  it('lists every error code of the one error type', () => {
    expect(at(doc, 'components', 'schemas', 'Error', 'properties', 'error', 'properties', 'code', 'enum')).toEqual([
      ...ERROR_CODES,
    ]);
    expect(ERROR_CODES).toContain('IDEMPOTENCY_KEY_REUSED');
  });

  it('puts nullability on fields, never on the SessionResult, Person or Address components', () => {
    for (const name of ['SessionResult', 'Person', 'Address'])
      expect(at(doc, 'components', 'schemas', name, 'type')).toBe('object');
    expect(at(doc, 'components', 'schemas', 'SessionResult', 'properties', 'person', 'anyOf')).toEqual([
      { $ref: '#/components/schemas/Person' },
      { type: 'null' },
    ]);
    expect(at(doc, 'components', 'schemas', 'Person', 'properties', 'address', 'anyOf')).toEqual([
      { $ref: '#/components/schemas/Address' },
      { type: 'null' },
    ]);
  });

  it('carries the bounds the validation enforces', () => {
    const request = at(doc, 'components', 'schemas', 'CreateSessionRequest');
    expect(at(request, 'additionalProperties')).toBe(false);
    expect(at(request, 'properties', 'expected_name')).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(at(request, 'properties', 'expected_dob')).toMatchObject({ format: 'date' });
    expect(at(request, 'properties', 'return_url')).toMatchObject({ format: 'uri', maxLength: 2048 });
    expect(at(doc, 'components', 'schemas', 'Price', 'properties', 'currency', 'pattern')).toBe('^[A-Z]{3}$');
  });

  it('links a created session to every operation that takes its id', () => {
    const links = at(doc, 'paths', '/v1/sessions', 'post', 'responses', '201', 'links') as object;
    const linked = Object.values(links).map((l) => (l as { operationId: string }).operationId);
    // The event streams stay open until the session is decided, so no link leads a client into one.
    const takingAnId = operations.filter((op) => /\{(id|session_id)\}/.test(op.where) && !op.where.endsWith('/events'));
    expect(linked.sort()).toEqual(takingAnId.map((op) => op.operationId).sort());
  });

  it('describes the webhook: the result resource, signed', () => {
    const webhook = at(doc, 'webhooks', 'sessionDecided', 'post');
    expect(at(webhook, 'requestBody', 'content', 'application/json', 'schema')).toEqual({
      $ref: '#/components/schemas/SessionResult',
    });
    expect((at(webhook, 'parameters') as { name: string }[]).map((p) => p.name)).toEqual([
      'X-Bio-Signature',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
  });

  it('links a result to its credential', () => {
    expect(
      at(doc, 'paths', '/v1/sessions/{id}/result', 'get', 'responses', '200', 'links', 'CheckCredential', 'parameters'),
    ).toEqual({
      token: '$response.body#/credential_token',
    });
  });
});
