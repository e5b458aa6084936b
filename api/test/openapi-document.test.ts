import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { ERROR_CODES } from '../src/shared/app-error';
import { buildOpenApiDocument } from '../src/entry-points/http/openapi/openapi-document';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked as plain JSON
const doc = buildOpenApiDocument('http://localhost:8080') as any;
const operations = Object.entries(doc.paths).flatMap(([p, item]) =>
  Object.entries(item as object).map(([method, op]) => ({ where: `${method.toUpperCase()} ${p}`, ...op })),
);

describe('the OpenAPI document', () => {
  it('is committed up to date, with the hosted page types generated from it', async () => {
    await expect(
      run('npx', ['tsx', 'api/tools/openapi/write-openapi.ts', '--check'], { cwd: ROOT }),
    ).resolves.toBeDefined();
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const { stdout } = await run('npx', ['redocly', 'lint', 'api/openapi.json', '--format=json'], {
      cwd: ROOT,
      env,
    }).catch((e) => e);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
    expect(report.problems.map((p: { ruleId: string; message: string }) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120_000);

  it('names every operation once, in camelCase', () => {
    const ids = operations.map((op) => op.operationId);
    expect(ids.every((id) => /^[a-z][a-zA-Z]+$/.test(id))).toBe(true);
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
    const byId = Object.fromEntries(operations.map((op) => [op.operationId, op.security]));
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
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toEqual([...ERROR_CODES]);
    expect(ERROR_CODES).toContain('IDEMPOTENCY_KEY_REUSED');
  });

  it('puts nullability on fields, never on the SessionResult, Person or Address components', () => {
    for (const name of ['SessionResult', 'Person', 'Address']) expect(doc.components.schemas[name].type).toBe('object');
    expect(doc.components.schemas.SessionResult.properties.person.anyOf).toEqual([
      { $ref: '#/components/schemas/Person' },
      { type: 'null' },
    ]);
    expect(doc.components.schemas.Person.properties.address.anyOf).toEqual([
      { $ref: '#/components/schemas/Address' },
      { type: 'null' },
    ]);
  });

  it('carries the bounds the validation enforces', () => {
    const request = doc.components.schemas.CreateSessionRequest;
    expect(request.additionalProperties).toBe(false);
    expect(request.properties.expected_name).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(request.properties.expected_dob).toMatchObject({ format: 'date' });
    expect(request.properties.return_url).toMatchObject({ format: 'uri', maxLength: 2048 });
    expect(doc.components.schemas.Price.properties.currency.pattern).toBe('^[A-Z]{3}$');
  });

  it('links a created session to every operation that takes its id', () => {
    const links = doc.paths['/v1/sessions'].post.responses['201'].links;
    const linked = Object.values(links).map((l) => (l as { operationId: string }).operationId);
    // The event streams stay open until the session is decided, so no link leads a client into one.
    const takingAnId = operations.filter((op) => /\{(id|session_id)\}/.test(op.where) && !op.where.endsWith('/events'));
    expect(linked.sort()).toEqual(takingAnId.map((op) => op.operationId).sort());
  });

  it('describes the webhook: the result resource, signed', () => {
    const webhook = doc.webhooks.sessionDecided.post;
    expect(webhook.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SessionResult',
    });
    expect(webhook.parameters.map((p: { name: string }) => p.name)).toEqual([
      'X-Bio-Signature',
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
  });

  it('links a result to its credential', () => {
    expect(doc.paths['/v1/sessions/{id}/result'].get.responses['200'].links.CheckCredential.parameters).toEqual({
      token: '$response.body#/credential_token',
    });
  });
});
