import { z } from './zod-openapi';

export const deliveryAttemptSchema = z
  .object({
    delivery_id: z.string().openapi({
      description: 'The `webhook-id` header: the same on every attempt and redelivery of this result.',
    }),
    round: z.number().int().openapi({
      description: '0 for the delivery the decision triggered; n for the n-th redelivery by an admin.',
    }),
    attempt: z.number().int().openapi({ description: '1 for the first try of the round, up to 4 (three retries).' }),
    attempted_at: z.string().openapi({ format: 'date-time', description: 'ISO 8601 UTC.' }),
    status_code: z.number().int().nullable().openapi({
      description: "The receiver's HTTP status; null when no answer came (timeout, refused, connection error).",
    }),
    latency_ms: z.number().int(),
    error: z.string().nullable().openapi({ example: 'timed out after 10000 ms' }),
    result: z.enum(['delivered', 'retry_scheduled', 'failed']),
  })
  .openapi('WebhookDeliveryAttempt');

export const deliveryLogSchema = z
  .object({
    session_id: z.string(),
    webhook_state: z.enum(['none', 'pending', 'delivered', 'failed']).openapi({
      description: 'none: no webhook is due (open, expired or cancelled session); pending: being delivered or retried.',
    }),
    delivery_id: z.string().nullable(),
    attempts: z.array(deliveryAttemptSchema).openapi({ description: 'Oldest first.' }),
  })
  .openapi('WebhookDeliveryLog');
