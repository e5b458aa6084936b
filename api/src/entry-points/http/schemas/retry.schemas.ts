import { SESSION_STATUSES } from '../../../domain/session-status';
import { resultSchema } from './result.schemas';
import { nullable } from '../openapi/operation-parts';
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
        decided_at: z.string().nullable().openapi({ format: 'date-time' }),
        result: nullable(resultSchema).openapi({
          description:
            "The attempt's result, the exact bytes its webhook carried; null until decided (and for an expired attempt).",
        }),
      }),
    ),
  })
  .openapi('SessionAttempts', { description: 'Every attempt of a session, oldest first.' });

export const idempotencyKeyHeader = z.object({
  // HTTP trims the spaces around a header value, so a key neither starts nor ends with one.
  'Idempotency-Key': z
    .string()
    .regex(/^[\x21-\x7E]([\x20-\x7E]{0,253}[\x21-\x7E])?$/)
    .optional()
    .openapi({
      description:
        'Up to 255 printable ASCII characters, scoped to the API key, kept 24 hours. A repeat with the same body replays the first response (status and body, byte for byte) with Idempotent-Replayed: true; another body: 422 IDEMPOTENCY_KEY_REUSED; while the first still runs: 409 CONFLICT.',
    }),
});
