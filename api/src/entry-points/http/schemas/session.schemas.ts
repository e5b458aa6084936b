import { CHALLENGE_STEPS } from '../../../domain/capture/challenge';
import { DOCUMENT_CHIP_MODES } from '../../../domain/chip/chip-verification';
import { FAILURE_REASONS, SESSION_STATUSES } from '../../../domain/session-status';
import { SESSION_ID_PATTERN } from '../../../shared/random-id';
import { z } from './zod-openapi';

/** A malformed id cannot exist, so it answers 404 rather than 422. */
export const sessionIdSchema = z.string().regex(SESSION_ID_PATTERN).openapi({
  description: '`ses_` and at least 22 base62 characters.',
  example: 'ses_4Jq8v0ZbQ2x7LmN1pR5sT9wY',
});

const isAbsoluteHttpUrl = (value: string): boolean => {
  if (!/^https?:\/\/[^/?#\s]/i.test(value)) return false;
  try {
    return new URL(value).host.length > 0;
  } catch {
    return false;
  }
};

const httpUrl = z
  .string()
  .max(2048)
  .regex(/^[hH][tT][tT][pP][sS]?:\/\/[^/?#\s]/, 'must be an absolute http or https URL')
  .refine(isAbsoluteHttpUrl, 'must be an absolute http or https URL')
  .openapi({ format: 'uri' });

const isRealPastDate = (value: string): boolean => {
  const date = new Date(`${value}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value && date.getTime() <= Date.now();
};

export const createSessionRequest = z
  .strictObject({
    return_url: httpUrl.openapi({
      description: 'Absolute http(s) URL; the applicant is sent here with session_id and status query parameters.',
      example: 'https://example.com/done',
    }),
    webhook_url: httpUrl.openapi({
      description: 'Absolute http(s) URL (https for production keys) on a public address; receives the signed result.',
      example: 'https://example.com/webhooks/identity',
    }),
    expected_name: z
      .string()
      .min(1, 'must not be empty')
      .max(200)
      // The same test as "not blank after trimming", written as a pattern so the document carries it.
      .regex(/\S/, 'must not be empty')
      .openapi({
        description: 'Name expected on the document; compared ignoring case, diacritics, punctuation and order.',
        example: 'Jane Doe',
      }),
    expected_dob: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in YYYY-MM-DD form')
      .refine(isRealPastDate, 'must be a real calendar date, not in the future')
      .optional()
      .openapi({
        format: 'date',
        description: 'A real calendar date, not in the future.',
        example: '1990-04-21',
      }),
    expected_address: z.string().max(500).optional(),
    locale: z.enum(['en', 'fr']).optional().openapi({ description: 'Language of the hosted page (default en).' }),
    document_chip: z.enum(DOCUMENT_CHIP_MODES).optional().openapi({
      description:
        'Passport chip (eMRTD) reading: `off` ignores any chip data, `optional` (default) checks it when sent, `required` fails the session as CHIP_REQUIRED without it.',
    }),
    metadata: z.record(z.string(), z.unknown()).optional().openapi({
      description: 'Client reference data, at most 8 KiB serialized, echoed byte for byte in the result and webhook.',
    }),
    sandbox: z
      .strictObject({
        liveness_challenge: z
          .array(z.enum(CHALLENGE_STEPS))
          .length(3)
          .refine((steps) => new Set(steps).size === steps.length, 'steps must be distinct')
          .openapi({ uniqueItems: true }),
      })
      .optional()
      .openapi({
        description:
          'Sandbox keys only (422 with a production key): pins the liveness challenge so automated tests can drive the page with a prerecorded camera.',
      }),
  })
  .openapi('CreateSessionRequest', {
    example: {
      return_url: 'https://example.com/done',
      webhook_url: 'https://example.com/webhooks/identity',
      expected_name: 'Jane Doe',
      expected_dob: '1990-04-21',
      locale: 'en',
      metadata: { order: '42' },
    },
  });

export const createSessionResponse = z
  .object({
    session_id: sessionIdSchema,
    verification_url: z.url(),
    status: z.literal('PENDING'),
    environment: z.enum(['sandbox', 'production']),
  })
  .openapi('CreateSessionResponse');

export const sessionStatusResponse = z
  .object({
    session_id: z.string(),
    status: z.enum(SESSION_STATUSES),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .openapi({ description: 'Null until the session is VERIFIED or FAILED.' }),
    environment: z.enum(['sandbox', 'production']),
  })
  .openapi('SessionStatus');

export const cancelSessionResponse = z
  .object({
    session_id: z.string(),
    status: z.literal('FAILED'),
    failure_reason: z.literal('CANCELLED_BY_API'),
  })
  .openapi('CancelSessionResponse');

export const redactSessionResponse = z
  .object({
    session_id: z.string(),
    status: z
      .enum(['VERIFIED', 'FAILED', 'EXPIRED'])
      .openapi({ description: 'Unchanged by the redaction (an open session is cancelled first: FAILED).' }),
    redacted_at: z
      .string()
      .openapi({ format: 'date-time', description: 'ISO 8601 UTC; the same on every repeat of the call.' }),
  })
  .openapi('RedactSessionResponse');

export const simulateRequest = z
  .discriminatedUnion('outcome', [
    z.strictObject({ outcome: z.literal('VERIFIED') }),
    z.strictObject({
      outcome: z.literal('FAILED'),
      failure_reason: z.enum(FAILURE_REASONS.filter((r) => r !== 'CANCELLED_BY_API') as [string, ...string[]]),
    }),
  ])
  .openapi('SimulateRequest', {
    description: 'Sandbox only. CANCELLED_BY_API is reached with DELETE, not simulated.',
  });

export const sessionIdParam = z.object({ id: sessionIdSchema });
