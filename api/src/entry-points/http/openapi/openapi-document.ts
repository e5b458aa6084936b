import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ZodType } from 'zod';
import { credentialSchema, errorSchema, priceSchema, resultSchema } from '../schemas/result.schemas';
import {
  cancelSessionResponse, createSessionRequest, createSessionResponse, sessionIdParam, sessionStatusResponse, simulateRequest,
} from '../schemas/session.schemas';
import { attemptsResponse, idempotencyKeyHeader, rateLimitHeaders, retryAfterHeader, retrySessionResponse } from '../schemas/retry.schemas';
import { deliveryLogSchema } from '../schemas/webhook-delivery.schemas';
import { z } from '../schemas/zod-openapi';
import { describeRateLimits } from '../../../domain/rate-limits/plan-rate-limit';

type ErrorStatus = 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;
const ERROR_TEXT: Record<ErrorStatus, string> = {
  401: 'UNAUTHORIZED (no X-Api-Key) or INVALID_KEY_FORMAT (bad prefix or unknown key)',
  403: 'FORBIDDEN: the session belongs to another account or environment',
  404: 'NOT_FOUND',
  409: 'CONFLICT: the session state does not allow this',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE: send application/json',
  422: 'VALIDATION_ERROR: details lists every bad field (IDEMPOTENCY_KEY_REUSED: that Idempotency-Key came with another body)',
  429: "RATE_LIMITED: this API key used its plan's requests for the window; see Retry-After",
  503: 'SERVICE_UNAVAILABLE: a dependency is down; nothing was changed',
};

const json = (schema: ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
/** A response to a request that passed authentication: it carries the key's rate-limit headers. */
const keyed = (response: ReturnType<typeof json>, extra = {}) => ({ ...response, headers: { ...rateLimitHeaders, ...extra } });
const errors = (...statuses: ErrorStatus[]) =>
  Object.fromEntries(
    [...statuses, 429 as const].map((s) => {
      const response = json(errorSchema, ERROR_TEXT[s]);
      return [s, s === 401 ? response : keyed(response, s === 429 ? retryAfterHeader : {})];
    }),
  );
const replayed = { 'Idempotent-Replayed': { schema: { type: 'string' as const, enum: ['true'] }, description: 'Present on a replay of a stored response.' } };

/** Builds /docs/openapi.json from the same zod schemas the routes validate with. */
export function buildOpenApiDocument(serverUrl: string) {
  const registry = new OpenAPIRegistry();
  const apiKey = registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  const secured = [{ [apiKey.name]: [] }];
  const params = { params: sessionIdParam };

  registry.registerPath({
    method: 'post', path: '/v1/sessions', summary: 'Create a verification session', security: secured,
    request: { headers: idempotencyKeyHeader, body: { content: { 'application/json': { schema: createSessionRequest } } } },
    responses: { 201: keyed(json(createSessionResponse, 'Created'), replayed), ...errors(401, 409, 413, 415, 422, 503) },
  });
  registry.registerPath({
    method: 'post', path: '/v1/sessions/{id}/retry', summary: 'Retry a FAILED session (not a cancelled one): same id and URL, a new attempt, at most 3', security: secured,
    request: { ...params, headers: idempotencyKeyHeader },
    responses: { 200: keyed(json(retrySessionResponse, 'The new attempt, PENDING'), replayed), ...errors(401, 403, 404, 409, 422, 503) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/sessions/{id}/attempts', summary: 'Every attempt of a session with its result', security: secured, request: params,
    responses: { 200: keyed(json(attemptsResponse, 'The attempts, oldest first')), ...errors(401, 403, 404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/sessions/{id}', summary: 'Read a session status', security: secured, request: params,
    responses: { 200: keyed(json(sessionStatusResponse, 'The session')), ...errors(401, 403, 404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/sessions/{id}/result', summary: 'Read the result of a decided session', security: secured, request: params,
    responses: { 200: keyed(json(resultSchema, 'The result (same bytes as the webhook body)')), ...errors(401, 403, 404, 409) },
  });
  registry.registerPath({
    method: 'delete', path: '/v1/sessions/{id}', summary: 'Cancel an open session (FAILED / CANCELLED_BY_API, no webhook)', security: secured,
    request: params, responses: { 200: keyed(json(cancelSessionResponse, 'Cancelled')), ...errors(401, 403, 404, 409) },
  });
  registry.registerPath({
    method: 'post', path: '/v1/sessions/{id}/simulate', summary: 'Sandbox: complete a session with a chosen outcome', security: secured,
    request: { ...params, body: { content: { 'application/json': { schema: simulateRequest } } } },
    responses: { 200: keyed(json(resultSchema, 'The result, exactly as a real completion')), ...errors(401, 403, 404, 409, 415, 422, 503) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/sessions/{id}/webhooks', summary: "The session's webhook delivery attempts (time, status code, latency, error)", security: secured,
    request: params, responses: { 200: keyed(json(deliveryLogSchema, 'The delivery log')), ...errors(401, 403, 404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/credentials/{token}', summary: 'Public: check a verified credential (exposes name and document)',
    request: { params: z.object({ token: z.string() }) },
    responses: { 200: json(credentialSchema, 'The credential'), 404: json(errorSchema, ERROR_TEXT[404]) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/pricing/{country}', summary: 'Price per verification in a country', security: secured,
    request: { params: z.object({ country: z.string().openapi({ example: 'FR' }) }) },
    responses: { 200: keyed(json(priceSchema, 'The price')), ...errors(401, 404, 422) },
  });
  for (const [path, summary] of [['/healthz', 'Process is alive'], ['/readyz', 'Store, queue and inference reachable']] as const) {
    registry.registerPath({
      method: 'get', path, summary,
      responses: { 200: json(z.object({ status: z.string() }).passthrough(), 'OK'), 503: { description: 'Not ready (readyz only)' } },
    });
  }
  for (const [path, summary] of [['/v/{session_id}', 'Hosted verification page (HTML; shows a QR code on desktop)'], ['/c/{session_id}', 'Public credential page (HTML)']] as const) {
    registry.registerPath({
      method: 'get', path, summary,
      request: { params: z.object({ session_id: z.string() }) },
      responses: { 200: { description: 'HTML page', content: { 'text/html': { schema: z.string() } } }, 404: { description: 'Unknown or not verified (HTML)' } },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Bioverify identity verification API',
      version: '1.0.0',
      description: `Sandbox keys start vk_sand_, production keys vk_live_; the key alone decides the environment. ${describeRateLimits()}`,
    },
    servers: [{ url: serverUrl }],
  });
}
