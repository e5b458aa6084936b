import { SESSION_STATUSES } from '../../../domain/session-status';
import { resultSchema } from './result.schemas';
import { z } from './zod-openapi';

export const retrySessionResponse = z
  .object({
    session_id: z.string(),
    status: z.literal('PENDING'),
    verification_url: z.url().openapi({ description: 'The same URL as at creation.' }),
    attempt: z.number().int().min(2).max(3),
  })
  .openapi('RetrySessionResponse');

export const attemptsResponse = z
  .object({
    session_id: z.string(),
    attempt: z.number().int().min(1).openapi({ description: 'The current attempt.' }),
    attempts: z.array(
      z.object({
        attempt: z.number().int().min(1),
        status: z.enum(SESSION_STATUSES),
        decided_at: z.string().nullable(),
        result: resultSchema.nullable().openapi({ description: "The attempt's result, the exact bytes its webhook carried; null until decided (and for an expired attempt)." }),
      }),
    ),
  })
  .openapi('SessionAttempts', { description: 'Every attempt of a session, oldest first.' });

export const idempotencyKeyHeader = z.object({
  'Idempotency-Key': z.string().min(1).max(255).optional().openapi({
    description:
      'Up to 255 printable ASCII characters, scoped to the API key, kept 24 hours. A repeat with the same body replays the first response (status and body, byte for byte) with Idempotent-Replayed: true; another body: 422 IDEMPOTENCY_KEY_REUSED; while the first still runs: 409 CONFLICT.',
  }),
});

const header = (description: string) => ({ schema: { type: 'integer' as const }, description });

/** On every response to a request made with an API key (the IETF RateLimit header fields). */
export const rateLimitHeaders = {
  'RateLimit-Limit': header('Requests allowed per window for this API key (from the plan; see the README).'),
  'RateLimit-Remaining': header('Requests left in the current window.'),
  'RateLimit-Reset': header('Seconds until the window resets.'),
};
export const retryAfterHeader = { 'Retry-After': header('Seconds to wait before the next request.') };
