import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ZodType } from 'zod';
import { credentialSchema, errorSchema, priceSchema, resultSchema } from '../schemas/result.schemas';
import {
  cancelSessionResponse, createSessionRequest, createSessionResponse, sessionIdParam, sessionStatusResponse, simulateRequest,
} from '../schemas/session.schemas';
import { deliveryLogSchema } from '../schemas/webhook-delivery.schemas';
import { z } from '../schemas/zod-openapi';

type ErrorStatus = 401 | 403 | 404 | 409 | 413 | 415 | 422 | 503;
const ERROR_TEXT: Record<ErrorStatus, string> = {
  401: 'UNAUTHORIZED (no X-Api-Key) or INVALID_KEY_FORMAT (bad prefix or unknown key)',
  403: 'FORBIDDEN: the session belongs to another account or environment',
  404: 'NOT_FOUND',
  409: 'CONFLICT: the session state does not allow this',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE: send application/json',
  422: 'VALIDATION_ERROR: details lists every bad field',
  503: 'SERVICE_UNAVAILABLE: a dependency is down; nothing was changed',
};

const json = (schema: ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const errors = (...statuses: ErrorStatus[]) => Object.fromEntries(statuses.map((s) => [s, json(errorSchema, ERROR_TEXT[s])]));

/** Builds /docs/openapi.json from the same zod schemas the routes validate with. */
export function buildOpenApiDocument(serverUrl: string) {
  const registry = new OpenAPIRegistry();
  const apiKey = registry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-Api-Key' });
  const secured = [{ [apiKey.name]: [] }];
  const params = { params: sessionIdParam };

  registry.registerPath({
    method: 'post', path: '/v1/sessions', summary: 'Create a verification session', security: secured,
    request: { body: { content: { 'application/json': { schema: createSessionRequest } } } },
    responses: { 201: json(createSessionResponse, 'Created'), ...errors(401, 413, 415, 422, 503) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/sessions/{id}', summary: 'Read a session status', security: secured, request: params,
    responses: { 200: json(sessionStatusResponse, 'The session'), ...errors(401, 403, 404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/sessions/{id}/result', summary: 'Read the result of a decided session', security: secured, request: params,
    responses: { 200: json(resultSchema, 'The result (same bytes as the webhook body)'), ...errors(401, 403, 404, 409) },
  });
  registry.registerPath({
    method: 'delete', path: '/v1/sessions/{id}', summary: 'Cancel an open session (FAILED / CANCELLED_BY_API, no webhook)', security: secured,
    request: params, responses: { 200: json(cancelSessionResponse, 'Cancelled'), ...errors(401, 403, 404, 409) },
  });
  registry.registerPath({
    method: 'post', path: '/v1/sessions/{id}/simulate', summary: 'Sandbox: complete a session with a chosen outcome', security: secured,
    request: { ...params, body: { content: { 'application/json': { schema: simulateRequest } } } },
    responses: { 200: json(resultSchema, 'The result, exactly as a real completion'), ...errors(401, 403, 404, 409, 415, 422, 503) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/sessions/{id}/webhooks', summary: "The session's webhook delivery attempts (time, status code, latency, error)", security: secured,
    request: params, responses: { 200: json(deliveryLogSchema, 'The delivery log'), ...errors(401, 403, 404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/credentials/{token}', summary: 'Public: check a verified credential (exposes name and document)',
    request: { params: z.object({ token: z.string() }) },
    responses: { 200: json(credentialSchema, 'The credential'), ...errors(404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/pricing/{country}', summary: 'Price per verification in a country', security: secured,
    request: { params: z.object({ country: z.string().openapi({ example: 'FR' }) }) },
    responses: { 200: json(priceSchema, 'The price'), ...errors(401, 404, 422) },
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
    info: { title: 'Bioverify identity verification API', version: '1.0.0', description: 'Sandbox keys start vk_sand_, production keys vk_live_; the key alone decides the environment.' },
    servers: [{ url: serverUrl }],
  });
}
