import { OpenApiGeneratorV31, OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { ZodType } from 'zod';
import { credentialSchema, errorSchema, priceSchema, resultSchema } from '../schemas/result.schemas';
import {
  cancelSessionResponse, redactSessionResponse, createSessionRequest, createSessionResponse, sessionIdParam, sessionStatusResponse, simulateRequest,
} from '../schemas/session.schemas';
import { attemptsResponse, idempotencyKeyHeader, rateLimitHeaders, retryAfterHeader, retrySessionResponse } from '../schemas/retry.schemas';
import { deliveryLogSchema } from '../schemas/webhook-delivery.schemas';
import {
  captureParams, captureProgressResponse, captureStatusResponse, documentSideResponse, livenessResponse, reportSchema, selfieResponse, startCaptureResponse, submitResponse,
} from '../schemas/capture.schemas';
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
    description: 'From a browser page on another origin (the widget with `apiKey`), CORS is answered for sandbox keys only: the preflight is granted, a sandbox key gets `Access-Control-Allow-Origin: *` with the RateLimit-* headers exposed, and a production key gets 403 FORBIDDEN without CORS headers (nothing is created). Create production sessions on your backend.',
    request: { headers: idempotencyKeyHeader, body: { content: { 'application/json': { schema: createSessionRequest } } } },
    responses: { 201: keyed(json(createSessionResponse, 'Created'), replayed), ...errors(401, 403, 409, 413, 415, 422, 503) },
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
    method: 'post', path: '/v1/sessions/{id}/redact', security: secured, request: params,
    summary: "Erase a session's personal data (idempotent; an open session is cancelled first)",
    description:
      'Deletes the expected name, date of birth and address, the person read from the document (in the result of every attempt), the credential (its token stops validating: 404), the captured images, and the document country, MRZ corrections and any sanctions match in the evidence report. The result keeps status, checks, confidence, failure_reason, verified_until and metadata, with `person` and `credential_token` null and `redacted_at` set; the report keeps every score. A retry of a redacted session is refused (409). Deployments may also redact automatically after PII_RETENTION_DAYS.',
    responses: { 200: keyed(json(redactSessionResponse, 'Redacted')), ...errors(401, 403, 404, 409) },
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
    method: 'get', path: '/v1/sessions/{id}/report', summary: 'The evidence report of a decided session: scores, lines, models, timings', security: secured,
    request: params, responses: { 200: json(reportSchema, 'The report (no images, no personal data)'), ...errors(401, 403, 404, 409) },
  });
  registerCapture(registry);
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
    info: { title: 'Bioverify identity verification API', version: '1.0.0', description: `${DESCRIPTION}\n\n**Rate limits.** ${describeRateLimits()}` },
    servers: [{ url: serverUrl }],
  });
}

const DESCRIPTION = `Sandbox keys start vk_sand_, production keys vk_live_; the key alone decides the environment.

**Confidence.** Each score the checks produced is placed against its decision line:
margin = value − threshold for scores that must reach the line (gte), threshold − value for scores that must stay under it (lte);
c = clamp(0.5 + 0.5 · margin / max(|threshold|, 0.05), 0, 1), so 0.5 is the line itself, 1 is a margin as large as the line, 0 as far on the failing side.
The session's confidence is the smallest c over every check that ran (a verification is as sure as its least sure check), so VERIFIED gives at least 0.5 and FAILED below 0.5; a failure no score explains (an unreadable document) gives 0; a cancelled session 0.`;

/** The capture API: no API key; the session id is the capability, the capture token binds one device. */
function registerCapture(registry: OpenAPIRegistry): void {
  const bearer = registry.registerComponent('securitySchemes', 'CaptureToken', { type: 'http', scheme: 'bearer', description: 'The capture_token from start' });
  const device = [{ [bearer.name]: [] }];
  const params = { params: captureParams };
  const image = (description: string) => ({
    content: Object.fromEntries(['image/jpeg', 'image/png', 'image/webp'].map((type) => [type, { schema: z.string().openapi({ format: 'binary', description }) }])),
  });
  registry.registerPath({
    method: 'post', path: '/v1/capture/{session_id}/start', summary: 'Start (or resume, with the token) capture on this device; PENDING → IN_PROGRESS', request: params,
    responses: { 200: json(startCaptureResponse, 'The token and the challenge'), ...errors(401, 404, 409, 429) },
  });
  registry.registerPath({
    method: 'put', path: '/v1/capture/{session_id}/document/{side}', summary: 'Upload a document side; it is read at once', security: device,
    request: {
      params: captureParams.extend({ side: z.enum(['front', 'back']) }),
      query: z.object({ type: z.enum(['passport', 'id_card', 'driving_licence', 'residence_permit']) }),
      body: image('The photo, at most 10 MiB and 40 megapixels'),
    },
    responses: { 200: json(documentSideResponse, 'The read'), ...errors(401, 404, 409, 413, 415, 422, 429, 503) },
  });
  registry.registerPath({
    method: 'post', path: '/v1/capture/{session_id}/liveness', summary: 'Upload the liveness frames (quality gate only)', security: device,
    request: {
      ...params,
      body: {
        content: {
          'multipart/form-data': {
            schema: z.object({
              frame: z.array(z.string().openapi({ format: 'binary' })).openapi({ description: '8 to 60 JPEG frames in capture order, each at most 1 MiB and 2 megapixels' }),
              timestamps: z.string().openapi({ description: 'JSON array of milliseconds since the challenge started, one per frame, increasing' }),
            }),
          },
        },
      },
    },
    responses: { 200: json(livenessResponse, 'The quality gate'), ...errors(401, 404, 409, 413, 415, 422, 429, 503) },
  });
  registry.registerPath({
    method: 'put', path: '/v1/capture/{session_id}/selfie', summary: 'Upload the selfie', security: device,
    request: { ...params, body: image('The selfie, same rules as a document side') },
    responses: { 200: json(selfieResponse, 'Whether a face was found'), ...errors(401, 404, 409, 413, 415, 422, 429, 503) },
  });
  registry.registerPath({
    method: 'post', path: '/v1/capture/{session_id}/submit', summary: 'Hand the capture to the decision (idempotent)', security: device, request: params,
    responses: { 202: json(submitResponse, 'Decision pending'), ...errors(401, 404, 409, 429) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/capture/{session_id}', summary: 'Capture status (steps only with the token)', request: params,
    responses: { 200: json(captureStatusResponse, 'The status'), ...errors(401, 404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/capture/{session_id}/events', summary: 'The capture status as Server-Sent Events, on every change until decided', request: params,
    responses: { 200: { description: 'text/event-stream of CaptureStatus objects', content: { 'text/event-stream': { schema: z.string() } } }, ...errors(404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/capture/{session_id}/progress', summary: 'The coarse step the applicant is on (no token: for the desktop that handed off to a phone)', request: params,
    responses: { 200: json(captureProgressResponse, 'The progress'), ...errors(404) },
  });
  registry.registerPath({
    method: 'get', path: '/v1/capture/{session_id}/progress/events', summary: 'The progress as Server-Sent Events, on every change until decided', request: params,
    responses: { 200: { description: 'text/event-stream of CaptureProgress objects', content: { 'text/event-stream': { schema: z.string() } } }, ...errors(404) },
  });
}
