import { documentMismatch } from './openapi-conformance';

const created = {
  session_id: 'ses_4Jq8v0ZbQ2x7LmN1pR5sT9wY',
  verification_url: 'http://localhost/v/ses_4Jq8v0ZbQ2x7LmN1pR5sT9wY',
  status: 'PENDING',
  environment: 'sandbox',
};
const json = 'application/json; charset=utf-8';
const result = {
  session_id: 'ses_4Jq8v0ZbQ2x7LmN1pR5sT9wY',
  status: 'FAILED',
  environment: 'sandbox',
  person: null,
  checks: { document: 'FAIL', liveness: 'SKIPPED', antispoof: 'SKIPPED', face_match: 'SKIPPED' },
  confidence: 0,
  verified_until: null,
  failure_reason: 'DOCUMENT_UNREADABLE',
  credential_token: null,
  attempt: 1,
  metadata: {},
};

describe('the OpenAPI conformance check of a response', () => {
  it('accepts a response that matches its operation, status and schema', () => {
    expect(
      documentMismatch({
        method: 'POST',
        url: 'http://127.0.0.1:1/v1/sessions',
        status: 201,
        contentType: json,
        json: created,
      }),
    ).toBeNull();
  });

  it('reports a body that lacks a required field', () => {
    const body: Partial<typeof created> = { ...created };
    delete body.environment;
    expect(
      documentMismatch({ method: 'POST', url: '/v1/sessions', status: 201, contentType: json, json: body }),
    ).toMatch(/environment/);
  });

  it('reports a status the operation does not document', () => {
    expect(
      documentMismatch({
        method: 'GET',
        url: '/v1/sessions/ses_4Jq8v0ZbQ2x7LmN1pR5sT9wY',
        status: 418,
        contentType: json,
        json: {},
      }),
    ).toMatch(/does not document status 418/);
  });

  it('reports an API path the document does not have', () => {
    expect(
      documentMismatch({
        method: 'PATCH',
        url: '/v1/sessions/ses_4Jq8v0ZbQ2x7LmN1pR5sT9wY',
        status: 200,
        contentType: json,
        json: {},
      }),
    ).toMatch(/no operation/);
  });

  it('takes a null person as a field of the result, never a null result', () => {
    const at = {
      method: 'GET',
      url: '/v1/sessions/ses_4Jq8v0ZbQ2x7LmN1pR5sT9wY/result',
      status: 200,
      contentType: json,
    };
    expect(documentMismatch({ ...at, json: result })).toBeNull();
    expect(documentMismatch({ ...at, json: null })).toMatch(/does not match/);
  });

  it('checks an error against the error shape with the codes of the one error type', () => {
    const at = { method: 'POST', url: '/v1/sessions', status: 422, contentType: json };
    expect(
      documentMismatch({
        ...at,
        json: { error: { code: 'IDEMPOTENCY_KEY_REUSED', message: 'm' }, request_id: 'r' },
      }),
    ).toBeNull();
    expect(documentMismatch({ ...at, json: { error: { code: 'TEAPOT', message: 'm' }, request_id: 'r' } })).toMatch(
      /code/,
    );
  });

  it('matches a concrete path before a templated one', () => {
    const side = {
      side: 'back',
      readable: true,
      reason: null,
      retake: false,
      attempts_left: 2,
      next: 'liveness',
    };
    expect(
      documentMismatch({
        method: 'PUT',
        url: '/v1/capture/ses_4Jq8v0ZbQ2x7LmN1pR5sT9wY/document/back?type=id_card',
        status: 200,
        contentType: json,
        json: side,
      }),
    ).toBeNull();
  });

  it('leaves pages outside the API alone', () => {
    expect(
      documentMismatch({ method: 'GET', url: '/docs', status: 200, contentType: 'text/html', json: null }),
    ).toBeNull();
  });
});
