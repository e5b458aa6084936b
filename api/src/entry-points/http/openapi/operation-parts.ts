import { ZodType } from 'zod';
import { ERROR_CODES } from '../../../shared/app-error';
import { z } from '../schemas/zod-openapi';

/**
 * The parts every route module's OpenAPI declarations share: the error body (its codes from the
 * one error type), the responses built on it, and the security requirements.
 */
export const errorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    }),
    request_id: z.string(),
  })
  .openapi('Error');

type ErrorStatus = 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;
const ERROR_TEXT: Record<ErrorStatus, string> = {
  401: 'UNAUTHORIZED (no credential) or INVALID_KEY_FORMAT (bad prefix or unknown key)',
  403: 'FORBIDDEN: the session belongs to another account or environment',
  404: 'NOT_FOUND',
  409: 'CONFLICT: the session state does not allow this',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR: details lists every bad field (IDEMPOTENCY_KEY_REUSED: that Idempotency-Key came with another body)',
  429: 'RATE_LIMITED: see Retry-After',
  503: 'SERVICE_UNAVAILABLE: the store or another dependency is briefly unavailable, or the answer missed its deadline; try again after Retry-After',
};

const integerHeader = (description: string) => ({ schema: { type: 'integer' as const }, description });

/** On every response to a request made with an API key (the IETF RateLimit header fields). */
export const rateLimitHeaders = {
  'RateLimit-Limit': integerHeader('Requests allowed per window for this API key (from the plan; see the README).'),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
};
const retryAfterHeader = { 'Retry-After': integerHeader('Seconds to wait before the next request.') };
export const replayedHeader = {
  'Idempotent-Replayed': {
    schema: { type: 'string' as const, enum: ['true'] },
    description: 'Present on a replay of a stored response.',
  },
};

/** On every response (the same id is in an error's `request_id` and in the logs). */
const requestIdHeader = {
  'X-Request-Id': {
    schema: { type: 'string' as const },
    description: 'The request id, also in the logs and in an error body.',
  },
};

export const json = (schema: ZodType, description: string) => ({
  description,
  headers: requestIdHeader,
  content: { 'application/json': { schema } },
});

/** A response to a request that passed API-key authentication: it carries the key's rate-limit headers. */
export const keyed = (response: ReturnType<typeof json>, extra = {}) => ({
  ...response,
  headers: { ...requestIdHeader, ...rateLimitHeaders, ...extra },
});

const withRetryAfter = (response: ReturnType<typeof json>) => ({
  ...response,
  headers: { ...response.headers, ...retryAfterHeader },
});

/**
 * Error responses of an API-key operation: 429 always, as every keyed request counts against the
 * plan, and 503 always, as every one reads the store (a busy store after its retries) and every
 * answer has a deadline.
 */
export const keyedErrors = (...statuses: ErrorStatus[]) =>
  Object.fromEntries(
    [...new Set([...statuses, 429 as const, 503 as const])].map((s) => {
      const response = json(errorSchema, ERROR_TEXT[s]);
      return [s, s === 401 ? response : keyed(response, s === 429 || s === 503 ? retryAfterHeader : {})];
    }),
  );

/** Error responses of an operation without an API key (no rate-limit headers; 503 as above). */
export const publicErrors = (...statuses: ErrorStatus[]) =>
  Object.fromEntries(
    [...new Set([...statuses, 503 as const])].map((s) => {
      const response = json(errorSchema, ERROR_TEXT[s]);
      return [s, s === 503 || s === 429 ? withRetryAfter(response) : response];
    }),
  );

export const html = (description: string) => ({
  description,
  headers: requestIdHeader,
  content: { 'text/html': { schema: z.string() } },
});
/**
 * A Server-Sent Events response, described event by event (as OpenAPI 3.2's itemSchema does and
 * Schemathesis reads `schema` here): each event's `data` is one JSON object of `component`.
 */
export const eventStream = (description: string, component: string) => ({
  description,
  headers: requestIdHeader,
  content: {
    'text/event-stream': {
      schema: z.object({
        event: z.string().optional(),
        id: z.string().optional(),
        retry: z.number().int().optional(),
        // JSON Schema's content keywords, which the library's metadata type does not list.
        data: z.string().openapi({
          description: `One ${component} as JSON.`,
          ...({
            contentMediaType: 'application/json',
            contentSchema: { $ref: `#/components/schemas/${component}` },
          } as object),
        }),
      }),
    },
  },
});

export const API_KEY = [{ ApiKey: [] }];
export const CAPTURE_TOKEN = [{ CaptureToken: [] }];
/** Declared explicitly so that tools do not apply a document-wide default to these operations. */
export const PUBLIC: Array<Record<string, string[]>> = [];

/** A field that may be null, leaving the referenced component itself non-nullable. */
export const nullable = <T extends ZodType>(schema: T) => z.union([schema, z.null()]);
