import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { reportSchema } from '../schemas/capture.schemas';
import { resultSchema } from '../schemas/result.schemas';
import { attemptsResponse, idempotencyKeyHeader, retrySessionResponse } from '../schemas/retry.schemas';
import {
  cancelSessionResponse,
  createSessionRequest,
  createSessionResponse,
  redactSessionResponse,
  sessionIdParam,
  sessionStatusResponse,
  simulateRequest,
} from '../schemas/session.schemas';
import { API_KEY, json, keyed, keyedErrors, replayedHeader } from '../openapi/operation-parts';
import { credentialLinks, sessionLinks } from '../openapi/session-links';

/**
 * /v1/sessions as the OpenAPI document declares it. The request schemas are the ones
 * sessions.routes.ts validates with, so the document and the validation are one declaration.
 */
export function registerSessionPaths(registry: OpenAPIRegistry): void {
  const params = { params: sessionIdParam };
  const jsonBody = (schema: typeof createSessionRequest | typeof simulateRequest) => ({
    required: true,
    content: { 'application/json': { schema } },
  });

  registry.registerPath({
    operationId: 'createSession',
    method: 'post',
    path: '/v1/sessions',
    summary: 'Create a verification session',
    security: API_KEY,
    description:
      'From a browser page on another origin (the widget with `apiKey`), CORS is answered for sandbox keys only: the preflight is granted, a sandbox key gets `Access-Control-Allow-Origin: *` with the RateLimit-* headers exposed, and a production key gets 403 FORBIDDEN without CORS headers (nothing is created). Create production sessions on your backend.',
    request: { headers: idempotencyKeyHeader, body: jsonBody(createSessionRequest) },
    responses: {
      201: { ...keyed(json(createSessionResponse, 'Created'), replayedHeader), links: sessionLinks() },
      ...keyedErrors(401, 403, 409, 413, 415, 422, 503),
    },
  });
  registry.registerPath({
    operationId: 'getSession',
    method: 'get',
    path: '/v1/sessions/{id}',
    summary: 'Read a session status',
    security: API_KEY,
    request: params,
    responses: { 200: keyed(json(sessionStatusResponse, 'The session')), ...keyedErrors(401, 403, 404) },
  });
  registry.registerPath({
    operationId: 'getSessionResult',
    method: 'get',
    path: '/v1/sessions/{id}/result',
    summary: 'Read the result of a decided session',
    security: API_KEY,
    request: params,
    responses: {
      200: {
        ...keyed(json(resultSchema, 'The result (same bytes as the webhook body)')),
        links: credentialLinks(),
      },
      ...keyedErrors(401, 403, 404, 409),
    },
  });
  registry.registerPath({
    operationId: 'cancelSession',
    method: 'delete',
    path: '/v1/sessions/{id}',
    summary: 'Cancel an open session (FAILED / CANCELLED_BY_API, no webhook)',
    security: API_KEY,
    request: params,
    responses: { 200: keyed(json(cancelSessionResponse, 'Cancelled')), ...keyedErrors(401, 403, 404, 409) },
  });
  registry.registerPath({
    operationId: 'retrySession',
    method: 'post',
    path: '/v1/sessions/{id}/retry',
    summary: 'Retry a FAILED session (not a cancelled one): same id and URL, a new attempt, at most 3',
    security: API_KEY,
    request: { ...params, headers: idempotencyKeyHeader },
    responses: {
      200: {
        ...keyed(json(retrySessionResponse, 'The new attempt, PENDING'), replayedHeader),
        links: sessionLinks(),
      },
      ...keyedErrors(401, 403, 404, 409, 413, 415, 422, 503),
    },
  });
  registry.registerPath({
    operationId: 'listSessionAttempts',
    method: 'get',
    path: '/v1/sessions/{id}/attempts',
    summary: 'Every attempt of a session with its result',
    security: API_KEY,
    request: params,
    responses: {
      200: keyed(json(attemptsResponse, 'The attempts, oldest first')),
      ...keyedErrors(401, 403, 404),
    },
  });
  registry.registerPath({
    operationId: 'getSessionReport',
    method: 'get',
    path: '/v1/sessions/{id}/report',
    summary: 'The evidence report of a decided session: scores, lines, models, timings',
    security: API_KEY,
    request: params,
    responses: {
      200: keyed(json(reportSchema, 'The report (no images, no personal data)')),
      ...keyedErrors(401, 403, 404, 409),
    },
  });
  registry.registerPath({
    operationId: 'redactSession',
    method: 'post',
    path: '/v1/sessions/{id}/redact',
    security: API_KEY,
    request: params,
    summary: "Erase a session's personal data (idempotent; an open session is cancelled first)",
    description:
      'Deletes the expected name, date of birth and address, the person read from the document (in the result of every attempt), the credential (its token stops validating: 404), the captured images, and the document country, MRZ corrections and any sanctions match in the evidence report. The result keeps status, checks, confidence, failure_reason, verified_until and metadata, with `person` and `credential_token` null and `redacted_at` set; the report keeps every score. A retry of a redacted session is refused (409). Deployments may also redact automatically after PII_RETENTION_DAYS.',
    responses: {
      200: keyed(json(redactSessionResponse, 'Redacted')),
      ...keyedErrors(401, 403, 404, 409, 503),
    },
  });
  registry.registerPath({
    operationId: 'simulateSession',
    method: 'post',
    path: '/v1/sessions/{id}/simulate',
    summary: 'Sandbox: complete a session with a chosen outcome',
    security: API_KEY,
    request: { ...params, body: jsonBody(simulateRequest) },
    responses: {
      200: {
        ...keyed(json(resultSchema, 'The result, exactly as a real completion')),
        links: { ...sessionLinks(), ...credentialLinks() },
      },
      ...keyedErrors(401, 403, 404, 409, 413, 415, 422, 503),
    },
  });
}
